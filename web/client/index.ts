/**
 * The web application's client: the client package (clients/typescript: every API operation, typed
 * from openapi/cpet-api.yaml) with what only the page needs on top: uploads that report progress,
 * and the web application's own routes under /v1/web (session cookie, never X-API-Key).
 */
import createClient from 'openapi-fetch';
import { createCpetClient as createApiClient, type CpetClient as ApiClient } from '../../clients/typescript/src/index.js';
import { uploadContent, uploadFile, type ProgressListener } from './upload.js';
import { createWebRoutes, type WebRoutes } from './web-session.js';
import type { ContentUploadBody, paths, UploadSummary } from './types.js';

export { CpetApiError } from '../../clients/typescript/src/index.js';
export type { ProgressListener } from './upload.js';
export type { WebRoutes } from './web-session.js';
export type * from './types.js';

export interface CpetClientOptions {
  /** Where the service is; '' (the default) is the page's own origin. */
  baseUrl?: string;
  /** The API key, read at each request (null until one is entered). */
  apiKey: () => string | null;
}

export interface CpetClient extends Omit<ApiClient, 'uploadFile' | 'uploadContent'> {
  uploadFile(file: Blob, filename: string, onProgress?: ProgressListener): Promise<UploadSummary>;
  uploadContent(body: ContentUploadBody, onProgress?: ProgressListener): Promise<UploadSummary>;
  /** The web application's own routes (session cookie, never X-API-Key). */
  web: WebRoutes;
}

export function createCpetClient(options: CpetClientOptions): CpetClient {
  const baseUrl = options.baseUrl ?? '';
  const requireKey = (): string => {
    const key = options.apiKey();
    if (!key) throw new TypeError('Enter an API key first.');
    return key;
  };
  const api = createApiClient({ baseUrl, apiKey: requireKey });
  return {
    ...api,
    uploadFile: (file, filename, onProgress) => uploadFile(baseUrl, requireKey(), file, filename, onProgress),
    uploadContent: (body, onProgress) => uploadContent(baseUrl, requireKey(), body, onProgress),
    web: createWebRoutes(api.api, createClient<paths>({ baseUrl })),
  };
}
