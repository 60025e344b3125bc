/**
 * What EOV needs before any wavelet runs (spec section 8): VE and PetCO2, each with at least 80 %
 * coverage, over at least 128 s of usable data, at a sampling that resolves part of the graded band.
 * Each unmet need becomes the spec's refusal code with a context that says what would have worked.
 */
import type { RefusalCode } from '../../src/errors.js';
import { coverage, type Recording } from '../../src/recording/recording.js';
import { oscillationBand, GRADED_PERIOD_MIN_S, type OscillationBand } from '../../src/signal/oscillation-band.js';

/** Channels EOV cannot run without (PetCO2 corroborates; VE alone is never analysed). */
export const REQUIRED_CHANNELS = ['VE', 'PetCO2'] as const;
/** Coverage below which VE or PetCO2 cannot carry the analysis (spec section 8). */
export const MIN_COVERAGE = 0.8;
/** Shortest usable span (spec section 8). */
export const MIN_USABLE_S = 128;
/** A break between valid samples longer than this (or 2.5 sampling intervals, if longer) is a gap. */
export const MAX_GAP_S = 30;

/** The gap threshold for a recording whose samples are `interval_s` apart. */
export function maxGapFor(interval_s: number): number {
  return Math.max(MAX_GAP_S, 2.5 * interval_s);
}

/** A refusal in the spec's shape (section 7). */
export interface Refusal {
  error: RefusalCode;
  message: string;
  context: Record<string, unknown>;
}

/** What the analysis runs on once the preconditions hold. */
export interface Admitted {
  /** Interval the band is judged at: the raw interval or the averaging window, whichever is longer, s. */
  sampling_interval_s: number;
  /** Grid spacing: the raw interval, s. */
  grid_dt_s: number;
  band: OscillationBand;
  usable_s: number;
  notes: string[];
}

/** Median spacing of the time stamps, s (0 when fewer than two). */
export function medianInterval(t_s: readonly number[]): number {
  const d: number[] = [];
  for (let i = 1; i < t_s.length; i++) d.push(t_s[i] - t_s[i - 1]);
  if (!d.length) return 0;
  d.sort((a, b) => a - b);
  return d[d.length >> 1];
}

/** Seconds covered by consecutive samples where VE and PetCO2 are both valid, gaps excluded. */
export function usableSeconds(rec: Recording): number {
  const ve = rec.channels.VE?.values ?? [];
  const co2 = rec.channels.PetCO2?.values ?? [];
  const ok = (i: number): boolean => Number.isFinite(ve[i] ?? Number.NaN) && Number.isFinite(co2[i] ?? Number.NaN);
  const maxGap = maxGapFor(medianInterval(rec.t_s));
  let total = 0;
  for (let i = 1; i < rec.t_s.length; i++) {
    const dt = rec.t_s[i] - rec.t_s[i - 1];
    if (ok(i) && ok(i - 1) && dt <= maxGap) total += dt;
  }
  return total;
}

/** Checks every precondition in the order a user can fix them; a refusal or what to run on. */
export function admit(rec: Recording): Refusal | Admitted {
  const missing = REQUIRED_CHANNELS.filter((c) => rec.channels[c] === undefined);
  if (missing.length) {
    return {
      error: 'MISSING_CHANNEL',
      message: `EOV needs ${REQUIRED_CHANNELS.join(' and ')}; the recording has no ${missing.join(' or ')}. It never runs on VE alone, because end-tidal CO2 is what corroborates an oscillation.`,
      context: { required: [...REQUIRED_CHANNELS], missing, reasons: Object.fromEntries(missing.map((c) => [c, rec.absent[c] ?? 'absent from the file'])) },
    };
  }
  const cov = { VE: coverage(rec, 'VE'), PetCO2: coverage(rec, 'PetCO2') };
  const low = REQUIRED_CHANNELS.filter((c) => cov[c] < MIN_COVERAGE);
  if (low.length) {
    return {
      error: 'NO_USABLE_DATA',
      message: `${low.join(' and ')} ${low.length > 1 ? 'have' : 'has'} less than ${MIN_COVERAGE * 100} % valid samples (${low.map((c) => `${c} ${Math.round(cov[c] * 1000) / 10} %`).join(', ')}).`,
      context: { required_coverage: MIN_COVERAGE, coverage: cov },
    };
  }
  const usable = usableSeconds(rec);
  if (usable < MIN_USABLE_S) {
    return {
      error: 'INSUFFICIENT_DURATION',
      message: `EOV needs at least ${MIN_USABLE_S} s where VE and PetCO2 are both valid; this recording has ${Math.round(usable)} s.`,
      context: { required_s: MIN_USABLE_S, usable_s: Math.round(usable * 10) / 10 },
    };
  }
  const notes: string[] = [];
  let raw = rec.sampling.raw_interval_s;
  if (raw === null || !(raw > 0)) {
    raw = medianInterval(rec.t_s);
    notes.push(`The file does not state its sampling interval; the median spacing of its samples (${round1(raw)} s) was used.`);
  }
  const interval = Math.max(raw, rec.sampling.averaging_s ?? 0);
  const band = oscillationBand(interval);
  if (!band.gradable) {
    return {
      error: 'NO_USABLE_DATA',
      message: `Samples every ${round1(interval)} s resolve only periods of ${band.period_floor_s} s and longer, beyond the ${GRADED_PERIOD_MIN_S}-${band.period_ceiling_s} s band that EOV is graded in; breath-by-breath or averages of ${(band.period_ceiling_s / 4).toFixed(0)} s or less are needed.`,
      context: {
        reason: 'sampling too coarse for the graded band',
        sampling_interval_s: interval,
        period_floor_s: band.period_floor_s,
        period_ceiling_s: band.period_ceiling_s,
        max_interval_s: band.period_ceiling_s / 4,
      },
    };
  }
  if (band.band_narrowed) {
    notes.push(
      `Band narrowed: samples every ${round1(interval)} s resolve periods of ${band.period_floor_s} s and longer only, so oscillations of ${GRADED_PERIOD_MIN_S}-${band.period_floor_s} s cannot be seen or graded.`,
    );
  }
  return { sampling_interval_s: interval, grid_dt_s: raw, band, usable_s: usable, notes };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
