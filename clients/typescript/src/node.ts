/**
 * The Node.js entry of cpet-analysis-client: the same client, whose `uploadFile` also takes the path
 * of a file on disk (read here, sent unchanged, named after the file).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createCpetClient as createClientOfBlobs, type CpetClient as ClientOfBlobs, type CpetClientOptions, type UploadOptions } from './client.js';
import type { UploadSummary } from './types.js';

export * from './index.js';

export interface CpetClient extends Omit<ClientOfBlobs, 'uploadFile'> {
  /** Uploads a file unchanged, as multipart: a path (named after the file unless `filename` says otherwise) or a Blob. */
  uploadFile(file: string | Blob, options?: UploadOptions): Promise<UploadSummary>;
}

export function createCpetClient(options: CpetClientOptions): CpetClient {
  const client = createClientOfBlobs(options);
  return {
    ...client,
    async uploadFile(file, upload = {}) {
      if (typeof file !== 'string') return client.uploadFile(file, upload);
      return client.uploadFile(new Blob([await readFile(file)]), { ...upload, filename: upload.filename ?? basename(file) });
    },
  };
}
