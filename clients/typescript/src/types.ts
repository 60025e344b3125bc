/** Names for the API's schemas (generated from openapi/cpet-api.yaml into ./generated/api.ts). */
import type { RequestBodyOption } from 'openapi-fetch';
import type { components, operations, paths } from './generated/api.js';

type Schemas = components['schemas'];

export type { components, operations, paths };
export type ApiErrorBody = Schemas['Error'];
export type ErrorCode = Schemas['ErrorCode'];
export type Capabilities = Schemas['Capabilities'];
export type FormatsResponse = Schemas['FormatsResponse'];
export type FormatInfo = Schemas['FormatInfo'];
export type SampleResponse = Schemas['SampleResponse'];
export type ContentUploadRequest = Schemas['ContentUploadRequest'];
/** The JSON upload body as sent: `filename` and either `content` or `content_base64`, never both. */
export type ContentUploadBody = NonNullable<RequestBodyOption<paths['/v1/cpet/content']['post']>['body']>;
export type TicketRequest = Schemas['TicketRequest'];
/** What `createUploadTickets` takes: `count` may be left out (the contract's default is 1). */
export type TicketOptions = Partial<TicketRequest>;
export type TicketResponse = Schemas['TicketResponse'];
export type UploadSummary = Schemas['UploadSummary'];
export type ChannelName = Schemas['ChannelName'];
export type ChannelSummary = Schemas['ChannelSummary'];
export type SeriesQuery = NonNullable<paths['/v1/cpet/{cpet_id}/series']['get']['parameters']['query']>;
export type SeriesResponse = Schemas['SeriesResponse'];
export type ExportQuery = NonNullable<paths['/v1/cpet/{cpet_id}/export']['get']['parameters']['query']>;
export type SeriesChannel = Schemas['SeriesChannel'];
export type DeleteResponse = Schemas['DeleteResponse'];
export type AnalysisName = Schemas['AnalysisName'];
export type AnalyzeRequest = Schemas['AnalyzeRequest'];
export type AnalyzeResponse = Schemas['AnalyzeResponse'];
export type Envelope = Schemas['Envelope'];
export type VtEnvelope = Schemas['VtEnvelope'];
export type EovEnvelope = Schemas['EovEnvelope'];
export type SubstrateEnvelope = Schemas['SubstrateEnvelope'];
export type VtFindings = Schemas['VtFindings'];
export type EovFindings = Schemas['EovFindings'];
export type EovEvent = Schemas['EovEvent'];
export type SubstrateFindings = Schemas['SubstrateFindings'];
export type SubstrateWindow = Schemas['SubstrateWindow'];
export type MetricInfo = Schemas['MetricInfo'];
export type MetricResult = Schemas['MetricResult'];
export type ComputeResponse = Schemas['ComputeResponse'];
/** The result type of each metric the registry documents (`vo2max` → its number and window, ...). */
export type MetricResults = ComputeResponse['metrics'];
export type Health = Schemas['Health'];
