/** Names for the API schemas the web application reads (generated from openapi/cpet-api.yaml). */
import type { components, paths } from '../../src/generated/api.js';

type Schemas = components['schemas'];

export type { paths };
export type ApiErrorBody = Schemas['Error'];
export type ErrorCode = Schemas['ErrorCode'];
export type UploadSummary = Schemas['UploadSummary'];
export type ChannelSummary = Schemas['ChannelSummary'];
export type SampleResponse = Schemas['SampleResponse'];
export type SeriesResponse = Schemas['SeriesResponse'];
export type SeriesChannel = Schemas['SeriesChannel'];
export type AnalyzeRequest = Schemas['AnalyzeRequest'];
export type AnalyzeResponse = Schemas['AnalyzeResponse'];
export type Envelope = Schemas['Envelope'];
export type VtFindings = Schemas['VtFindings'];
export type EovFindings = Schemas['EovFindings'];
export type EovEvent = Schemas['EovEvent'];
export type SubstrateFindings = Schemas['SubstrateFindings'];
export type SubstrateWindow = Schemas['SubstrateWindow'];
export type MetricInfo = Schemas['MetricInfo'];
export type MetricResult = Schemas['MetricResult'];
export type ComputeResponse = Schemas['ComputeResponse'];
export type Capabilities = Schemas['Capabilities'];
export type WebSession = Schemas['WebSession'];
export type WebModel = Schemas['WebModels']['models'][number];
export type DomainsResponse = Schemas['DomainsResponse'];
export type DomainsOk = Schemas['DomainsOk'];
export type ContentUploadRequest = Schemas['ContentUploadRequest'];
export type SeriesQuery = NonNullable<paths['/v1/cpet/{cpet_id}/series']['get']['parameters']['query']>;
