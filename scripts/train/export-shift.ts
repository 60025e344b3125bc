/**
 * `npx tsx scripts/train/export-shift.ts [model@version] [tests] [--averaged-rows=<placement>] [--averaged-smoothing=<smoothing>] [--compensation-search=<search>] [--breath-despiking=<despiking>] [--seed-base=<seed>] [--synthetic-without-rf]`: how far each averaged export kind moves the
 * thresholds from the breath-by-breath (or as-shipped) answer, on the real labelled tests and on a
 * synthetic held-out cohort (analyses/vt/README.md, "Averaged exports"). Each real test is re-exported
 * as fixed bins of its own samples (a bin's mean, stamped at its end) and as the same 10-s bins with
 * every 7th and 11th bin left out (empty bins); the result goes through buildRecording, so the sampling
 * recognition runs as on an uploaded file. Synthetic tests are generated once per kind from the same
 * seed (the same breaths, exported differently). `--averaged-rows`, `--averaged-smoothing`,
 * `--compensation-search` and `--breath-despiking` run the card with its `preprocessing.averaged_rows` /
 * `averaged_smoothing` / `compensation_search` / `breath_despiking` set to that value
 * (analyses/vt/card.ts), on a copy of the models folder, so an option is measured on a published
 * version before a new version adopts it. `--synthetic-without-rf` drops RF and tidal volume from the
 * synthetic averaged exports, so the rate the engine estimates without them is measured too. Each synthetic
 * line also gives the shift of the curves' own crossings (evidence model_crossing_s: median / 90th
 * percentile (mean signed)), apart from what the landmarks and the gases make of them; `--seed-base` draws
 * the synthetic tests from other seeds (default 9_990_000 + i).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AVERAGED_ROWS,
  AVERAGED_SMOOTHING,
  BREATH_DESPIKING,
  COMPENSATION_SEARCH,
  type AveragedRows,
  type AveragedSmoothing,
  type BreathDespiking,
  type CompensationSearch,
} from '../../analyses/vt/card.js';
import { createVtPlugin } from '../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../analyses/vt/registry.js';
import type { Recording } from '../../src/recording/recording.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { SamplingOption } from '../../src/synthetic/types.js';
import { binned } from './binned-export.js';
import { heldOutCohort } from './cohorts.js';
import { realTests } from './real-tests.js';

const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const [name, version] = (positional[0] ?? 'gandalf@latest').split('@');
const placement = flags.find((f) => f.startsWith('--averaged-rows='))?.split('=')[1] as AveragedRows | undefined;
if (placement !== undefined && !AVERAGED_ROWS.includes(placement)) throw new Error(`--averaged-rows must be one of ${AVERAGED_ROWS.join(', ')}`);
const smoothing = flags.find((f) => f.startsWith('--averaged-smoothing='))?.split('=')[1] as AveragedSmoothing | undefined;
if (smoothing !== undefined && !AVERAGED_SMOOTHING.includes(smoothing)) throw new Error(`--averaged-smoothing must be one of ${AVERAGED_SMOOTHING.join(', ')}`);
const search = flags.find((f) => f.startsWith('--compensation-search='))?.split('=')[1] as CompensationSearch | undefined;
if (search !== undefined && !COMPENSATION_SEARCH.includes(search)) throw new Error(`--compensation-search must be one of ${COMPENSATION_SEARCH.join(', ')}`);
const despiking = flags.find((f) => f.startsWith('--breath-despiking='))?.split('=')[1] as BreathDespiking | undefined;
if (despiking !== undefined && !BREATH_DESPIKING.includes(despiking)) throw new Error(`--breath-despiking must be one of ${BREATH_DESPIKING.join(', ')}`);
const seedBase = Number(flags.find((f) => f.startsWith('--seed-base='))?.split('=')[1] ?? 9_990_000);
const syntheticWithoutRf = flags.includes('--synthetic-without-rf');

/** A copy of the models folder whose card for the chosen model has the options named set in `preprocessing`. */
function modelsWithOptions(options: { averaged_rows?: AveragedRows; averaged_smoothing?: AveragedSmoothing; compensation_search?: CompensationSearch; breath_despiking?: BreathDespiking }): string {
  const dir = mkdtempSync(join(tmpdir(), 'export-shift-'));
  cpSync(DEFAULT_MODELS_DIR, dir, { recursive: true });
  const chosen = new ModelRegistry(dir).find(name, version);
  if (!chosen) throw new Error(`no model ${name}@${version}`);
  const cardPath = join(chosen.dir, 'card.json');
  const card = JSON.parse(readFileSync(cardPath, 'utf8'));
  writeFileSync(cardPath, JSON.stringify({ ...card, preprocessing: { ...card.preprocessing, ...options } }, null, 2));
  return dir;
}

const options = {
  ...(placement ? { averaged_rows: placement } : {}),
  ...(smoothing ? { averaged_smoothing: smoothing } : {}),
  ...(search ? { compensation_search: search } : {}),
  ...(despiking ? { breath_despiking: despiking } : {}),
};
const plugin = createVtPlugin({ modelsDir: Object.keys(options).length ? modelsWithOptions(options) : DEFAULT_MODELS_DIR });
const key = { tier: 'research' as const, allowed_models: null };
const KINDS: { label: string; bin_s: number; empty?: boolean }[] = [
  { label: '5-s', bin_s: 5 },
  { label: '10-s', bin_s: 10 },
  { label: '10-s, empty bins', bin_s: 10, empty: true },
  { label: '15-s', bin_s: 15 },
  { label: '20-s', bin_s: 20 },
  { label: '30-s', bin_s: 30 },
];

