/**
 * Uploads with progress. `fetch` reports no upload progress, so the page sends its two upload routes
 * through XMLHttpRequest; their bodies and answers keep the client package's types and errors.
 */
import { errorFrom } from '../../clients/typescript/src/index.js';
import type { ContentUploadBody, UploadSummary } from './types.js';

/** Fraction of the request body sent so far, 0 to 1. */
export type ProgressListener = (fraction: number) => void;

function send(url: string, body: XMLHttpRequestBodyInit, headers: Record<string, string>, onProgress?: ProgressListener): Promise<UploadSummary> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.responseType = 'json';
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener('load', () => {
      if (xhr.status === 200) resolve(xhr.response as UploadSummary);
      else reject(errorFrom(xhr.status, xhr.response));
    });
    xhr.addEventListener('error', () => reject(new TypeError(`The upload to ${url} did not reach the service.`)));
    xhr.send(body);
  });
}

/** POST /v1/cpet: the unchanged file as multipart field `file`. */
export function uploadFile(baseUrl: string, apiKey: string, file: Blob, filename: string, onProgress?: ProgressListener): Promise<UploadSummary> {
  const form = new FormData();
  form.append('file', file, filename);
  return send(`${baseUrl}/v1/cpet`, form, { 'X-API-Key': apiKey }, onProgress);
}

/** POST /v1/cpet/content: a text file's content as JSON. */
export function uploadContent(baseUrl: string, apiKey: string, body: ContentUploadBody, onProgress?: ProgressListener): Promise<UploadSummary> {
  return send(`${baseUrl}/v1/cpet/content`, JSON.stringify(body), { 'X-API-Key': apiKey, 'Content-Type': 'application/json' }, onProgress);
}
