/**
 * A record at rest: how large each bench recording is as the store keeps it (the samples as one
 * compressed block, src/store/record-codec.ts), how long it takes to write and read back, how much
 * more that is as JSON numbers (the form before), and how much a server's memory grows per record
 * it stores on the embedded store. `npx tsx bench/run.ts store`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { decodeRecording, encodeRecording } from '../src/store/record-codec.js';
import { openStore } from '../src/store/store.js';
import { MAX_SAMPLES, STORED_20K_BYTES } from './goals.js';
import { atMost, medianMs, type BenchRow } from './harness.js';
import { benchRecordings, type BenchRecording } from './recordings.js';

/** Records stored for the memory figure. */
const RECORDS = 200;

/** A full collection before each memory reading, so the figure is what stays, not garbage not yet collected. */
setFlagsFromString('--expose_gc');
const collect = runInNewContext('gc') as () => void;

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
  // Memory per record: the embedded store keeps records on disk, so a server's memory should not grow with them.
  const dir = mkdtempSync(join(tmpdir(), 'cpet-bench-store-'));
  const store = await openStore({ dataDir: dir });
  try {
    const value = { encoded: encodeRecording(recordings.longest.recording) };
    const block = Buffer.from(value.encoded.block);
    collect();
    const before = process.memoryUsage().rss;
    const started = performance.now();
    for (let i = 0; i < RECORDS; i++) await store.putRecord('bench', `r${i}`, { encoded: { ...value.encoded, block } }, Date.now() + 3_600_000);
    const elapsed = performance.now() - started;
    collect();
    const after = process.memoryUsage().rss;
    rows.push({
      name: `${RECORDS} stored 20,000-sample records on the embedded store (ms per put)`,
      median_ms: elapsed / RECORDS,
      runs: RECORDS,
      extra: { rss_growth_kb_per_record: ((after - before) / 1024 / RECORDS).toFixed(1) },
    });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { title: 'Records at rest: size, write and read time, memory', rows };
}
