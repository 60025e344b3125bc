/**
 * Benchmark helpers: medians of repeated runs and a table printer. Benchmarks report; they never
 * assert a speed (shared machines are noisy), so nothing here fails a run.
 */
import { performance } from 'node:perf_hooks';

export interface BenchRow {
  /** What was measured, e.g. 'parse cosmed.xlsx'. */
  name: string;
  median_ms: number;
  runs: number;
  /** Extra figures (MB/s, peak MB, ratio), printed as given. */
  extra?: Record<string, string | number>;
}

/** Median wall time of `runs` calls of `fn` after `warmup` unmeasured calls. */
export async function medianMs(fn: () => unknown | Promise<unknown>, runs = 7, warmup = 1): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

/** Prints rows as an aligned table. */
export function printRows(title: string, rows: BenchRow[]): void {
  console.log(`\n## ${title}`);
  for (const r of rows) {
    const extra = r.extra ? '  ' + Object.entries(r.extra).map(([k, v]) => `${k}=${v}`).join('  ') : '';
    console.log(`${r.name.padEnd(58)} ${r.median_ms.toFixed(2).padStart(10)} ms (median of ${r.runs})${extra}`);
  }
}
