/**
 * Checks values against the document's own schemas with ajv (JSON Schema 2020-12), so tests can
 * hold real outputs (plugin metadata, envelopes, route responses) to the published contract.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ApiDocument, SchemaObject } from './types.js';
import { deref, listOperations } from './walk.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

const DOC_ID = 'cpet-api';

export interface SchemaChecker {
  /** Problems of `value` against `components/schemas/<name>`; empty when it conforms. */
  schema(name: string, value: unknown): string[];
  /** Problems of a JSON response body against what the operation documents for that status. */
  response(operationId: string, status: number, body: unknown): string[];
}

/** Rewrites local references so they resolve inside the document registered under DOC_ID. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rebase(v)]));
}

/** Builds a checker over one document; validators are compiled once per schema. */
export function createSchemaChecker(doc: ApiDocument): SchemaChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: rebase(doc.components) } as object);
  const cache = new Map<string, ValidateFunction>();

  const problems = (validate: ValidateFunction, value: unknown): string[] =>
    validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);

  const compiled = (key: string, schema: () => object): ValidateFunction => {
    let validate = cache.get(key);
    if (!validate) {
      validate = ajv.compile(schema());
      cache.set(key, validate);
    }
    return validate;
  };

  return {
    schema(name, value) {
      if (!doc.components?.schemas?.[name]) throw new Error(`no schema ${name} in the document`);
      return problems(
        compiled(`schema:${name}`, () => ({ $ref: `${DOC_ID}#/components/schemas/${name}` })),
        value,
      );
    },
    response(operationId, status, body) {
      const entry = listOperations(doc).find((e) => e.operation.operationId === operationId);
      if (!entry) throw new Error(`no operation ${operationId} in the document`);
      const raw = entry.operation.responses[String(status)];
      if (!raw) return [`${operationId} documents no ${status} response`];
      const schema = deref(doc, raw).content?.['application/json']?.schema as SchemaObject | undefined;
      if (!schema) return [`${operationId} ${status} has no JSON schema`];
      return problems(
        compiled(`response:${operationId}:${status}`, () => rebase(schema) as object),
        body,
      );
    },
  };
}
