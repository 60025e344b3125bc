import { expect } from 'chai';
import request from 'supertest';
import { toCanonicalJson } from '../../src/synthetic/canonical-json.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { PAGE_CSP } from '../../src/server/web-page.js';
import { expectMatchesSpec, startHarness, STORE_KINDS, type Harness } from './harness.js';

const MINUTE = 60_000;

/** A started web session as the browser holds it: the cookie pair and the token the page keeps in memory. */
interface Session {
  cookie: string;
  csrf: string;
  setCookie: string;
}

for (const kind of STORE_KINDS) {
  describe(`web application routes on the ${kind} store`, function () {
    this.timeout(120_000);
    let h: Harness;
    let app: Harness['service']['app'];
    let key: string;

    before(async () => {
      h = await startHarness({ store: kind });
      app = h.service.app;
      key = await h.key();
    });
    after(async () => h.close());

    const upload = (k = key, body?: Record<string, unknown>) => h.upload(k, body);

    async function startSession(k = key, target = app): Promise<Session> {
      const res = await request(target).post('/v1/web/session').set('X-API-Key', k).expect(200);
      const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0] ?? '';
      return { cookie: setCookie.split(';')[0], csrf: res.body.csrf_token, setCookie };
    }

    function webOnlyEngine(): string {
      const vt = h.service.deps.plugins.analyses.find((a) => a.name === 'vt');
      const name = (vt?.listModels?.('web') ?? []).find((m) => !m.surfaces.includes('api'))?.name;
      if (!name) throw new Error('no threshold engine is served to the web application only');
      return name;
    }

    async function unitsUsed(k: string): Promise<number> {
      return (await request(app).get('/v1/capabilities').set('X-API-Key', k).expect(200)).body.usage.units_used;
    }

    describe('the page', () => {
      it('serves the web application at / with its Content Security Policy, and its hashed assets', async () => {
        const res = await request(app).get('/').expect(200);
        expect(res.headers['content-type']).to.match(/^text\/html/);
        expect(res.headers['content-security-policy']).to.equal(PAGE_CSP);
        expect(PAGE_CSP).to.contain("script-src 'self'").and.contain("frame-ancestors 'none'").and.not.contain('unsafe');
        const assets = [...res.text.matchAll(/\/assets\/([A-Za-z0-9.]+)/g)].map((m) => m[1]);
        expect(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css'))).to.equal(true);
        for (const asset of assets) {
          const got = await request(app).get(`/assets/${asset}`).expect(200);
          expect(got.headers['content-type']).to.match(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
          expect(got.headers['cache-control']).to.contain('immutable');
        }
        const missing = await request(app).get('/assets/app.nothing.js').expect(404);
        expect(missing.body.error).to.equal('NOT_FOUND');
      });
    });

    describe('session', () => {
      it('trades the key for an HttpOnly, SameSite=Strict cookie scoped to /v1/web and a CSRF token', async () => {
        const res = await request(app).post('/v1/web/session').set('X-API-Key', key).expect(200);
        await expectMatchesSpec(res.body, 'createWebSession', 200);
        const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0];
        expect(cookie).to.match(/^cpet_web_session=[A-Za-z0-9_-]{43}; /);
        expect(cookie).to.contain('Path=/v1/web').and.contain('HttpOnly').and.contain('SameSite=Strict').and.contain('Max-Age=1800');
        expect(cookie, 'plain HTTP: no Secure flag, or the browser would drop the cookie').to.not.contain('Secure');
        expect(res.headers['cache-control']).to.equal('no-store');
        expect(res.body.csrf_token).to.match(/^[A-Za-z0-9_-]{43}$/);
        expect(cookie).to.not.contain(res.body.csrf_token);
        expect(Date.parse(res.body.expires_at) - h.clock.now).to.equal(30 * MINUTE);
      });

      it('needs a valid key to start', async () => {
        const missing = await request(app).post('/v1/web/session').expect(401);
        expect(missing.body.error).to.equal('MISSING_API_KEY');
        const wrong = await request(app).post('/v1/web/session').set('X-API-Key', 'cpet_0000000000000000_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx').expect(403);
        expect(wrong.body.error).to.equal('INVALID_API_KEY');
      });

      it('lapses after 30 minutes and ends on DELETE, clearing the cookie', async () => {
        const s = await startSession();
        await request(app).get('/v1/web/models').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).expect(200);
        h.clock.advance(30 * MINUTE);
        const lapsed = await request(app).get('/v1/web/models').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).expect(401);
        expect(lapsed.body.error).to.equal('WEB_SESSION_REQUIRED');
        await expectMatchesSpec(lapsed.body, 'listWebModels', 401);
        const t = await startSession();
        const ended = await request(app).delete('/v1/web/session').set('Cookie', t.cookie).set('X-CSRF-Token', t.csrf).expect(200);
        await expectMatchesSpec(ended.body, 'endWebSession', 200);
        expect(([] as string[]).concat(ended.headers['set-cookie'] ?? [])[0]).to.match(/^cpet_web_session=; .*Max-Age=0/);
        await request(app).get('/v1/web/models').set('Cookie', t.cookie).set('X-CSRF-Token', t.csrf).expect(401);
      });

      it('follows the key: an expired key answers KEY_EXPIRED, a revoked one ends its sessions', async () => {
        const keys = h.service.deps.store.keys;
        const expiring = await keys.create({ name: `expiring-${h.clock.now}`, tier: 'research', products: ['vt'], expires_at: new Date(h.clock.now + 10 * MINUTE).toISOString() });
        const s = await startSession(expiring.key);
        h.clock.advance(11 * MINUTE);
        const expired = await request(app).get('/v1/web/models').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).expect(403);
        expect(expired.body.error).to.equal('KEY_EXPIRED');
        const revocable = await keys.create({ name: `revocable-${h.clock.now}`, tier: 'research', products: ['vt'] });
        const t = await startSession(revocable.key);
        await keys.revoke(revocable.record.id);
        const revoked = await request(app).get('/v1/web/models').set('Cookie', t.cookie).set('X-CSRF-Token', t.csrf).expect(403);
        expect(revoked.body.error).to.equal('INVALID_API_KEY');
        const gone = await request(app).get('/v1/web/models').set('Cookie', t.cookie).set('X-CSRF-Token', t.csrf).expect(401);
        expect(gone.body.error).to.equal('WEB_SESSION_REQUIRED');
      });

      it('is shared by every instance on the store (Redis: two at once; SQLite: across a restart)', async () => {
        const s = await startSession();
        const id = await upload();
        const domains = (target: typeof app) => request(target).get(`/v1/web/cpet/${id}/domains`).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).expect(200);
        if (kind === 'redis') {
          const second = await h.reopen();
          try {
            expect((await domains(second.service.app)).body.cpet_id).to.equal(id);
          } finally {
            await second.close(true);
          }
        } else {
          const keep = h;
          await keep.close(true);
          h = await keep.reopen();
          app = h.service.app;
          expect((await domains(app)).body.cpet_id).to.equal(id);
        }
      });
    });

    describe('an X-API-Key does not reach the web application routes', () => {
      it('answers 401 WEB_SESSION_REQUIRED in the error shape on every route of the family', async () => {
        const id = await upload();
        const calls = [
          request(app).get(`/v1/web/cpet/${id}/domains`),
          request(app)
            .post(`/v1/web/cpet/${id}/analyze`)
            .send({ analyses: ['vt'], model: webOnlyEngine() }),
          request(app).get('/v1/web/models'),
          request(app).delete('/v1/web/session'),
        ];
        for (const call of calls) {
          const res = await call.set('X-API-Key', key).set('X-CSRF-Token', 'anything').expect(401);
          expect(res.body.error).to.equal('WEB_SESSION_REQUIRED');
          expect(res.body.message).to.contain('X-API-Key');
          expect(res.body.context).to.deep.equal({ cookie: 'cpet_web_session', start: 'POST /v1/web/session' });
        }
        const res = await request(app).get(`/v1/web/cpet/${id}/domains`).set('X-API-Key', key).expect(401);
        await expectMatchesSpec(res.body, 'getWebDomains', 401);
      });
    });

    describe('CSRF', () => {
      let s: Session;
      let id: string;
      before(async () => {
        s = await startSession();
        id = await upload();
      });

      it('refuses the cookie without the session token, or with another session token', async () => {
        const none = await request(app)
          .post(`/v1/web/cpet/${id}/analyze`)
          .set('Cookie', s.cookie)
          .send({ analyses: ['vt'] })
          .expect(403);
        expect(none.body.error).to.equal('CSRF_REJECTED');
        await expectMatchesSpec(none.body, 'analyzeWeb', 403);
        const other = await startSession();
        const wrong = await request(app)
          .post(`/v1/web/cpet/${id}/analyze`)
          .set('Cookie', s.cookie)
          .set('X-CSRF-Token', other.csrf)
          .send({ analyses: ['vt'] })
          .expect(403);
        expect(wrong.body.error).to.equal('CSRF_REJECTED');
      });

      it("refuses a browser's cross-site and same-site requests and a foreign Origin, even with the token", async () => {
        const base = () => request(app).get(`/v1/web/cpet/${id}/domains`).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf);
        for (const site of ['cross-site', 'same-site']) {
          const res = await base().set('Sec-Fetch-Site', site).expect(403);
          expect(res.body.error).to.equal('CSRF_REJECTED');
          expect(res.body.context).to.deep.equal({ sec_fetch_site: site });
        }
        const foreign = await base().set('Origin', 'http://127.0.0.1:1').expect(403);
        expect(foreign.body.error).to.equal('CSRF_REJECTED');
        const opaque = await base().set('Origin', 'null').expect(403);
        expect(opaque.body.error).to.equal('CSRF_REJECTED');
        const startedElsewhere = await request(app).post('/v1/web/session').set('X-API-Key', key).set('Sec-Fetch-Site', 'cross-site').expect(403);
        expect(startedElsewhere.body.error).to.equal('CSRF_REJECTED');
      });

      it("answers the page's own requests: same-origin fetch metadata and its own Origin", async () => {
        const res = await request(app)
          .get(`/v1/web/cpet/${id}/domains`)
          .set('Cookie', s.cookie)
          .set('X-CSRF-Token', s.csrf)
          .set('Sec-Fetch-Site', 'same-origin')
          .set('Host', 'cpet.example:8080')
          .set('Origin', 'http://cpet.example:8080')
          .expect(200);
        await expectMatchesSpec(res.body, 'getWebDomains', 200);
      });

      it('grants no CORS preflight, so another origin cannot add the token header', async () => {
        const res = await request(app)
          .options(`/v1/web/cpet/${id}/analyze`)
          .set('Origin', 'http://elsewhere.example')
          .set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'x-csrf-token');
        expect(res.status).to.equal(405);
        expect(res.headers).to.not.have.property('access-control-allow-origin');
      });
    });

    describe('models, domain curves and the alternative engine', () => {
      it('lists the models served to the web application, the alternative engine with surfaces web only', async () => {
        const s = await startSession();
        const res = await request(app).get('/v1/web/models').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).expect(200);
        await expectMatchesSpec(res.body, 'listWebModels', 200);
        const alternative = res.body.models.filter((m: { surfaces: string[] }) => !m.surfaces.includes('api'));
        expect(alternative.map((m: { name: string }) => m.name)).to.include(webOnlyEngine());
        expect(res.body.models.filter((m: { default: boolean }) => m.default)).to.have.length(1);
        const free = await startSession(await h.key({ tier: 'free' }));
        const seen = await request(app).get('/v1/web/models').set('Cookie', free.cookie).set('X-CSRF-Token', free.csrf).expect(200);
        const engine = seen.body.models.find((m: { name: string }) => m.name === webOnlyEngine());
        expect(engine.reachable).to.equal(engine.tier === 'free');
      });

      it('answers per-second domain probabilities to a session whose key has the vt product', async () => {
        const s = await startSession();
        const id = await upload();
        const res = await request(app).get(`/v1/web/cpet/${id}/domains`).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).expect(200);
        await expectMatchesSpec(res.body, 'getWebDomains', 200);
        expect(res.body.t_s.length).to.equal(res.body.heavy.length).and.to.be.greaterThan(100);
        const narrow = await h.key({ products: ['substrate'] });
        const own = await upload(narrow);
        const n = await startSession(narrow);
        const refused = await request(app).get(`/v1/web/cpet/${own}/domains`).set('Cookie', n.cookie).set('X-CSRF-Token', n.csrf).expect(403);
        expect(refused.body.error).to.equal('PRODUCT_NOT_ENABLED');
      });

      it('answers a recording the model cannot read as analyze does, inside the 200: MISSING_CHANNEL naming it', async () => {
        const rec = generateTest({ seed: 12 }).recording;
        delete rec.channels.PetCO2;
        const id = await upload(key, { filename: 'no-petco2.json', content: toCanonicalJson(rec) });
        const s = await startSession();
        const res = await request(app).get(`/v1/web/cpet/${id}/domains`).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).expect(200);
        await expectMatchesSpec(res.body, 'getWebDomains', 200);
        expect(res.body).to.deep.include({ status: 'not_analysable', error: 'MISSING_CHANNEL' });
        expect(res.body.context.missing).to.deep.equal(['PetCO2']);
      });

      it('runs the alternative engine for the session and bills the key behind it', async () => {
        const billed = await h.key();
        const id = await upload(billed);
        const s = await startSession(billed);
        const before = await unitsUsed(billed);
        const res = await request(app)
          .post(`/v1/web/cpet/${id}/analyze`)
          .set('Cookie', s.cookie)
          .set('X-CSRF-Token', s.csrf)
          .send({ analyses: ['vt'], model: webOnlyEngine() })
          .expect(200);
        await expectMatchesSpec(res.body, 'analyzeWeb', 200);
        const [envelope] = res.body.results;
        expect(envelope.status, JSON.stringify(envelope)).to.equal('ok');
        expect(envelope.provenance.model).to.equal(webOnlyEngine());
        expect(await unitsUsed(billed)).to.equal(before + 1);
      });

      it('keeps records partitioned: a session cannot read another key’s recording', async () => {
        const id = await upload();
        const other = await startSession(await h.key());
        const res = await request(app).get(`/v1/web/cpet/${id}/domains`).set('Cookie', other.cookie).set('X-CSRF-Token', other.csrf).expect(404);
        expect(res.body.error).to.equal('CPET_NOT_FOUND');
        const analyzed = await request(app)
          .post(`/v1/web/cpet/${id}/analyze`)
          .set('Cookie', other.cookie)
          .set('X-CSRF-Token', other.csrf)
          .send({ analyses: ['vt'] })
          .expect(404);
        expect(analyzed.body.error).to.equal('CPET_NOT_FOUND');
      });

      it('holds the session to the key’s monthly quota', async () => {
        const capped = await h.key({ monthly_limit: 1 });
        const id = await upload(capped);
        const s = await startSession(capped);
        const first = await request(app)
          .post(`/v1/web/cpet/${id}/analyze`)
          .set('Cookie', s.cookie)
          .set('X-CSRF-Token', s.csrf)
          .send({ analyses: ['vt'] })
          .expect(200);
        expect(first.body.results[0].status).to.equal('ok');
        const second = await request(app)
          .post(`/v1/web/cpet/${id}/analyze`)
          .set('Cookie', s.cookie)
          .set('X-CSRF-Token', s.csrf)
          .send({ analyses: ['vt'] })
          .expect(429);
        expect(second.body.error).to.equal('QUOTA_EXCEEDED');
      });

      it('validates the body as the API does', async () => {
        const id = await upload();
        const s = await startSession();
        const res = await request(app)
          .post(`/v1/web/cpet/${id}/analyze`)
          .set('Cookie', s.cookie)
          .set('X-CSRF-Token', s.csrf)
          .send({ analyses: ['vt'], modle: 'x' })
          .expect(422);
        expect(res.body.context.errors[0].loc).to.deep.equal(['body', 'modle']);
      });
    });

    describe('rate limit', () => {
      it('counts web requests against the same per-minute limit as the key’s API requests', async () => {
        const limited = await startHarness({ store: kind, rateLimitPerMinute: 3 });
        try {
          const k = await limited.key();
          await request(limited.service.app).get('/v1/capabilities').set('X-API-Key', k).expect(200);
          const s = await startSession(k, limited.service.app);
          await request(limited.service.app).get('/v1/web/models').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).expect(200);
          const res = await request(limited.service.app).get('/v1/web/models').set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).expect(429);
          expect(res.body.error).to.equal('RATE_LIMITED');
          expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
        } finally {
          await limited.close();
        }
      });
    });
  });
}
