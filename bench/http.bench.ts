/**
 * The HTTP path on a loopback server (the real service: embedded store, the default 2 worker
 * threads, no rate limit), every client in its own process (load-client.ts) so that no client work
 * shares the server's event loop:
 * 1. upload (POST /v1/cpet), analyze all and compute all, one request at a time: p50 and p99, on
 *    the sample, the real test and both 20,000-sample recordings (goals at 20,000 samples);
 * 2. analyze-all throughput on the sample at 10 and 50 connections, and the longest wait with one
 *    worker thread;
 * 3. /health latency while a 24 MB file uploads.
 * Goals from issue 15 (goals.ts). `npx tsx bench/run.ts http`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import {
  ANALYSIS_GOAL_MS,
  ANALYZE_ALL_20K_HTTP_MS,
  ANALYZE_REQ_PER_S,
  COMPUTE_ALL_20K_HTTP_MS,
  FIRST_OVER_WARM,
  HEALTH_LAG_P99_MS,
  MAX_SAMPLES,
  ONE_WORKER_MAX_WAIT_MS,
  REFERENCE_LATENCY_MS,
} from './goals.js';
import { atLeast, atMost, benchService, median, percentile, type BenchRow } from './harness.js';
import type { LoadOptions, LoadResult } from './load-client.js';
import { benchRecordings, type BenchRecording } from './recordings.js';

const CLIENT = fileURLToPath(new URL('./load-client.ts', import.meta.url));
/** Requests per figure of part 1 (after two unmeasured ones). */
const RUNS = 20;
/** Seconds of load per connection count in part 2. */
const LOAD_MS = 10_000;
/** The upload whose main-thread cost part 3 measures: close to the 25 MB limit. */
const BIG_UPLOAD_BYTES = 24 * 1024 * 1024;

/** Runs the load client in its own process and returns what it measured. */
function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLIENT, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load client exited with ${code}`))));
  });
}

/** A multipart/form-data body with one file field, written to a temporary file for the client. */
function multipart(dir: string, name: string, bytes: Buffer): { path: string; type: string } {
  const boundary = `bench${bytes.length}x${name.replace(/\W/g, '')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const path = join(dir, `${name}.multipart`);
  writeFileSync(path, Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]));
  return { path, type: `multipart/form-data; boundary=${boundary}` };
}

