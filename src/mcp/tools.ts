/**
 * The MCP tools, derived from the operations of openapi/cpet-api.yaml: each tool is one operation,
 * its name the operationId, its input schema the operation's path and query parameters and JSON
 * body fields as the YAML states them (references inlined), its description the operation's own
 * with the notes that must accompany the numbers, and its hints from the HTTP method. So a change
 * of the contract changes the tools. One adaptation: the multipart upload takes the `path` of a
 * file on this machine instead of its bytes.
 */
import type { ApiDocument, OperationEntry, SchemaObject } from '../openapi/types.js';
import { deref, listOperations } from '../openapi/walk.js';
import { NOTES_BY_OPERATION } from './reading-notes.js';

/** The operations offered as tools. */
export const EXPOSED_OPERATIONS = [
  'getCapabilities',
  'listFormats',
  'listMetrics',
  'getSample',
  'uploadCpetMultipart',
  'uploadCpetContent',
  'getCpet',
  'getCpetSeries',
  'analyzeCpet',
  'computeMetrics',
  'deleteCpet',
] as const;

/** The operations not offered, and why (a new operation must be placed in one list or the other). */
export const LEFT_OUT_OPERATIONS: Readonly<Record<string, string>> = {
  createUploadTickets: 'one-shot URLs are for a machine without a key; a tool holds the key and uploads directly',
  postTicketUpload: 'the other half of an upload ticket',
  exportCpet: "the full-resolution table is for files on disk (cpet export, the Python and R clients); thousands of rows would flood a model's context",
  getOpenApi: 'the document the tools are derived from',
  getHealth: 'whether the service runs; a failing tool says so',
  getReady: "an orchestrator's readiness probe; a failing tool says so",
  getMetrics: "Prometheus figures for the operator, kept inside the operator's network",
  getLlmsTxt: 'a text description of the same operations',
  getLlmsFullTxt: 'a text description of the same operations',
  createWebSession: 'web application only (spec section 1)',
  endWebSession: 'web application only (spec section 1)',
  listWebModels: 'web application only: it lists the alternative threshold engine (spec section 1)',
  getWebDomains: 'web application only: the per-second intensity domains (spec section 1)',
  analyzeWeb: 'web application only: analyze with the alternative threshold engine (spec section 1)',
  getWebPage: 'the web application itself, for a browser',
  getWebAsset: "the web application's scripts and styles",
};

/** The multipart upload's tool: the file by path, read and sent unchanged by the MCP server. */
export const UPLOAD_BY_PATH = { operationId: 'uploadCpetMultipart', tool: 'uploadCpetFile' } as const;

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: SchemaObject & { type: 'object' };
  annotations: ToolAnnotations;
  /** Where the call goes. */
  method: string;
  path: string;
  operationId: string;
  /** Input fields that are path or query parameters; every other field goes into the JSON body. */
  pathParameters: string[];
  queryParameters: string[];
}

/** The tools of a document. */
export function deriveTools(doc: ApiDocument): ToolSpec[] {
  const entries = new Map(listOperations(doc).map((e) => [e.operation.operationId, e]));
  return EXPOSED_OPERATIONS.map((id) => {
    const entry = entries.get(id);
    if (!entry) throw new Error(`the API document has no operation ${id} to offer as a tool`);
    return toolOf(doc, entry);
  });
}

function toolOf(doc: ApiDocument, entry: OperationEntry): ToolSpec {
  const { operation, method } = entry;
  const byPath = operation.operationId === UPLOAD_BY_PATH.operationId;
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  const pathParameters: string[] = [];
  const queryParameters: string[] = [];
  for (const p of entry.parameters) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    properties[p.name] = inline(doc, { ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) });
    if (p.required) required.push(p.name);
    (p.in === 'path' ? pathParameters : queryParameters).push(p.name);
  }
  const body = bodySchema(doc, entry);
  const schema: SchemaObject & { type: 'object' } = { type: 'object', properties, required, additionalProperties: false };
  if (body) {
    for (const [name, field] of Object.entries(body.properties ?? {})) properties[name] = field;
    if (entry.operation.requestBody?.required !== false) required.push(...(body.required ?? []));
    if (body.oneOf) schema.oneOf = body.oneOf;
  }
  if (byPath) {
    delete properties.file;
    properties.path = {
      type: 'string',
      minLength: 1,
      description: 'Path of the unchanged export on the machine that runs this MCP server; it is read and uploaded as is (its extension is detection evidence).',
    };
    required.splice(required.indexOf('file'), 1, 'path');
  }
  const notes = NOTES_BY_OPERATION[operation.operationId] ?? [];
  const text = (s: string | undefined) =>
    (s ?? '')
      .trim()
      .split(/\n\s*\n/)
      .map((p) => p.replace(/\s*\n\s*/g, ' '))
      .join('\n\n');
  const description = [`${text(operation.summary)}.`, byPath ? 'The file is given by its path on this machine.' : '', text(operation.description), ...notes].filter(Boolean).join('\n\n');
  return {
    name: byPath ? UPLOAD_BY_PATH.tool : operation.operationId,
    title: operation.summary ?? operation.operationId,
    description,
    inputSchema: { ...schema, required: [...new Set(required)] },
    annotations: {
      readOnlyHint: method === 'get',
      destructiveHint: method === 'delete',
      idempotentHint: method === 'get' || method === 'delete',
      openWorldHint: false,
    },
    method,
    path: entry.path,
    operationId: operation.operationId,
    pathParameters,
    queryParameters,
  };
}

/** The request body's schema (JSON, or for the upload the multipart form), references inlined. */
function bodySchema(doc: ApiDocument, entry: OperationEntry): SchemaObject | null {
  const content = entry.operation.requestBody ? deref(doc, entry.operation.requestBody).content : undefined;
  const media = content?.['application/json'] ?? content?.['multipart/form-data'];
  return media?.schema ? inline(doc, media.schema) : null;
}

/** A schema with every local `$ref` replaced by what it points at (tool schemas must stand alone). */
export function inline(doc: ApiDocument, schema: SchemaObject, seen: readonly string[] = []): SchemaObject {
  if (schema.$ref) {
    if (seen.includes(schema.$ref)) throw new Error(`cannot inline the recursive schema ${schema.$ref}`);
    const { $ref, ...rest } = schema;
    return inline(doc, { ...deref(doc, { $ref }), ...rest }, [...seen, $ref]);
  }
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    // OpenAPI's own keywords, not JSON Schema's.
    if (key === 'discriminator' || key === 'example') continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, SchemaObject | boolean>).map(([k, v]) => [k, typeof v === 'boolean' ? v : inline(doc, v, seen)])) as Record<
        string,
        SchemaObject
      >;
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && value && typeof value === 'object') {
      out[key] = inline(doc, value as SchemaObject, seen);
    } else if ((key === 'oneOf' || key === 'anyOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map((v: SchemaObject) => inline(doc, v, seen));
    } else {
      out[key] = value;
    }
  }
  return out;
}
