/**
 * Crash safety on the embedded store (issue 14, item 6): SIGKILL the built server while 200 uploads
 * are in flight; after a restart on the same data directory every upload that had been acknowledged
 * (answered 200 with its cpet_id) is readable, with the summary it was acknowledged with.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateTest } from '../../src/synthetic/generate.js';
import { toCanonicalJson } from '../../src/synthetic/canonical-json.js';
import { ensureBuilt, startServer } from './processes.js';

const UPLOADS = 200;

describe('SIGKILL during 200 concurrent uploads on the embedded store', function () {
  this.timeout(300_000);

  before(ensureBuilt);

  it('keeps every acknowledged upload across the kill and a restart', async () => {
    const server = await startServer({ WORKERS: '2' });
    const key = readFileSync(join(server.dataDir, 'local-api-key'), 'utf8').trim();
    const content = toCanonicalJson(generateTest({ seed: 7 }).recording);
    const acknowledged: Record<string, unknown>[] = [];
    let failed = 0;
    const uploads = Array.from({ length: UPLOADS }, (_, i) =>
      fetch(`${server.base}/v1/cpet/content`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ filename: `test-${i}.json`, content }),
      })
        .then(async (res) => {
          const body = (await res.json()) as Record<string, unknown>;
          if (res.status === 200) acknowledged.push(body);
          else failed++;
        })
        .catch(() => {
          failed++;
        }),
    );
    // Kill once some uploads are acknowledged and others are still running.
    const deadline = Date.now() + 60_000;
    while (acknowledged.length < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    server.child.kill('SIGKILL');
    await Promise.all(uploads);
    expect(await server.exited).to.equal('SIGKILL');
    expect(acknowledged.length, 'acknowledged before the kill').to.be.greaterThan(0);
    expect(failed, 'uploads cut by the kill').to.be.greaterThan(0);

    const restarted = await startServer({ WORKERS: '1' }, server.dataDir);
    try {
      for (const summary of acknowledged) {
        const res = await fetch(`${restarted.base}/v1/cpet/${summary.cpet_id as string}`, { headers: { 'X-API-Key': key } });
        expect(res.status, String(summary.cpet_id)).to.equal(200);
        expect(await res.json()).to.deep.equal(summary);
      }
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
  });
});
