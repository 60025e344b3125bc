/**
 * `npx tsx scripts/train/alveolar-relation.ts [relation|default|artefacts] [perCell] [--window=<s>] [--oracle]`: whether
 * the alveolar gas equation could tell an analyser's slow PetO2 drift from the PetO2 movement at VT1 (analyses/vt/
 * README.md, "PetO2 from PetCO2 and the exchange ratio"). `relation` (the default) fits PetO2 = c - PetCO2 (FIO2 +
 * (1 - FIO2) / R) over 30-s means of each test (slope 1, the offset c free for inspired PO2 and calibration) on the
 * real tests (test/fixtures/vt and a vendor fixture with a whole test's end-tidal gases) and on clean generated tests
 * (exploration seeds 9_030_000 + i of the default cohort): per test the residual SD and the variance explained (per
 * sample and over 30-s means), the
 * slope a free fit would take and the rms of the residual's slow part (running median over --window s, 180 by
 * default). `default` and `artefacts` read VT1 with gandalf v1.6.0 on exploration seeds (9_030_000 + i, 9_730_000 + i)
 * as drawn and with PetO2 less that slow part; `--oracle` takes the slow part of the artefact test's residual less the
 * clean test's, the correction the equation would give were the generator's gases to follow it.
 */
import { readFileSync } from 'node:fs';
import { createVtPlugin } from '../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR } from '../../analyses/vt/registry.js';
import type { Recording } from '../../src/recording/recording.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { withArtifacts } from './artifacts.js';
import { heldOutArtifactCohort, heldOutCohort, readingDelayS } from './cohorts.js';
import { realTests } from './real-tests.js';

/** Dry-air inspired O2 fraction; PAO2 = PIO2 - PACO2 (FIO2 + (1 - FIO2) / R) (Riley & Cournand 1949; West, Respiratory Physiology). */
const FIO2 = 0.2093;
/** The gas-exchange means the equation is read over: R breath by breath is too noisy to divide by. */
const MEAN_S = 30;
const VENDOR_FIXTURES = ['formats/mgc-breeze-txt/fixtures/gasexchanger-aaron/expected.json'];

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const mode = args[0] ?? 'relation';
const perCell = Number(args[1] ?? 10);
const windowS = Number(process.argv.find((a) => a.startsWith('--window='))?.split('=')[1] ?? 180);
const oracle = process.argv.includes('--oracle');

const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
const variance = (a: number[]) => mean(a.map((x) => (x - mean(a)) ** 2));
const pearson = (x: number[], y: number[]) => {
  const [mx, my] = [mean(x), mean(y)];
  const sxy = x.reduce((s, v, i) => s + (v - mx) * (y[i] - my), 0);
  return sxy / Math.sqrt(x.reduce((s, v) => s + (v - mx) ** 2, 0) * y.reduce((s, v) => s + (v - my) ** 2, 0));
};

/** PetO2 less the equation's PetO2 (without PIO2) at each sample that has all four channels, over the ±MEAN_S/2 means of VO2, VCO2 and PetCO2. */
function residuals(rec: Recording): Map<number, number> {
  const [vo2, vco2, o2, co2] = (['VO2', 'VCO2', 'PetO2', 'PetCO2'] as const).map((n) => rec.channels[n]?.values ?? []);
  const t = rec.t_s;
  const idx = t.map((_, i) => i).filter((i) => [vo2[i], vco2[i], o2[i], co2[i]].every((x) => typeof x === 'number' && Number.isFinite(x)));
  const out = new Map<number, number>();
  let lo = 0;
  let hi = 0;
  for (const i of idx) {
    while (t[idx[lo]] < t[i] - MEAN_S / 2) lo++;
    while (hi < idx.length && t[idx[hi]] <= t[i] + MEAN_S / 2) hi++;
    const near = idx.slice(lo, hi);
    const r = mean(near.map((j) => vco2[j] as number)) / mean(near.map((j) => vo2[j] as number));
    out.set(i, (o2[i] as number) + mean(near.map((j) => co2[j] as number)) * (FIO2 + (1 - FIO2) / r));
  }
  return out;
}

/** Each residual's running median over windowS, less the test's median: the slow part an offset does not explain. */
function slowPart(rec: Recording, resid: Map<number, number>): Map<number, number> {
  const idx = [...resid.keys()];
  const all = median([...resid.values()]);
  return new Map(idx.map((i) => [i, median(idx.filter((j) => Math.abs(rec.t_s[j] - rec.t_s[i]) <= windowS / 2).map((j) => resid.get(j) as number)) - all]));
}

