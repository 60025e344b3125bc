/** The client's hand-written helpers, over a scripted transport (the routes are the live tests'). */
import { expect } from 'chai';
import { createCpetClient, CpetApiError, envelopesOf, type AnalyzeResponse } from '../../../clients/typescript/src/node.js';

/** A fetch that answers from a script, one answer per request, and records the requests. */
function scripted(answers: Array<{ status: number; body: unknown; headers?: Record<string, string> }>) {
  const seen: Request[] = [];
  const fetch = async (input: Request): Promise<Response> => {
    seen.push(input);
    const next = answers.shift();
    if (!next) throw new TypeError('no more scripted answers');
    return new Response(JSON.stringify(next.body), { status: next.status, headers: { 'Content-Type': 'application/json', ...next.headers } });
  };
  return { fetch, seen };
}

const RATE_LIMITED = { error: 'RATE_LIMITED', message: 'Rate limit of 120 requests per minute reached; retry in 0 s.', context: { retry_after_s: 0 } };

describe('cpet-analysis-client helpers', () => {
  it('sends a RATE_LIMITED request again after its Retry-After, and sends the key each time', async () => {
    const transport = scripted([
      { status: 429, body: RATE_LIMITED, headers: { 'Retry-After': '0' } },
      { status: 200, body: { metrics: [] } },
    ]);
    const cpet = createCpetClient({ baseUrl: 'http://cpet.test', apiKey: 'cpet_k', fetch: transport.fetch });
    expect(await cpet.metrics()).to.deep.equal([]);
    expect(transport.seen.map((r) => r.headers.get('X-API-Key'))).to.deep.equal(['cpet_k', 'cpet_k']);
  });

  it('gives up after the retries it was allowed, with the API error', async () => {
    const transport = scripted([
      { status: 429, body: RATE_LIMITED, headers: { 'Retry-After': '0' } },
      { status: 429, body: RATE_LIMITED, headers: { 'Retry-After': '0' } },
    ]);
    const cpet = createCpetClient({ baseUrl: 'http://cpet.test', apiKey: 'cpet_k', fetch: transport.fetch, retry: { rateLimited: 1 } });
    const error = await cpet.metrics().catch((err: unknown) => err);
    expect(error).to.be.instanceOf(CpetApiError);
    expect((error as CpetApiError).code).to.equal('RATE_LIMITED');
    expect(transport.seen).to.have.length(2);
  });

  it('never repeats other refusals, such as QUOTA_EXCEEDED', async () => {
    const transport = scripted([{ status: 429, body: { error: 'QUOTA_EXCEEDED', message: 'The monthly limit is used up.', context: {} } }]);
    const cpet = createCpetClient({ baseUrl: 'http://cpet.test', apiKey: 'cpet_k', fetch: transport.fetch });
    expect(((await cpet.capabilities().catch((e: unknown) => e)) as CpetApiError).code).to.equal('QUOTA_EXCEEDED');
    expect(transport.seen).to.have.length(1);
  });

  it('refuses a keyed request without a key before sending it, and a Blob without a filename', async () => {
    const transport = scripted([]);
    const cpet = createCpetClient({ baseUrl: 'http://cpet.test', apiKey: undefined, fetch: transport.fetch });
    expect(String(await cpet.capabilities().catch((e: unknown) => e))).to.match(/No API key/);
    const keyed = createCpetClient({ baseUrl: 'http://cpet.test', apiKey: 'cpet_k', fetch: transport.fetch });
    expect(String(await keyed.uploadFile(new Blob(['x'])).catch((e: unknown) => e))).to.match(/give uploadFile a filename/);
    expect(transport.seen).to.have.length(0);
  });

  it('waitFor gives up after its timeout, saying what the last try met', async () => {
    const cpet = createCpetClient({ baseUrl: 'http://cpet.test', fetch: async () => Promise.reject(new TypeError('connection refused')) });
    const error = await cpet.waitFor({ timeoutMs: 30, intervalMs: 10 }).catch((e: unknown) => e);
    expect(String(error)).to.match(/did not answer GET \/health within 30 ms: connection refused/);
  });

  it('envelopesOf types each envelope by its analysis', () => {
    const provenance = { analysis_version: '2026.08', schema_version: '1.0', computed_at: '2026-01-01T00:00:00Z', model: 'm', latency_ms: 1 };
    const answer: AnalyzeResponse = {
      cpet_id: 'x',
      results: [
        { analysis: 'eov', status: 'not_analysable', findings: null, quality: 'good', notes: [], error: 'INSUFFICIENT_DURATION', provenance },
        { analysis: 'vt', status: 'ok', findings: { vt1_time_s: 300, vt2_time_s: 420, vt1_vo2_ml_min: 1800, vt2_vo2_ml_min: 2500 }, quality: 'good', notes: ['n'], provenance },
      ],
    };
    const { vt, eov, substrate } = envelopesOf(answer);
    expect(vt?.findings?.vt1_vo2_ml_min).to.equal(1800);
    expect(eov?.error).to.equal('INSUFFICIENT_DURATION');
    expect(substrate).to.equal(undefined);
  });
});
