/**
 * The findings every installed model version, eov, substrate and every metric give on every real
 * fixture and a few synthetic tests, in the form the golden files keep (test/fixtures/findings/).
 * A speed change must leave them byte-identical (issue 23); a change of what a published version
 * computes is a new version, which adds its own file. Shared by the test (unchanged.test.ts) and
 * the command that writes missing files (regenerate.ts).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { domainProbabilities } from '../../analyses/vt/domains.js';
import { pipelineOf } from '../../analyses/vt/pipeline.js';
import { registryFor } from '../../analyses/vt/registry.js';
import type { AnalysisName, AnalysisPlugin, AnalysisRequest } from '../../src/analyses/analysis-plugin.js';
import { runAnalyses, type Envelope } from '../../src/analyses/run.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { loadPlugins, PROJECT_ROOT } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';
import { drawOptions } from '../../src/synthetic/cohort.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { generateSampleTest } from '../../src/synthetic/sample.js';

/** Where the golden files live: one JSON per subject, `{ "<recording>": <findings> }`. */
export const GOLDEN_DIR = join(PROJECT_ROOT, 'test/fixtures/findings');

/** A recording the findings are recorded on, or why its file does not parse (also recorded). */
export interface GoldenRecording {
  label: string;
  recording: Recording | null;
  parse_error?: string;
}

/** What one subject computes on one recording, as the golden file keeps it. */
export type Compute = (rec: Recording) => Promise<unknown>;

export interface Subject {
  /** File name under GOLDEN_DIR without `.json`: `vt/<model>@<version>`, `domains/<model>@<version>`, `eov`, `substrate`, `metrics`. */
  id: string;
  compute: Compute;
}

const KEY = { tier: 'research' as const, allowed_models: null };

/** Every vendor fixture (formats/<format>/fixtures/<case>/input.*) and every real test held for the analyses. */
function fixtureFiles(): string[] {
  const files: string[] = [];
  const formats = join(PROJECT_ROOT, 'formats');
  for (const format of readdirSync(formats).sort()) {
    let cases: string[];
    try {
      cases = readdirSync(join(formats, format, 'fixtures')).sort();
    } catch {
      continue;
    }
    for (const c of cases) {
      const dir = join(formats, format, 'fixtures', c);
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const n of names.filter((n) => n.startsWith('input.')).sort()) files.push(join(dir, n));
    }
  }
  const vt = join(PROJECT_ROOT, 'test/fixtures/vt');
  for (const n of readdirSync(vt).sort()) if (/\.(csv|json)$/.test(n)) files.push(join(vt, n));
  return files;
}

/**
 * The synthetic tests: the public sample (plain and oscillating), eight varied cohort draws (ramp,
 * steps, treadmill; breath by breath and averaged) and the spec's 20,000-sample limit both ways (1 s
 * over 5.6 h; 0.108 s over 36 min), where the speed work of issue 23 bites hardest.
 */
function syntheticTests(): { label: string; recording: Recording }[] {
  const out = [
    { label: 'synthetic/sample', recording: generateSampleTest(false).recording },
    { label: 'synthetic/sample-oscillating', recording: generateSampleTest(true).recording },
  ];
  for (let seed = 1; seed <= 8; seed++) out.push({ label: `synthetic/cohort-seed-${seed}`, recording: generateTest(drawOptions(seed)).recording });
  out.push({
    label: 'synthetic/20000-samples-at-1s',
    recording: generateTest({ seed: 31337, protocol: 'ramp', rest_s: 300, warmup_s: 300, exercise_s: 19_000, recovery_s: 399, sampling: { kind: 'interval', interval_s: 1 } }).recording,
  });
  out.push({ label: 'synthetic/20000-samples-at-0.108s', recording: generateTest({ seed: 1, protocol: 'ramp', exercise_s: 1800, sampling: { kind: 'interval', interval_s: 0.108 } }).recording });
  return out;
}

export async function goldenRecordings(): Promise<GoldenRecording[]> {
  const { formats } = await loadPlugins();
  const out: GoldenRecording[] = [];
  for (const file of fixtureFiles()) {
    const label = relative(PROJECT_ROOT, file);
    try {
      out.push({ label, recording: (await readUpload(file.split('/').at(-1)!, readFileSync(file), formats)).recording });
    } catch (err) {
      out.push({ label, recording: null, parse_error: (err as { code?: string }).code ?? (err as Error).message });
    }
  }
  return [...out, ...syntheticTests()];
}

/** An envelope without what changes from call to call (when and how fast it ran). */
function stable(e: Envelope): unknown {
  const { computed_at: _at, latency_ms: _ms, ...provenance } = e.provenance;
  return { ...e, provenance };
}

/** Every subject the installed code can compute: one per vt model version (and its curves), eov, substrate, metrics. */
export async function goldenSubjects(): Promise<Subject[]> {
  const { analyses } = await loadPlugins();
  const metrics = createMetricRegistry(analyses.flatMap((a) => a.metrics ?? []));
  const metricNames = metrics.list().map((m) => m.name);
  const one = async (rec: Recording, name: AnalysisName, request: AnalysisRequest, plugins: readonly AnalysisPlugin[]) => stable((await runAnalyses(rec, [name], plugins, request))[0]);
  const subjects: Subject[] = [];
  for (const m of registryFor().models) {
    const at = `${m.card.name}@${m.card.version}`;
    const request: AnalysisRequest = { key: KEY, model: m.card.name, model_version: m.card.version, surface: 'web' };
    subjects.push({ id: `vt/${at}`, compute: (rec) => one(rec, 'vt', request, analyses) });
    if (m.problem === null && pipelineOf(m.card).engine.answers === 'curves') {
      // The curves are long arrays: their digest (sha256 of the JSON) keeps the file small and still catches any change.
      subjects.push({
        id: `domains/${at}`,
        compute: async (rec) => {
          let curves: unknown;
          try {
            curves = await domainProbabilities(rec, { model: m.card.name, model_version: m.card.version, key: KEY });
          } catch (err) {
            return { error: (err as { code?: string }).code ?? (err as Error).message };
          }
          return { sha256: createHash('sha256').update(JSON.stringify(curves)).digest('hex') };
        },
      });
    }
  }
  subjects.push({ id: 'eov', compute: (rec) => one(rec, 'eov', { key: KEY }, analyses) });
  subjects.push({ id: 'substrate', compute: (rec) => one(rec, 'substrate', { key: KEY }, analyses) });
  // A fresh copy, so a metric's per-recording cache never carries over from an analysis above.
  subjects.push({ id: 'metrics', compute: async (rec) => metrics.compute(structuredClone(rec), metricNames) });
  return subjects;
}

/** A subject's findings on every recording, keyed by recording label, in the recordings' order. */
export async function findingsOf(subject: Subject, recordings: readonly GoldenRecording[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const r of recordings) out[r.label] = r.recording ? await subject.compute(r.recording) : { parse_error: r.parse_error };
  return out;
}

/** The path of a subject's golden file. */
export function goldenPath(id: string): string {
  return join(GOLDEN_DIR, `${id}.json`);
}