/**
 * A breath-by-breath recording without RF (the Exercise Threshold App JSON has none) with each breath's
 * frequency, 60 / its duration, as a cart computes BF and writes its mean into every averaged row; the
 * engine spans its smoothing of an averaged export by the breaths it held (engines/oxynet/curves.ts).
 */
function withBreathRate(rec: Recording): Recording {
  if (rec.channels.RF || rec.sampling.method !== 'breath_by_breath') return rec;
  const values = rec.t_s.map((t, i) => (i === 0 ? null : 60 / (t - rec.t_s[i - 1])));
  return { ...rec, channels: { ...rec.channels, RF: { values, unit_in: '1/min' } } };
}

/** The recording without RF and tidal volume (an export that writes neither). */
function withoutRate(rec: Recording): Recording {
  const { RF: _rf, VT: _vt, ...channels } = rec.channels;
  return { ...rec, channels };
}

type Crossings = { vt1?: { model_crossing_s?: number | null }; vt2?: { model_crossing_s?: number | null } };

/** VT1, VT2, the sampling read (or the refusal) and, for a rule that names them, the curves' own crossings. */
async function times(rec: Recording): Promise<[number | null, number | null, string, number | null, number | null]> {
  const out = await plugin.run(rec, { model: name, ...(version !== 'latest' ? { model_version: version } : {}), key, surface: 'web' });
  if (out.status !== 'ok') return [null, null, out.error, null, null];
  const f = out.findings as { vt1_time_s: number | null; vt2_time_s: number | null; evidence?: Crossings };
  return [f.vt1_time_s, f.vt2_time_s, rec.sampling.method, f.evidence?.vt1?.model_crossing_s ?? null, f.evidence?.vt2?.model_crossing_s ?? null];
}

const shift = (a: number | null, b: number | null) => (a === null || b === null ? 'n/a' : String(Math.round(a - b)));
console.log(
  `model ${name} ${version}${placement ? `, averaged rows ${placement}` : ''}${smoothing ? `, averaged smoothing ${smoothing}` : ''}${search ? `, compensation search ${search}` : ''}${despiking ? `, breath despiking ${despiking}` : ''}: shift of VT1 / VT2 from the original export, s`,
);
for (const r of await realTests()) {
  const [b1, b2] = await times(r.recording);
  const cells: string[] = [];
  const rated = withBreathRate(r.recording);
  for (const k of KINDS) {
    const [t1, t2, how] = await times(binned(rated, k.bin_s, k.empty ?? false));
    cells.push(`${k.label} (${how}): ${shift(t1, b1)} / ${shift(t2, b2)}`);
    if (rated !== r.recording) {
      const [u1, u2] = await times(binned(r.recording, k.bin_s, k.empty ?? false));
      cells.push(`${k.label} without RF: ${shift(u1, b1)} / ${shift(u2, b2)}`);
    }
  }
  console.log(`${r.id} (original VT1 ${b1}, VT2 ${b2}): ${cells.join('; ')}`);
}

const N = Number(positional[1] ?? 24);
const base = heldOutCohort(Math.ceil(N / 12))
  .slice(0, N)
  .map((o, i) => ({ ...o, seed: seedBase + i }));
const kinds: { label: string; sampling: SamplingOption }[] = [5, 10, 15, 20, 30].map((w) => ({ label: `${w}-s`, sampling: { kind: 'averaged', window_s: w } }));
const baseline = await Promise.all(base.map(async (o) => times(generateTest({ ...o, sampling: { kind: 'breath' } }).recording)));
for (const k of kinds) {
  const d1: number[] = [];
  const d2: number[] = [];
  // The curves' own crossings, apart from what the landmarks and the gases make of them.
  const c1: number[] = [];
  const c2: number[] = [];
  let refused = 0;
  for (let i = 0; i < base.length; i++) {
    const exported = generateTest({ ...base[i], sampling: k.sampling }).recording;
    const [t1, t2, how, x1, x2] = await times(syntheticWithoutRf ? withoutRate(exported) : exported);
    if (how !== 'averaged' && t1 === null) refused++;
    if (t1 !== null && baseline[i][0] !== null) d1.push(t1 - baseline[i][0]!);
    if (t2 !== null && baseline[i][1] !== null) d2.push(t2 - baseline[i][1]!);
    if (x1 !== null && baseline[i][3] !== null) c1.push(x1 - baseline[i][3]!);
    if (x2 !== null && baseline[i][4] !== null) c2.push(x2 - baseline[i][4]!);
  }
  const abs = (v: number[]) => v.map(Math.abs).sort((a, b) => a - b);
  const med = (v: number[]) => (v.length ? abs(v)[v.length >> 1] : null);
  const p90 = (v: number[]) => (v.length ? abs(v)[Math.floor(0.9 * (v.length - 1))] : null);
  // The mean signed shift tells a lag (every test moved the same way) from scatter.
  const mean = (v: number[]) => (v.length ? Math.round(v.reduce((a, b) => a + b, 0) / v.length) : null);
  console.log(
    `synthetic ${base.length} tests, ${k.label}${syntheticWithoutRf ? ' without RF' : ''}: |VT1 shift| median ${med(d1)} s, 90th percentile ${p90(d1)} s, mean signed ${mean(d1)} s; |VT2 shift| median ${med(d2)} s, 90th ${p90(d2)} s, mean signed ${mean(d2)} s; refused ${refused}; the curves' crossings alone: |VT1| ${med(c1)} / ${p90(c1)} (${mean(c1)}) s, |VT2| ${med(c2)} / ${p90(c2)} (${mean(c2)}) s`,
  );
}
