/**
 * Every route the service answers is in the document it serves at /v1/openapi.json: the express
 * app's own routes (its router stack) and openapi-backend's operations (the handlers the app
 * registers) are compared with the served document, every documented route is really routed (a
 * request reaches its handler or its checks, never the unknown-route 404), and a path outside the
 * document is not.
 */
import { expect } from 'chai';
import request from 'supertest';
import { listOperations, type ApiDocument } from '../../src/openapi/document.js';
import { OPERATION_IDS } from '../../src/server/app.js';
import { startHarness, type Harness } from './harness.js';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** `GET /assets/{name}` for an express route `/assets/:name`. */
function expressRoutes(app: Harness['service']['app']): string[] {
  const stack = (app as unknown as { _router: { stack: Layer[] } })._router.stack;
  return stack.flatMap((layer) => {
    if (!layer.route) return [];
    const path = layer.route.path.replace(/:(\w+)/g, '{$1}');
    return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${path}`);
  });
}

function isUnknownRoute(res: request.Response): boolean {
  return res.status === 404 && res.body?.error === 'NOT_FOUND' && /^No route /.test(res.body.message);
}

describe('routes answered and routes served', function () {
  this.timeout(120_000);
  let h: Harness;
  let served: ApiDocument;

  before(async () => {
    h = await startHarness({ store: 'sqlite' });
    served = (await request(h.service.app).get('/v1/openapi.json').expect(200)).body;
  });
  after(async () => h?.close());

  it('every route of the express router stack is in the served document', () => {
    const documented = new Set(listOperations(served).map((e) => `${e.method.toUpperCase()} ${e.path}`));
    for (const route of expressRoutes(h.service.app)) expect(documented.has(route), route).to.equal(true);
  });

  it('the app registers a handler for exactly the operations of the served document', () => {
    const documented = listOperations(served).map((e) => e.operation.operationId as string);
    expect([...OPERATION_IDS].sort()).to.deep.equal(documented.sort());
  });

  it('every documented route is routed, and an undocumented path is the unknown-route 404', async () => {
    const page = await request(h.service.app).get('/').expect(200);
    const asset = /\/assets\/([^"]+)"/.exec(page.text)?.[1];
    expect(asset, 'the page names an asset').to.be.a('string');
    const values: Record<string, string> = { cpet_id: '00000000-0000-4000-8000-000000000000', ticket: 'x.y', name: asset as string };
    for (const entry of listOperations(served)) {
      const path = entry.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]);
      const res = await request(h.service.app)[entry.method](path);
      expect(isUnknownRoute(res), `${entry.method.toUpperCase()} ${entry.path} answered ${res.status} ${JSON.stringify(res.body)}`).to.equal(false);
      expect(res.status, `${entry.method.toUpperCase()} ${entry.path}`).to.not.equal(405);
    }
    expect(isUnknownRoute(await request(h.service.app).get('/v1/not-a-route'))).to.equal(true);
    expect(isUnknownRoute(await request(h.service.app).get('/assets/not-an-asset.js'))).to.equal(true);
  });

  it('the page and the probes answer HEAD as GET, headers without a body; /v1 routes keep their declared methods', async () => {
    const get = await request(h.service.app).get('/').expect(200);
    const head = await request(h.service.app).head('/').expect(200);
    expect(head.headers['content-type']).to.equal(get.headers['content-type']);
    expect(head.text ?? '').to.equal('');
    expect((await request(h.service.app).head('/v1/capabilities')).status).to.equal(405);
  });
});