function relation(rec: Recording): string {
  const resid = residuals(rec);
  const idx = [...resid.keys()];
  const o2 = idx.map((i) => rec.channels.PetO2?.values[i] as number);
  const predicted = idx.map((i, k) => o2[k] - (resid.get(i) as number));
  const slope = pearson(predicted, o2) * Math.sqrt(variance(o2) / variance(predicted));
  const slow = [...slowPart(rec, resid).values()];
  const explained = 1 - variance([...resid.values()]) / variance(o2);
  const bins = new Map<number, number[]>();
  for (const [k, i] of idx.entries()) {
    const b = Math.floor(rec.t_s[i] / MEAN_S);
    bins.set(b, [...(bins.get(b) ?? []), k]);
  }
  const binned = (x: number[]) => [...bins.values()].map((ks) => mean(ks.map((k) => x[k])));
  const binnedResid = binned(idx.map((i) => resid.get(i) as number));
  const binnedExplained = 1 - variance(binnedResid) / variance(binned(o2));
  return `n ${idx.length}, PIO2 ${median([...resid.values()]).toFixed(1)}, PetO2 SD ${Math.sqrt(variance(o2)).toFixed(2)}, residual SD ${Math.sqrt(variance([...resid.values()])).toFixed(2)}, explained ${(100 * explained).toFixed(0)} % (${MEAN_S}-s means: residual SD ${Math.sqrt(variance(binnedResid)).toFixed(2)}, explained ${(100 * binnedExplained).toFixed(0)} %), free slope ${slope.toFixed(2)}, slow rms ${Math.sqrt(mean(slow.map((x) => x * x))).toFixed(2)} mmHg`;
}

function withoutSlowPart(rec: Recording, clean: Recording | null): Recording {
  const resid = residuals(rec);
  if (clean) {
    const base = residuals(clean);
    for (const [i, x] of resid) resid.set(i, x - (base.get(i) ?? x));
  }
  const slow = slowPart(rec, resid);
  const data = rec.channels.PetO2;
  if (!data) return rec;
  return { ...rec, channels: { ...rec.channels, PetO2: { ...data, values: data.values.map((v, i) => (v === null || !slow.has(i) ? v : v - (slow.get(i) as number))) } } };
}

if (mode === 'relation') {
  for (const t of await realTests()) console.log(`real: ${t.id}: ${relation(t.recording)}`);
  for (const f of VENDOR_FIXTURES) console.log(`vendor: ${f}: ${relation((JSON.parse(readFileSync(f, 'utf8')) as { recording: Recording }).recording)}`);
  for (const [i, o] of heldOutCohort(perCell).entries()) console.log(`generated (clean) ${9_030_000 + i}: ${relation(generateTest({ ...o, seed: 9_030_000 + i }).recording)}`);
} else {
  const plugin = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
  const key = { tier: 'research' as const, allowed_models: null };
  const vt1 = async (rec: Recording) => {
    const out = await plugin.run(rec, { model: 'gandalf', model_version: 'v1.6.0', key, surface: 'web' });
    return out.status === 'ok' ? (out.findings as { vt1_time_s: number | null }).vt1_time_s : null;
  };
  const options =
    mode === 'default'
      ? heldOutCohort(perCell).map((o, i) => ({ ...o, seed: 9_030_000 + i }))
      : heldOutArtifactCohort(perCell).map((o, i) => ({ ...o, seed: 9_730_000 + i, realism: { reading_delay_s: { vt1: readingDelayS(9_730_000 + i), vt2: 0 } } }));
  const rows: { truth: number; drawn: number; corrected: number }[] = [];
  for (const o of options) {
    const g = generateTest(o);
    if (g.truth.vt1 === null) continue;
    const rec = mode === 'artefacts' ? withArtifacts(g.recording, o.seed) : g.recording;
    const [drawn, corrected] = [await vt1(rec), await vt1(withoutSlowPart(rec, oracle ? g.recording : null))];
    if (drawn !== null && corrected !== null) rows.push({ truth: g.truth.vt1.time_s, drawn, corrected });
  }
  for (const k of ['drawn', 'corrected'] as const) {
    const e = rows.map((r) => r[k] - r.truth);
    const r = pearson(
      rows.map((x) => x.truth),
      rows.map((x) => x[k]),
    );
    console.log(
      `${mode} ${k} (window ${windowS} s${oracle ? ', oracle' : ''}): n ${rows.length}, VT1 time bias ${mean(e).toFixed(1)} / MAE ${mean(e.map(Math.abs)).toFixed(1)} s, r ${r.toFixed(3)}, |error| > 150 s: ${e.filter((x) => Math.abs(x) > 150).length}`,
    );
  }
}
