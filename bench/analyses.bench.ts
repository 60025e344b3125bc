/**
 * Each analysis as the framework runs it (runAnalyses: `provenance.latency_ms` is what a request
 * reports), analyze-all (vt, eov, substrate in one call) and compute-all (every metric the service
 * registers) in process, on the sample, on a real ~350-breath test and at the 20,000-sample limit.
 * The goals on the real test are issue 23's (read over HTTP in http.bench.ts, each analysis alone; here vt's figure also carries eov's when both run, since vt's note reads eov's grade); the HTTP figures at 20,000 samples are in http.bench.ts.
 * `npx tsx bench/run.ts analyses`.
 */
import type { AnalysisName } from '../src/analyses/analysis-plugin.js';
import { runAnalyses } from '../src/analyses/run.js';
import { createMetricRegistry } from '../src/metrics/registry.js';
import { loadPlugins } from '../src/plugins.js';
import { ANALYSIS_GOAL_MS, REFERENCE_LATENCY_MS } from './goals.js';
import { atMost, copiesOf, median, timesMs, type BenchRow } from './harness.js';
import { benchRecordings, type BenchRecording } from './recordings.js';

const NAMES: AnalysisName[] = ['vt', 'eov', 'substrate'];
const request = { key: { tier: 'research' as const, allowed_models: null } };

export default async function analysesBench(): Promise<{ title: string; rows: BenchRow[] }> {
  const { analyses } = await loadPlugins();
  const registry = createMetricRegistry(analyses.flatMap((a) => a.metrics ?? []));
  const metrics = registry.list().map((e) => e.name);
  const { sample, real, longest, fastest } = await benchRecordings();
  const rows: BenchRow[] = [];
  for (const [rec, runs] of [
    [sample, 15],
    [real, 15],
    [longest, 5],
    [fastest, 5],
  ] as [BenchRecording, number][]) {
    // Per analysis: the envelope's own latency, median over the runs (first runs let the JIT settle).
    // A fresh copy per run, as a request decodes its own: the eov outcome vt's note shares is kept per recording.
    const runCopies = copiesOf(rec.recording, runs + 2);
    const latency: Record<string, number[]> = { vt: [], eov: [], substrate: [] };
    const all = await timesMs(
      async () => {
        for (const e of await runAnalyses(runCopies.pop()!, NAMES, analyses, request)) latency[e.analysis].push(e.provenance.latency_ms);
      },
      runs,
      2,
    );
    for (const name of NAMES) {
      const ms = median(latency[name].slice(-runs));
      const goal = rec === real ? atMost(ms, ANALYSIS_GOAL_MS[name], 'ms') : undefined;
      const extra = rec === real ? { reference_service_ms: REFERENCE_LATENCY_MS[name] } : undefined;
      rows.push({ name: `${name} (provenance.latency_ms), ${rec.label}`, median_ms: ms, runs, extra, goal });
    }
    rows.push({ name: `analyze-all in process, ${rec.label}`, median_ms: median(all), runs });
    // A fresh copy per run, so the per-recording caches of the metrics never flatter the figure.
    const copies = Array.from({ length: runs + 2 }, () => structuredClone(rec.recording));
    const compute = await timesMs(() => registry.compute(copies.pop()!, metrics), runs, 2);
    rows.push({ name: `compute-all in process (${metrics.length} metrics), ${rec.label}`, median_ms: median(compute), runs });
  }
  return { title: 'analyses and metrics in process (goals on the real test: issue 23, read over HTTP in http.bench.ts)', rows };
}
