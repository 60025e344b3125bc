/**
 * A record at rest: how large each bench recording is as the store keeps it (the samples as one
 * compressed block, src/store/record-codec.ts), how long it takes to write and read back, how much
 * more that is as JSON numbers (the form before), and how much a server's memory grows per record
 * it stores on the embedded store. `npx tsx bench/run.ts store`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { decodeRecording, encodeRecording } from '../src/store/record-codec.js';
import { openStore } from '../src/store/store.js';
import { MAX_SAMPLES, STORED_20K_BYTES } from './goals.js';
import { atMost, medianMs, type BenchRow } from './harness.js';
import { benchRecordings, type BenchRecording } from './recordings.js';

/** Records stored for the memory figure. */
const RECORDS = 200;

/** Set in the child process that measures memory. */
const CHILD_ENV = 'STORE_BENCH_MEMORY';

/** The record's samples as the store writes them: JSON, the block as one base64 string (as keyv writes a Buffer). */
function storedBytes(rec: BenchRecording['recording']): number {
  const e = encodeRecording(rec);
  return JSON.stringify({ ...e, block: `:base64:${Buffer.from(e.block).toString('base64')}` }).length;
}

export default async function storeBench(): Promise<{ title: string; rows: BenchRow[] }> {
  const recordings = await benchRecordings();
  const rows: BenchRow[] = [];
  for (const rec of [recordings.sample, recordings.real, recordings.longest, recordings.fastest]) {
    const bytes = storedBytes(rec.recording);
    const encoded = encodeRecording(rec.recording);
    const encodeMs = await medianMs(() => encodeRecording(rec.recording), 7, 1);
    const decodeMs = await medianMs(() => decodeRecording(encoded), 7, 1);
    const at20k = rec.recording.t_s.length >= MAX_SAMPLES * 0.99;
    rows.push({
      name: `stored record, ${rec.label} (decode time)`,
      median_ms: decodeMs,
      runs: 7,
      extra: { stored_kb: (bytes / 1024).toFixed(0), as_json_numbers_kb: (JSON.stringify(rec.recording).length / 1024).toFixed(0), encode_ms: encodeMs.toFixed(1) },
      goal: at20k ? atMost(bytes / 1_000_000, STORED_20K_BYTES / 1_000_000, 'MB stored') : undefined,
    });
  }
  // Memory per record, in a process of its own so that nothing the other benchmarks allocated moves the figure.
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { env: { ...process.env, [CHILD_ENV]: '1' }, encoding: 'utf8' });
  const measured = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as { ms_per_put: number; rss_growth_kb_per_record: number };
  rows.push({
    name: `${RECORDS} stored 20,000-sample records on the embedded store (ms per put)`,
    median_ms: measured.ms_per_put,
    runs: RECORDS,
    extra: { rss_growth_kb_per_record: measured.rss_growth_kb_per_record.toFixed(1) },
  });
  return { title: 'Records at rest: size, write and read time, memory', rows };
}

/** In the child: store RECORDS copies of a 20,000-sample record and print the memory the process kept. */
async function measureChild(): Promise<void> {
  setFlagsFromString('--expose_gc');
  const collect = runInNewContext('gc') as () => void;
  const { longest } = await benchRecordings();
  const dir = mkdtempSync(join(tmpdir(), 'cpet-bench-store-'));
  const store = await openStore({ dataDir: dir });
  try {
    const encoded = encodeRecording(longest.recording);
    const block = Buffer.from(encoded.block);
    collect();
    const before = process.memoryUsage().rss;
    const started = performance.now();
    for (let i = 0; i < RECORDS; i++) await store.putRecord('bench', `r${i}`, { encoded: { ...encoded, block } }, Date.now() + 3_600_000);
    const elapsed = performance.now() - started;
    collect();
    const after = process.memoryUsage().rss;
    process.stdout.write(`${JSON.stringify({ ms_per_put: elapsed / RECORDS, rss_growth_kb_per_record: (after - before) / 1024 / RECORDS })}\n`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env[CHILD_ENV]) await measureChild();
