/**
 * cpet-analysis-client: the typed client of the CPET analysis service. In Node.js the package's
 * `node` entry (./node.ts) is chosen instead, whose `uploadFile` also takes a path.
 */
export { call, DEFAULT_RETRY, type RetryPolicy } from './call.js';
export { createCpetClient, type CpetClient, type CpetClientOptions, type UploadOptions, type WaitOptions } from './client.js';
export { envelopesOf, type EnvelopesByAnalysis } from './envelopes.js';
export { CpetApiError, errorFrom } from './errors.js';
export type * from './types.js';
