/**
 * The API document: openapi/cpet-api.yaml is the source of truth. The server routes through it
 * (openapi-backend), serves it at /v1/openapi.json, and derives /llms.txt and
 * /llms-full.txt from it, so none of them can drift from the contract.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { ApiDocument } from './types.js';

export { withoutWebOnly } from './web-only.js';
export { errorTable, llmsFullText, llmsText } from './llms-text.js';
export { errorCodesOf, isPublicOperation, listOperations } from './walk.js';
export type * from './types.js';

/** Absolute path of the hand-written document. */
export const API_DOCUMENT_PATH = fileURLToPath(new URL('../../openapi/cpet-api.yaml', import.meta.url));

/**
 * Reads and parses the YAML document (local `$ref`s stay as they are; nothing external is fetched).
 * Returns a fresh object on every call, so callers may mutate their copy.
 */
export function loadApiDocument(path: string = API_DOCUMENT_PATH): ApiDocument {
  const doc = parse(readFileSync(path, 'utf8')) as ApiDocument;
  if (typeof doc?.openapi !== 'string' || !doc.openapi.startsWith('3.1')) {
    throw new Error(`${path} is not an OpenAPI 3.1 document`);
  }
  if (!doc.paths || typeof doc.paths !== 'object') throw new Error(`${path} has no paths`);
  return doc;
}

/**
 * A copy of the document whose `FormatId` lists the given format ids as its `enum`: the formats are
 * plugins discovered at start-up (folders under formats/ and npm packages), so the YAML lists none
 * and adding a format touches no file but its own; the served document names every format the
 * server can report in `source.format`, in discovery order.
 */
export function withFormatIds(doc: ApiDocument, ids: readonly string[]): ApiDocument {
  const copy = structuredClone(doc);
  const formatId = copy.components?.schemas?.FormatId;
  if (!formatId) throw new Error('the document has no FormatId schema');
  if (ids.length === 0) throw new Error('no format id to list: at least one format plugin must be installed');
  formatId.enum = [...new Set(ids)];
  return copy;
}
