/**
 * Handler replies are typed from the contract (src/server/reply.ts). The functions below are never
 * called: each `@ts-expect-error` line is a reply that breaks openapi/cpet-api.yaml, and `npm run
 * typecheck` fails if any of them compiles (an unused `@ts-expect-error` is itself an error), so
 * loosening `Reply` to accept them cannot go unnoticed. The describe block checks at run time that
 * the same bodies really break the served schemas, so the type test and the contract agree.
 */
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ErrorCode } from '../../src/errors.js';
import type { components } from '../../src/generated/api.js';
import { loadApiDocument } from '../../src/openapi/document.js';
import type { Reply } from '../../src/server/reply.js';

const HEALTH_WITHOUT_STORE = { status: 'ok', version: '0.1.0', uptime_s: 1 } as const;
const DELETED_FALSE = { cpet_id: 'x', deleted: false } as const;

// biome-ignore lint/correctness/noUnusedVariables: never called; only tsc reads its body.
function contractBreakingReplies(): unknown[] {
  // @ts-expect-error `store` is required by the Health schema.
  const health: Reply<'getHealth'> = { json: HEALTH_WITHOUT_STORE };
  // @ts-expect-error `deleted` is the constant true.
  const deleted: Reply<'deleteCpet'> = { json: DELETED_FALSE };
  // @ts-expect-error the export is CSV or JSON, never HTML.
  const exported: Reply<'exportCpet'> = { contentType: 'text/html', stream: { chunks: [], done: async () => {} } };
  // @ts-expect-error getCapabilities declares no 201.
  const created: Reply<'getCapabilities'> = { status: 201, json: {} };
  // @ts-expect-error a reply for one operation is not a reply for another.
  const swapped: Reply<'getCpet'> = { json: { ended: true } } satisfies Reply<'endWebSession'>;
  return [health, deleted, exported, created, swapped];
}

/** The codes the server throws are exactly the codes the Error schema lists. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const ERROR_CODES_MATCH: Same<ErrorCode, components['schemas']['ErrorCode']> = true;

describe('reply contract', () => {
  const doc = loadApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...doc, $id: 'doc' } as never);
  const valid = (schema: string, body: unknown): boolean => ajv.validate({ $ref: `doc#/components/schemas/${schema}` }, body) as boolean;

  it('the bodies the type test refuses are refused by the schemas too', () => {
    expect(valid('Health', HEALTH_WITHOUT_STORE)).to.equal(false);
    expect(valid('Health', { ...HEALTH_WITHOUT_STORE, store: 'sqlite' })).to.equal(true);
    expect(valid('DeleteResponse', DELETED_FALSE)).to.equal(false);
    expect(valid('DeleteResponse', { ...DELETED_FALSE, deleted: true })).to.equal(true);
    expect(ERROR_CODES_MATCH).to.equal(true);
  });
});
