/**
 * The gandalf model's input: for each second, a window of the test's min-max scaled signals around
 * it plus a coarse picture of the whole test, so a per-second classifier can tell where it stands
 * relative to the test's own breakpoints. Oxynet (Zignoli et al. 2019, 2022) scales each channel
 * min-max per test and classifies each second from a window of the five signals; we add the
 * ventilatory equivalents and RER, which carry the threshold criteria (Wasserman), and the
 * whole-test context. The training script builds its rows with this same function.
 */
import { minMaxScale } from './grid-filters.js';
import type { PreparedTest } from './preprocess.js';

/** Offsets (s) of the local window around each second. */
export const WINDOW_OFFSETS_S = [-120, -90, -60, -40, -20, -10, 0, 10, 20, 40, 60, 90, 120] as const;
/** Fractions of the analysed span at which the whole-test context is sampled. */
export const CONTEXT_FRACTIONS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0] as const;
/** Derived channels fed to the model, in order. */
export const FEATURE_CHANNELS = ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2', 'VE/VO2', 'VE/VCO2', 'RER'] as const;
/** Scale (s) of the "time before the VO2 peak" feature. */
const TIME_SCALE_S = 600;

/** Number of features per second. */
export const FEATURE_COUNT = FEATURE_CHANNELS.length * (WINDOW_OFFSETS_S.length + CONTEXT_FRACTIONS.length) + 2;

/** The eight per-test scaled channels (RER kept absolute: 1.0 means the same in every test). */
export function scaledChannels(test: PreparedTest): Float64Array[] {
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
    rer,
  ];
}

/**
 * Feature rows for grid indices `rows` (each within [0, end_index]), row-major Float32
 * [rows.length, FEATURE_COUNT]. Window points past either end of the analysed span are clamped to it,
 * so the recovery after the VO2 peak never enters the input.
 */
export function buildFeatures(test: PreparedTest, rows: readonly number[]): Float32Array {
  const channels = scaledChannels(test);
  const end = test.end_index;
  const context = new Float64Array(FEATURE_CHANNELS.length * CONTEXT_FRACTIONS.length);
  let c = 0;
  for (const ch of channels) for (const f of CONTEXT_FRACTIONS) context[c++] = ch[Math.round(f * end)];
  const out = new Float32Array(rows.length * FEATURE_COUNT);
  let k = 0;
  for (const i of rows) {
    for (const ch of channels) {
      for (const off of WINDOW_OFFSETS_S) out[k++] = ch[Math.min(end, Math.max(0, i + off))];
    }
    for (let j = 0; j < context.length; j++) out[k++] = context[j];
    out[k++] = end > 0 ? i / end : 0;
    out[k++] = (end - i) / TIME_SCALE_S;
  }
  return out;
}
