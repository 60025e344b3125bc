/**
 * The gandalf model's input: for each second, a window of the test's min-max scaled signals around
 * it plus a coarse picture of the whole test, so a per-second classifier can tell where it stands
 * relative to the test's own breakpoints. Oxynet (Zignoli et al. 2019, 2022) scales each channel
 * min-max per test and classifies each second from a window of the five signals; we add the
 * ventilatory equivalents and RER, which carry the threshold criteria (Wasserman), and the
 * whole-test context. The training script builds its rows with this same function.
 */
import { minMaxScale } from '../../grid-filters.js';
import type { PreparedTest } from '../../preprocess.js';

/** Offsets (s) of the local window around each second. */
export const WINDOW_OFFSETS_S = [-120, -90, -60, -40, -20, -10, 0, 10, 20, 40, 60, 90, 120] as const;
/** Fractions of the analysed span at which the whole-test context is sampled. */
export const CONTEXT_FRACTIONS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0] as const;
/** Derived channels fed to the model, in order. */
export const FEATURE_CHANNELS = ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2', 'VE/VO2', 'VE/VCO2', 'RER'] as const;
/** Scale (s) of the "time before the VO2 peak" feature (feature set v1). */
const TIME_SCALE_S = 600;

/**
 * Feature sets, named in each model card (`preprocessing.feature_set`, v1 when absent) so a new
 * set never changes what an older model version receives.
 * - v1: RER absolute, plus two position features (fraction of the span, time before the VO2 peak).
 * - v2: every channel min-max scaled per test (blind to analyser gain and offset) and no position
 *   features, so the model must read the signals rather than where thresholds usually sit.
 */
export type FeatureSet = 'v1' | 'v2';

/** Number of features per second of a feature set. */
export function featureCount(set: FeatureSet): number {
  return FEATURE_CHANNELS.length * (WINDOW_OFFSETS_S.length + CONTEXT_FRACTIONS.length) + (set === 'v1' ? 2 : 0);
}

/** The eight per-test scaled channels (v1 keeps RER absolute: 1.0 means the same in every test). */
export function scaledChannels(test: PreparedTest, set: FeatureSet): Float64Array[] {
  const { vo2, vco2, ve, peto2, petco2, end_index: end } = test;
  const veVo2 = new Float64Array(test.n);
  const veVco2 = new Float64Array(test.n);
  const rer = new Float64Array(test.n);
  for (let i = 0; i < test.n; i++) {
    veVo2[i] = vo2[i] > 0 ? (ve[i] * 1000) / vo2[i] : 0;
    veVco2[i] = vco2[i] > 0 ? (ve[i] * 1000) / vco2[i] : 0;
    rer[i] = vo2[i] > 0 ? vco2[i] / vo2[i] : 0;
  }
  return [
    minMaxScale(vo2, end),
    minMaxScale(vco2, end),
    minMaxScale(ve, end),
    minMaxScale(peto2, end),
    minMaxScale(petco2, end),
    minMaxScale(veVo2, end),
    minMaxScale(veVco2, end),
    set === 'v1' ? rer : minMaxScale(rer, end),
  ];
}

/**
 * Feature rows for grid indices `rows` (each within [0, end_index]), row-major Float32
 * [rows.length, featureCount(set)]. Window points past either end of the analysed span are clamped
 * to it, so the recovery after the VO2 peak never enters the input.
 */
export function buildFeatures(test: PreparedTest, rows: readonly number[], set: FeatureSet): Float32Array {
  const channels = scaledChannels(test, set);
  const end = test.end_index;
  const context = new Float64Array(FEATURE_CHANNELS.length * CONTEXT_FRACTIONS.length);
  let c = 0;
  for (const ch of channels) for (const f of CONTEXT_FRACTIONS) context[c++] = ch[Math.round(f * end)];
  const count = featureCount(set);
  const out = new Float32Array(rows.length * count);
  let k = 0;
  for (const i of rows) {
    for (const ch of channels) {
      for (const off of WINDOW_OFFSETS_S) out[k++] = ch[Math.min(end, Math.max(0, i + off))];
    }
    for (let j = 0; j < context.length; j++) out[k++] = context[j];
    if (set === 'v1') {
      out[k++] = end > 0 ? i / end : 0;
      out[k++] = (end - i) / TIME_SCALE_S;
    }
  }
  return out;
}