/** A delimited table of 20,000 rows padded with extra columns to `bytes`: a large but ordinary export. */
function bigTable(bytes: number): Buffer {
  const columns = ['t', 'VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2', 'HR'];
  const filler = Math.max(0, Math.round(bytes / MAX_SAMPLES / 11) - columns.length);
  const header = [...columns, ...Array.from({ length: filler }, (_, k) => `X${k + 1}`)].join(',');
  const lines = [header];
  for (let i = 0; i < MAX_SAMPLES; i++) {
    const vo2 = 800 + i * 0.1;
    const cells = [i * 0.5, vo2, vo2 * 0.9, 20 + i * 0.003, 100, 38, 80 + i * 0.004].map((v) => v.toFixed(2));
    for (let k = 0; k < filler; k++) cells.push(((i * 31 + k * 17) % 1000).toFixed(5));
    lines.push(cells.join(','));
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Analyze-all on the sample for LOAD_MS at 10 connections against a service with one worker thread. */
async function oneWorkerLoad(dir: string, sample: BenchRecording): Promise<{ times: number[]; non200: number }> {
  const service = await benchService(join(dir, 'one-worker'), 1);
  const server = createServer(service.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { key } = await service.deps.store.keys.create({ name: 'bench-one-worker', tier: 'research', products: ['vt', 'eov', 'substrate'] });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await untilReady(base);
    const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
    const created = await fetch(`${base}/v1/cpet/content`, { method: 'POST', headers, body: JSON.stringify({ filename: sample.file.name, content: sample.file.bytes.toString('utf8') }) });
    const id = ((await created.json()) as { cpet_id: string }).cpet_id;
    const result = await load({ url: `${base}/v1/cpet/${id}/analyze`, method: 'POST', headers, body: '{}', connections: 10, duration_ms: LOAD_MS });
    const ok = result.answers.filter((a) => a[2] === 200);
    return { times: ok.map((a) => a[1]), non200: result.answers.length - ok.length + result.errors };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await service.close();
  }
}

/**
 * Waits for /ready: a load balancer sends a service no request before it answers 200, so no figure should
 * include a worker's warm-up (the first-call row measures what follows it).
 */
async function untilReady(base: string): Promise<void> {
  while ((await fetch(`${base}/ready`)).status !== 200) await new Promise((r) => setTimeout(r, 20));
}

/** Requests to one service, from this process (the figures read here are the worker's own latency, or a first call's wall time). */
async function analyzeOnce(base: string, key: string, id: string, body: object): Promise<{ wall_ms: number; latency: Record<string, number> }> {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/cpet/${id}/analyze`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as { results?: { analysis: string; provenance: { latency_ms: number } }[] };
  const wall_ms = performance.now() - t0;
  if (res.status !== 200 || !json.results) throw new Error(`analyze answered ${res.status}`);
  return { wall_ms, latency: Object.fromEntries(json.results.map((e) => [e.analysis, e.provenance.latency_ms])) };
}

async function upload(base: string, key: string, rec: BenchRecording): Promise<string> {
  const created = await fetch(`${base}/v1/cpet/content`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ filename: rec.file.name, content: rec.file.bytes.toString('utf8') }),
  });
  return ((await created.json()) as { cpet_id: string }).cpet_id;
}

/**
 * The first analyze-all of the real test on a service just started (2 worker threads), sent as soon as
 * /ready answers 200 and the file is uploaded, against the median of the next RUNS: what a client pays
 * for sessions and code a worker would otherwise build on its first request (issue 23).
 */
async function firstAfterStart(dir: string, real: BenchRecording): Promise<BenchRow> {
  const started = performance.now();
  const service = await benchService(join(dir, 'first-call'), 2);
  const server = createServer(service.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { key } = await service.deps.store.keys.create({ name: 'bench-first', tier: 'research', products: ['vt', 'eov', 'substrate'] });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await untilReady(base);
    const readyMs = performance.now() - started;
    const id = await upload(base, key, real);
    const first = (await analyzeOnce(base, key, id, {})).wall_ms;
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) warm.push((await analyzeOnce(base, key, id, {})).wall_ms);
    const ratio = first / median(warm);
    return {
      name: `HTTP first analyze all after start / warm median, ${real.label}`,
      median_ms: first,
      runs: 1,
      extra: { figure: `${ratio.toFixed(2)}x warm (${first.toFixed(1)} / ${median(warm).toFixed(1)} ms)`, warm_median_ms: median(warm).toFixed(1), start_to_ready_ms: Math.round(readyMs) },
      goal: atMost(ratio, FIRST_OVER_WARM, 'x a warm call', 'first analyze after start'),
    };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await service.close();
  }
}

export default async function httpBench(): Promise<{ title: string; rows: BenchRow[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'cpet-bench-http-'));
  const service = await benchService(join(dir, 'data'), 2);
  const { key } = await service.deps.store.keys.create({ name: 'bench-http', tier: 'research', products: ['vt', 'eov', 'substrate'] });
  const server = createServer(service.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await untilReady(base);
  const json = { 'X-API-Key': key, 'Content-Type': 'application/json' };
  const metrics = service.deps.metrics.list().map((m) => m.name);
  const rows: BenchRow[] = [];
  try {
    const { sample, real, real2, longest, fastest } = await benchRecordings();

    // 0. Each analysis alone over HTTP on the real tests: the provenance.latency_ms a client reads, median of RUNS after two.
    for (const rec of [real, real2]) {
      const id = await upload(base, key, rec);
      for (const name of ['vt', 'eov', 'substrate'] as const) {
        const latencies: number[] = [];
        for (let i = 0; i < RUNS + 2; i++) latencies.push((await analyzeOnce(base, key, id, { analyses: [name] })).latency[name]);
        const ms = median(latencies.slice(2));
        const row = name === 'vt' ? 'vt latency_ms, real test' : `${name} latency_ms, real test (hold)`;
        rows.push({
          name: `HTTP ${name} alone, provenance.latency_ms, ${rec.label}`,
          median_ms: ms,
          runs: RUNS,
          extra: { figure: `${ms.toFixed(1)} ms`, reference_service_ms: REFERENCE_LATENCY_MS[name], of_reference: (ms / REFERENCE_LATENCY_MS[name]).toFixed(3) },
          goal: atMost(ms, ANALYSIS_GOAL_MS[name], 'ms', row),
        });
      }
    }
    const sequential = async (url: string, method: LoadOptions['method'], headers: Record<string, string>, body: Pick<LoadOptions, 'body' | 'body_file'>) => {
      const result = await load({ url, method, headers, ...body, connections: 1, count: RUNS + 2 });
      const ok = result.answers.slice(2).filter((a) => a[2] === 200);
      const times = ok.map((a) => a[1]);
      return { p50: median(times), p99: percentile(times, 99), failed: RUNS - ok.length };
    };

    // 1. One request at a time.
    let sampleId = '';
    for (const rec of [sample, real, real2, longest, fastest] as BenchRecording[]) {
      const upload = multipart(dir, rec.file.name, rec.file.bytes);
      const created = await fetch(`${base}/v1/cpet`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': upload.type }, body: readFileSync(upload.path) });
      const id = ((await created.json()) as { cpet_id: string }).cpet_id;
      if (rec === sample) sampleId = id;
      const at20k = rec === longest || rec === fastest;
      const up = await sequential(`${base}/v1/cpet`, 'POST', { 'X-API-Key': key, 'Content-Type': upload.type }, { body_file: upload.path });
      rows.push({ name: `HTTP upload, ${rec.label}`, median_ms: up.p50, runs: RUNS, extra: { p99_ms: up.p99.toFixed(1), kb: Math.round(rec.file.bytes.length / 1024), failed: up.failed } });
      const analyze = await sequential(`${base}/v1/cpet/${id}/analyze`, 'POST', json, { body: '{}' });
      rows.push({
        name: `HTTP analyze all, ${rec.label}`,
        median_ms: analyze.p50,
        runs: RUNS,
        extra: { figure: `${analyze.p50.toFixed(1)} ms`, p99_ms: analyze.p99.toFixed(1), failed: analyze.failed },
        goal: at20k ? atMost(analyze.p50, ANALYZE_ALL_20K_HTTP_MS, 'ms (p50)', rec === longest ? 'analyze vt+eov+substrate, 20,000 samples at 1 s' : undefined) : undefined,
      });
      const compute = await sequential(`${base}/v1/cpet/${id}/compute`, 'POST', json, { body: JSON.stringify({ metrics }) });
      rows.push({
        name: `HTTP compute all, ${rec.label}`,
        median_ms: compute.p50,
        runs: RUNS,
        extra: { figure: `${compute.p50.toFixed(1)} ms`, p99_ms: compute.p99.toFixed(1), failed: compute.failed },
        goal: at20k ? atMost(compute.p50, COMPUTE_ALL_20K_HTTP_MS, 'ms (p50)', rec === longest ? 'compute all metrics, 20,000 samples at 1 s' : undefined) : undefined,
      });
    }

    // 2. Throughput of analyze all on the sample.
    for (const connections of [10, 50]) {
      const result = await load({ url: `${base}/v1/cpet/${sampleId}/analyze`, method: 'POST', headers: json, body: '{}', connections, duration_ms: LOAD_MS });
      const ok = result.answers.filter((a) => a[2] === 200);
      const rps = ok.length / (result.duration_ms / 1000);
      const times = ok.map((a) => a[1]);
      rows.push({
        name: `HTTP analyze-all throughput, sample, ${connections} connections`,
        median_ms: median(times),
        runs: ok.length,
        extra: { figure: `${rps.toFixed(1)} req/s`, req_per_s: rps.toFixed(1), p99_ms: percentile(times, 99).toFixed(1), non_200: result.answers.length - ok.length + result.errors },
        goal: atLeast(rps, ANALYZE_REQ_PER_S, 'req/s', connections === 10 ? 'analyze throughput, sample, 10 connections' : undefined),
      });
    }

    // 2a. The first analyze on a service just started.
    rows.push(await firstAfterStart(dir, real));

    // 2b. The same load on a service with one worker thread: every request is served in turn.
    const single = await oneWorkerLoad(dir, sample);
    rows.push({
      name: 'HTTP analyze all with WORKERS=1, sample, 10 connections (max is the goal)',
      median_ms: median(single.times),
      runs: single.times.length,
      extra: { p99_ms: percentile(single.times, 99).toFixed(1), max_ms: Math.max(...single.times).toFixed(1), non_200: single.non200 },
      goal: atMost(Math.max(...single.times), ONE_WORKER_MAX_WAIT_MS, 'ms (max)'),
    });

    // 3. /health while a 24 MB file uploads: the poller runs throughout, the upload starts after a second.
    const big = multipart(dir, 'big-table.csv', bigTable(BIG_UPLOAD_BYTES));
    const poller = load({ url: `${base}/health`, method: 'GET', headers: {}, connections: 1, duration_ms: 1000 + 20_000 });
    await new Promise((r) => setTimeout(r, 2000));
    const uploadStart = Date.now();
    const bigUpload = await load({ url: `${base}/v1/cpet`, method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': big.type }, body_file: big.path, connections: 1, count: 1 });
    const uploadEnd = Date.now();
    const health = await poller;
    const during = health.answers.filter((a) => health.started_at + a[0] + a[1] >= uploadStart && health.started_at + a[0] <= uploadEnd).map((a) => a[1]);
    const before = health.answers.filter((a) => health.started_at + a[0] + a[1] < uploadStart).map((a) => a[1]);
    const p99 = percentile(during, 99);
    rows.push({
      name: `/health during a ${Math.round(BIG_UPLOAD_BYTES / 1024 / 1024)} MB upload (p50; p99 is the goal)`,
      median_ms: median(during),
      runs: during.length,
      extra: {
        p99_ms: p99.toFixed(1),
        max_ms: Math.max(...during).toFixed(1),
        p99_before_upload_ms: percentile(before, 99).toFixed(1),
        upload_ms: uploadEnd - uploadStart,
        upload_status: bigUpload.answers[0]?.[2] ?? 'error',
      },
      goal: atMost(p99, HEALTH_LAG_P99_MS, 'ms (p99)'),
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { title: `HTTP on a loopback server, 2 worker threads (clients in their own processes)`, rows };
}
