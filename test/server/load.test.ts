/**
 * Load (issue 14, item 6): 50 concurrent clients for 30 s on analyze and compute against the built
 * server with its default two workers. Zero errors; the latency percentiles are printed for the
 * bench report (speed targets live in bench/, so nothing here asserts a latency).
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSample } from '../../src/synthetic/sample.js';
import { ensureBuilt, startServer, type ServerProcess } from './processes.js';

const CLIENTS = 50;
const DURATION_MS = 30_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

describe('50 clients for 30 s on analyze and compute', function () {
  this.timeout(180_000);
  let server: ServerProcess;

  before(async () => {
    await ensureBuilt();
    server = await startServer({ WORKERS: '2' });
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('answers every request 200', async () => {
    const key = readFileSync(join(server.dataDir, 'local-api-key'), 'utf8').trim();
    const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
    const sample = generateSample(false);
    const up = await fetch(`${server.base}/v1/cpet/content`, { method: 'POST', headers, body: JSON.stringify({ filename: sample.filename, content: sample.content }) });
    const id = ((await up.json()) as { cpet_id: string }).cpet_id;
    const latencies: Record<'analyze' | 'compute', number[]> = { analyze: [], compute: [] };
    const failures: string[] = [];
    const end = Date.now() + DURATION_MS;
    const client = async (n: number): Promise<void> => {
      for (let i = n; Date.now() < end; i++) {
        const route = i % 2 === 0 ? 'analyze' : 'compute';
        const body = route === 'analyze' ? { analyses: ['vt', 'substrate', 'eov'] } : { metrics: ['vo2max', 've_vco2_slope', 'gas_quality', 'phases'] };
        const started = performance.now();
        try {
          const res = await fetch(`${server.base}/v1/cpet/${id}/${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
          await res.arrayBuffer();
          if (res.status !== 200) failures.push(`${route} ${res.status}`);
        } catch (err) {
          failures.push(`${route} ${(err as Error).message}`);
        }
        latencies[route].push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
    for (const route of ['analyze', 'compute'] as const) {
      const sorted = latencies[route].sort((x, y) => x - y);
      console.log(
        `      ${route}: ${sorted.length} requests in ${DURATION_MS / 1000} s by ${CLIENTS} clients; p50 ${Math.round(percentile(sorted, 50))} ms, p95 ${Math.round(percentile(sorted, 95))} ms, p99 ${Math.round(percentile(sorted, 99))} ms`,
      );
    }
    expect(failures.slice(0, 10)).to.deep.equal([]);
    expect(latencies.analyze.length + latencies.compute.length).to.be.greaterThan(CLIENTS);
  });
});
