/**
 * Names for the API schemas the web application reads: the client package's, plus the web
 * application's own routes (internal, absent from the package's surface).
 */
import type { components } from '../../clients/typescript/src/index.js';

export type * from '../../clients/typescript/src/index.js';
export type WebSession = components['schemas']['WebSession'];
export type WebModel = components['schemas']['WebModels']['models'][number];
export type DomainsResponse = components['schemas']['DomainsResponse'];
export type DomainsOk = components['schemas']['DomainsOk'];
