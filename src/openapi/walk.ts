/**
 * Reading helpers over the API document: list operations, follow local `$ref`s, and read the error
 * codes a response can carry. Only local references (`#/...`) exist in our document.
 */
import { HTTP_METHODS, type ApiDocument, type OperationEntry, type ParameterObject, type ResponseObject } from './types.js';

/** Decodes one JSON Pointer segment (RFC 6901). */
function decodeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The value a local `$ref` (`#/components/schemas/Name`) points at; throws when it points nowhere. */
export function resolvePointer(doc: ApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported, got ${ref}`);
  let node: unknown = doc;
  for (const segment of ref.slice(2).split('/').map(decodeSegment)) {
    if (node === null || typeof node !== 'object' || !(segment in node)) throw new Error(`unresolvable reference ${ref}`);
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** Follows `$ref` chains until a concrete object is reached. */
export function deref<T extends { $ref?: string }>(doc: ApiDocument, node: T): T {
  let current: T = node;
  const seen = new Set<string>();
  while (typeof current.$ref === 'string') {
    if (seen.has(current.$ref)) throw new Error(`reference cycle at ${current.$ref}`);
    seen.add(current.$ref);
    current = resolvePointer(doc, current.$ref) as T;
  }
  return current;
}

/** The last segment of a `$ref`: the component's name. */
export function refName(ref: string): string {
  return decodeSegment(ref.slice(ref.lastIndexOf('/') + 1));
}

/** Every operation of the document, in document order, with path-level parameters merged in. */
export function listOperations(doc: ApiDocument): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const own = (operation.parameters ?? []).map((p) => deref(doc, p));
      const ownKeys = new Set(own.map((p) => `${p.in}:${p.name}`));
      // An operation's parameter overrides a path-level one of the same name and location (OpenAPI 3.1, 4.8.10).
      const inherited = (item.parameters ?? []).map((p) => deref(doc, p)).filter((p) => !ownKeys.has(`${p.in}:${p.name}`));
      out.push({ method, path, operation, parameters: [...inherited, ...own] as ParameterObject[] });
    }
  }
  return out;
}

/** Whether an operation needs no API key (`security: []`). */
export function isPublicOperation(doc: ApiDocument, entry: OperationEntry): boolean {
  const security = entry.operation.security ?? doc.security ?? [];
  return security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);
}

/**
 * The error codes a response can carry: the `error` enum of its JSON schema, read from the schema
 * itself or from an `allOf` member that narrows the shared `Error` schema. Empty for non-errors.
 */
export function errorCodesOf(doc: ApiDocument, response: ResponseObject): string[] {
  const schema = deref(doc, response).content?.['application/json']?.schema;
  if (!schema) return [];
  const root = deref(doc, schema);
  for (const member of root.allOf ?? []) {
    if (member.$ref) continue;
    const codes = member.properties?.error?.enum;
    if (Array.isArray(codes)) return codes.map(String);
  }
  const error = root.properties?.error;
  const codes = error ? deref(doc, error).enum : undefined;
  return Array.isArray(codes) ? codes.map(String) : [];
}
