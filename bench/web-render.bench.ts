/**
 * Web application render time in Chromium: the nine panels of the public sample and of a
 * 20,000-sample recording (the spec's sample limit), from the series in hand to the ninth panel's
 * first draw, thresholds, landmarks and domain band included (the page's own `cpet:nine-panels`
 * performance measure). The page asks the series route for at most 5000 points per series (the
 * route's maximum), so the long recording arrives LTTB-downsampled, as it does for every user.
 * Also the whole round trip from choosing the file to every section shown. `npx tsx bench/run.ts web`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toCanonicalJson } from '../src/synthetic/canonical-json.js';
import { generateTest } from '../src/synthetic/generate.js';
import { generateSample } from '../src/synthetic/sample.js';
import { launchBrowser, listen } from '../test/web/browser.js';
import { benchService, type BenchRow } from './harness.js';

const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

export default async function webRenderBench(): Promise<{ title: string; rows: BenchRow[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cpet-bench-web-'));
  const service = await benchService(dataDir, 1);
  const { key } = await service.deps.store.keys.create({ name: 'bench-web', tier: 'research', products: ['vt', 'eov', 'substrate'] });
  const server = await listen(service.app);
  const browser = await launchBrowser();
  const sample = generateSample(false);
  // 20,000 one-second samples: the spec's limit, as a very long ramp (as in vt.bench.ts).
  const long = generateTest({ seed: 31337, protocol: 'ramp', rest_s: 300, warmup_s: 300, exercise_s: 19_000, recovery_s: 399, sampling: { kind: 'interval', interval_s: 1 } }).recording;
  const rows: BenchRow[] = [];
  try {
    for (const [label, file] of [
      ['sample', { name: sample.filename, content: sample.content }],
      [`${long.t_s.length}-sample recording`, { name: 'long-ramp.json', content: toCanonicalJson(long) }],
    ] as const) {
      const render: number[] = [];
      const total: number[] = [];
      for (let run = 0; run < RUNS + 1; run++) {
        const page = await browser.context.newPage();
        await page.goto(`${server.url}/`);
        await page.fill('#api-key', key);
        const started = Date.now();
        await page.setInputFiles('#file-input', { name: file.name, mimeType: 'application/json', buffer: Buffer.from(file.content) });
        await page.waitForSelector('#app[data-state="ready"]', { timeout: 120_000 });
        const elapsed = Date.now() - started;
        const measured = await page.evaluate(() => performance.getEntriesByName('cpet:nine-panels').map((e) => e.duration));
        await page.close();
        if (run === 0) continue;
        render.push(measured[0]);
        total.push(elapsed);
      }
      rows.push({ name: `nine panels drawn, ${label}`, median_ms: median(render), runs: RUNS, extra: { max_ms: Math.max(...render).toFixed(1) } });
      rows.push({ name: `upload to every section shown, ${label}`, median_ms: median(total), runs: RUNS });
    }
  } finally {
    await browser.close();
    await server.close();
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { title: 'web application in Chromium (render: series in hand to nine panels drawn)', rows };
}
