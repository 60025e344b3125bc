/**
 * Benchmark helpers: medians and percentiles of repeated runs and a table printer. Benchmarks
 * report; they never assert a speed (shared machines are noisy), so nothing here fails a run. A row
 * with a goal prints the goal beside the figure and says whether it was met.
 */
import { performance } from 'node:perf_hooks';
import { createService, type Service } from '../src/server/app.js';

/** A goal a figure is read against, and where the goal comes from. */
export interface Goal {
  /** How the goal reads, e.g. '<= 10 ms' or '>= 10x spiro'. */
  text: string;
  met: boolean;
  /** The figure over the goal: at most 1 meets an upper bound, at least 1 a lower one. */
  ratio: number;
  /** The row of issue 23's table the figure answers, when it answers one (run.ts sums them up). */
  issue_row?: string;
}

export interface BenchRow {
  /** What was measured, e.g. 'parse cosmed.xlsx'. */
  name: string;
  median_ms: number;
  runs: number;
  /** Extra figures (MB/s, peak MB, ratio), printed as given. */
  extra?: Record<string, string | number>;
  goal?: Goal;
}

/** Median wall time of `runs` calls of `fn` after `warmup` unmeasured calls. */
export async function medianMs(fn: () => unknown | Promise<unknown>, runs = 7, warmup = 1): Promise<number> {
  return median(await timesMs(fn, runs, warmup));
}

/**
 * `count` copies of a recording, one per call: an analysis keeps work per recording (eov's outcome,
 * which vt's note shares; the phases), and a request decodes its own, so a figure must never reuse one.
 */
export function copiesOf<T>(value: T, count: number): T[] {
  return Array.from({ length: count }, () => structuredClone(value));
}

/** Wall times of `runs` calls of `fn` after `warmup` unmeasured calls, in call order. */
export async function timesMs(fn: () => unknown | Promise<unknown>, runs: number, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}

/** The median of a list (the upper middle of an even count). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** The p-th percentile by the nearest-rank method (p99 of 30 values is their maximum). */
export function percentile(values: readonly number[], p: number): number {
  // No values (a poller that got no answer in a window on a loaded machine): NaN prints, undefined would throw.
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  if (p === 50) return sorted[sorted.length >> 1];
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A goal that holds when `value` is at most `limit`. */
export function atMost(value: number, limit: number, unit: string, issueRow?: string): Goal {
  return { text: `<= ${limit} ${unit}`, met: value <= limit, ratio: value / limit, issue_row: issueRow };
}

/** A goal that holds when `value` is at least `limit`. */
export function atLeast(value: number, limit: number, unit: string, issueRow?: string): Goal {
  return { text: `>= ${limit} ${unit}`, met: value >= limit, ratio: value / limit, issue_row: issueRow };
}

/** Prints rows as an aligned table. */
export function printRows(title: string, rows: BenchRow[]): void {
  console.log(`\n## ${title}`);
  for (const r of rows) {
    const extra = r.extra
      ? '  ' +
        Object.entries(r.extra)
          .map(([k, v]) => `${k}=${v}`)
          .join('  ')
      : '';
    const goal = r.goal ? `  [goal ${r.goal.text}: ratio ${r.goal.ratio.toFixed(2)}, ${r.goal.met ? 'met' : 'NOT met'}]` : '';
    console.log(`${r.name.padEnd(58)} ${r.median_ms.toFixed(2).padStart(10)} ms (median of ${r.runs})${extra}${goal}`);
  }
}

/**
 * The real service for a benchmark: the embedded store in `dataDir`, `workers` threads, no rate limit,
 * and no access log (a line per request would flood the report).
 */
export function benchService(dataDir: string, workers: number): Promise<Service> {
  return createService({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    redisUrl: null,
    rateLimitPerMinute: 0,
    workers,
    publicBaseUrl: null,
    formatPackages: [],
    now: Date.now,
    operations: { logLevel: 'silent' },
  });
}
