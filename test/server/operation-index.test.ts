import { expect } from 'chai';
import { OpenAPIBackend } from 'openapi-backend';
import { loadApiDocument } from '../../src/openapi/document.js';
import { indexOperations } from '../../src/server/operation-index.js';

/** The service's document in a backend of its own, initialised as the app does (quick mode). */
async function backend(): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({ definition: structuredClone(loadApiDocument()) as never, strict: true, quick: true, validate: true });
  await api.init();
  return api;
}

describe('the prebuilt operation index', () => {
  it("matches every request as openapi-backend's own router does, 404 and 405 included", async () => {
    const library = (await backend()).router;
    const indexed = await backend();
    indexOperations(indexed);
    const paths = [
      ...library.getOperations().map((op) => op.path.replace(/\{[^}]+\}/g, 'abc-123')),
      '/',
      '',
      '/v1/cpet/',
      '/v1/cpet/x/analyze/',
      '/v1/cpet/x/y/z',
      '/nowhere',
      '/v1/cpet/a.b/series',
      '/v1/cpet?x=1',
    ];
    const outcome = (match: () => unknown) => {
      try {
        return (match() as { operationId?: string } | undefined)?.operationId ?? 'none';
      } catch (err) {
        return (err as Error).message;
      }
    };
    let compared = 0;
    for (const path of paths) {
      for (const method of ['get', 'post', 'put', 'delete', 'patch', 'GET', 'HEAD']) {
        for (const strict of [false, true]) {
          const req = { method, path, headers: {} };
          expect(
            outcome(() => indexed.router.matchOperation(req, strict)),
            `${method} ${path} strict=${strict}`,
          ).to.equal(outcome(() => library.matchOperation(req, strict)));
          compared++;
        }
      }
    }
    expect(compared).to.be.greaterThan(300);
    const listed = (ops: { operationId?: string; method: string; path: string }[]) => ops.map((op) => `${op.operationId} ${op.method} ${op.path}`);
    expect(listed(indexed.router.getOperations())).to.deep.equal(listed(library.getOperations()));
  });
});
