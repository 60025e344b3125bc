/**
 * Puts a recording's five gas channels on one 1-Hz grid, cleaned and smoothed, and finds the end
 * of the incremental part (the 30-s VO2 peak). Both engines and the training script start here, so
 * the model sees at run time exactly what it saw in training. Oxynet (Zignoli et al. 2019, 2022)
 * resamples VO2, VCO2, VE, PetO2 and PetCO2 to 1 s the same way.
 */
import type { ChannelName, Recording } from '../../src/recording/recording.js';
import type { AveragedRows, BreathDespiking } from './card.js';
import { resampleUniform } from '../../src/signal/resample.js';
import { argMax, fillGaps, medianFilter, movingMean } from './grid-filters.js';
import { hampelFilter } from './hampel.js';

/** The channels every vt engine reads, in model-input order. */
export const VT_CHANNELS = ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'] as const satisfies readonly ChannelName[];

/** Longest stretch without a sample the resampler bridges in breath-by-breath data, s. */
const MAX_BRIDGED_S = 20;
/** In an averaged export, a gap is this many intervals without a sample (one empty bin is bridged). */
const AVERAGED_GAP_INTERVALS = 2;
/** Half-width (s) of the running median that removes cough and swallow breaths. */
const MEDIAN_HALF_S = 7;
/** Half-width (s) of the moving mean applied after the median (a 21-s centred mean). */
export const MEAN_HALF_S = 10;
/** Half-width (s) of the mean used to find the VO2 peak (a 31-s window, as for VO2peak). */
const PEAK_HALF_S = 15;

/** One test on the 1-Hz grid. Index i is time `t0_s + i` seconds from the start of the recording. */
export interface PreparedTest {
  t0_s: number;
  n: number;
  /** Cleaned and smoothed channels, canonical units (mL/min, L/min, mmHg). */
  vo2: Float64Array;
  vco2: Float64Array;
  ve: Float64Array;
  peto2: Float64Array;
  petco2: Float64Array;
  /** Fraction of grid points that held a measured (not gap-filled) value, per channel. */
  coverage: Record<(typeof VT_CHANNELS)[number], number>;
  /** Grid index of the 30-s VO2 peak: the end of the span in which thresholds are sought. */
  end_index: number;
}

/**
 * The recording with its averaged rows where the card's model reads them. Carts stamp a bin's mean at
 * the bin's end: a ParvoMedics TrueOne 15-s binned export carries on each row the time of the breath
 * that closes its bin, and its value is the mean of the breaths since the previous row (parvo_binned
 * against parvo_bxb of the same test, analyses/vt/README.md "Averaged exports"). A mean describes the
 * centre of what it averages, so read at its stamp every change arrives half a bin late (15 s at 30-s
 * bins); `interval_centre` moves each row back by half the averaging window. Breath-by-breath data
 * and a series interpolated to 1 Hz upstream (pyoxynet's CSV: instants, not bin means) stay as they are.
 */
export function placeAveragedRows(rec: Recording, how: AveragedRows): Recording {
  const window = rec.sampling.averaging_s ?? rec.sampling.raw_interval_s;
  if (how === 'as_stamped' || rec.sampling.method !== 'averaged' || !window || rec.flags.some((f) => f.code === 'interpolated_upstream')) return rec;
  return { ...rec, t_s: rec.t_s.map((t) => t - window / 2) };
}

/** Resamples, fills, de-spikes (as the card's `breath_despiking` says) and smooths the five channels; the recording must hold all five. */
export function prepareTest(rec: Recording, despiking: BreathDespiking = 'running_median'): PreparedTest {
  const despike = despiking === 'hampel' ? hampelFilter : medianFilter;
  const t = rec.t_s;
  const t0 = Math.ceil(t[0]);
  const tEnd = Math.floor(t[t.length - 1]);
  // A 30-s averaged export's samples are 30 s apart by design: a gap is two intervals without a sample, not 20 s.
  const interval = rec.sampling.method === 'averaged' ? (rec.sampling.raw_interval_s ?? 0) : 0;
  const maxGap = Math.max(MAX_BRIDGED_S, AVERAGED_GAP_INTERVALS * interval);
  const series = {} as Record<(typeof VT_CHANNELS)[number], Float64Array>;
  const coverage = {} as PreparedTest['coverage'];
  for (const name of VT_CHANNELS) {
    const values = rec.channels[name]?.values ?? [];
    // Gaps longer than 20 s (or than two intervals of an averaged export) are not bridged by the resampler, so coverage counts them as missing.
    const grid = resampleUniform(t, values, 1, { t0_s: t0, t_end_s: tEnd, maxGapS: maxGap });
    let valid = 0;
    for (const v of grid.values) if (Number.isFinite(v)) valid++;
    coverage[name] = grid.values.length ? valid / grid.values.length : 0;
    series[name] = movingMean(despike(fillGaps(grid.values), MEDIAN_HALF_S), MEAN_HALF_S);
  }
  const n = series.VO2.length;
  const peakCurve = movingMean(series.VO2, PEAK_HALF_S);
  return {
    t0_s: t0,
    n,
    vo2: series.VO2,
    vco2: series.VCO2,
    ve: series.VE,
    peto2: series.PetO2,
    petco2: series.PetCO2,
    coverage,
    end_index: n > 0 ? argMax(peakCurve) : 0,
  };
}
