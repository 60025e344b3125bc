/**
 * Peak metrics over a 30-s window of the whole record: `vo2max`, `vemax`, `rermax` and `o2_pulse`
 * (VO2 / HR in the VO2 peak window). Never cropped to a detected phase, whose boundaries carry tens
 * of seconds of error; the window's time and phase travel in `detail`.
 */
import type { ChannelName, Recording } from '../../recording/recording.js';
import { channel } from '../../recording/recording.js';
import { phasesOf } from '../../signal/phases.js';
import { describeImplausibleHeartRate, heartRatePlausibility, type HeartRateFlag } from '../../signal/heart-rate-plausibility.js';
import { applyAveraging, isDefaultAveraging, type AveragedSeries, type AveragingSpec } from '../../signal/averaging/index.js';
import type { MetricEntry, MetricResult } from '../metric-entry.js';
import { cleaned } from '../cleaned.js';
import { ok, round, unavailable } from '../result.js';

/** VO2peak is the highest 30-s mean over the whole record (design section 7; ATS/ACCP 2003). */
export const PEAK_WINDOW_S = 30;

/** One window's mean (or ratio of sums) and where it sits. */
export interface PeakWindow {
  value: number;
  window_s: number;
  t_start_s: number;
  t_end_s: number;
  n: number;
  /** Time of the averaged point that is the peak (non-default averagings; a window's end otherwise). */
  at_s?: number;
}

/**
 * Window length for this sampling: 30 s, or the smallest multiple of an averaging interval that
 * reaches 30 s (a 60-s average is one sample; 20-s averages give 40 s).
 */
export function peakWindowS(rec: Recording): number {
  const step = rec.sampling.method === 'averaged' ? (rec.sampling.averaging_s ?? rec.sampling.raw_interval_s ?? 0) : 0;
  return step > 0 ? step * Math.ceil(PEAK_WINDOW_S / step - 1e-9) : PEAK_WINDOW_S;
}

/**
 * Highest window of sum(a) / sum(b) over windows (t - W, t] ending at each sample, counting only
 * samples where both are finite (b = null gives the plain mean of a). A window must hold data over
 * at least half its length (or half its expected samples for averaged exports); null when none does.
 */
export function peakWindow(rec: Recording, a: readonly (number | null)[], b: readonly (number | null)[] | null, window_s: number): PeakWindow | null {
  const t = rec.t_s;
  const step = rec.sampling.method === 'averaged' ? (rec.sampling.averaging_s ?? rec.sampling.raw_interval_s ?? 0) : 0;
  const minCount = step > 0 ? Math.max(1, Math.round(window_s / step / 2)) : 2;
  const valid = (i: number) => {
    const x = a[i];
    const y = b ? b[i] : 1;
    return x !== null && y !== null && Number.isFinite(x) && Number.isFinite(y);
  };
  let lo = 0;
  let sumA = 0;
  let sumB = 0;
  let count = 0;
  let best: PeakWindow | null = null;
  for (let i = 0; i < t.length; i++) {
    if (valid(i)) {
      sumA += a[i] as number;
      sumB += b ? (b[i] as number) : 1;
      count++;
    }
    while (t[lo] <= t[i] - window_s) {
      if (valid(lo)) {
        sumA -= a[lo] as number;
        sumB -= b ? (b[lo] as number) : 1;
        count--;
      }
      lo++;
    }
    if (count < minCount || sumB <= 0 || !valid(i)) continue;
    let first = lo;
    while (!valid(first)) first++;
    if (step === 0 && t[i] - t[first] < window_s / 2) continue;
    const value = sumA / sumB;
    if (!best || value > best.value) best = { value, window_s, t_start_s: Math.max(t[i] - window_s, t[0]), t_end_s: t[i], n: count };
  }
  return best;
}

/** The averaging interval of an averaged export (0 for breath-by-breath or unknown sampling). */
function exportStep(rec: Recording): number {
  return rec.sampling.method === 'averaged' ? (rec.sampling.averaging_s ?? rec.sampling.raw_interval_s ?? 0) : 0;
}

/**
 * The peak of a (b = null) or of a / b under an averaging: the default gives `peakWindow` exactly; any
 * other averages a and b over the samples where both are valid and takes the highest ratio of the two.
 */
export function peakAveraged(rec: Recording, a: readonly (number | null)[], b: readonly (number | null)[] | null, spec: AveragingSpec): PeakWindow | null {
  if (isDefaultAveraging(spec)) return peakWindow(rec, a, b, peakWindowS(rec));
  const both = (i: number) => a[i] !== null && Number.isFinite(a[i]) && (!b || (b[i] !== null && Number.isFinite(b[i])));
  const av = applyAveraging(
    rec.t_s,
    a.map((v, i) => (both(i) ? v : null)),
    spec,
    exportStep(rec),
  );
  const bv = b
    ? applyAveraging(
        rec.t_s,
        b.map((v, i) => (both(i) ? v : null)),
        spec,
        exportStep(rec),
      )
    : null;
  const k = highest(av, bv);
  if (k < 0) return null;
  return { value: ratioAt(av, bv, k) as number, window_s: av.t_end_s[k] - av.t_start_s[k], t_start_s: av.t_start_s[k], t_end_s: av.t_end_s[k], n: av.n[k], at_s: av.t_s[k] };
}

function ratioAt(a: AveragedSeries, b: AveragedSeries | null, k: number): number | null {
  const x = a.values[k];
  if (x === null) return null;
  if (!b) return x;
  const y = b.values[k];
  return y === null || !(y > 0) ? null : x / y;
}

/** Index of the highest averaged point (first of equals), -1 when none is valid. */
function highest(a: AveragedSeries, b: AveragedSeries | null): number {
  let best = -1;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < a.values.length; k++) {
    const v = ratioAt(a, b, k);
    if (v !== null && v > bestValue) {
      best = k;
      bestValue = v;
    }
  }
  return best;
}

/** Which detected phase holds the middle of a window (null when phases cannot be found). */
function phaseAt(rec: Recording, t_s: number): string | null {
  const p = phasesOf(rec);
  if (!p) return null;
  for (const name of ['rest', 'warmup', 'exercise', 'recovery'] as const) {
    const span = p[name];
    if (span && t_s >= span.t_start_s && t_s <= span.t_end_s) return name;
  }
  return null;
}

function windowDetail(rec: Recording, w: PeakWindow, averaging: AveragingSpec): Record<string, unknown> {
  return {
    window_s: round(w.window_s, 1),
    t_start_s: round(w.t_start_s, 1),
    t_end_s: round(w.t_end_s, 1),
    n_samples: w.n,
    phase: phaseAt(rec, (w.t_start_s + w.t_end_s) / 2),
    averaging: { ...averaging, default: isDefaultAveraging(averaging) },
  };
}

function noWindow(rec: Recording, name: string, channels: string, averaging: AveragingSpec): MetricResult {
  if (isDefaultAveraging(averaging)) {
    const window_s = peakWindowS(rec);
    return unavailable('INSUFFICIENT_SIGNAL', `${name}: no ${window_s}-s window holds enough valid ${channels} samples.`, { window_s, averaging });
  }
  return unavailable('INSUFFICIENT_SIGNAL', `${name}: no window of the requested averaging holds enough valid ${channels} samples.`, { averaging });
}

function peakMeanEntry(name: string, ch: ChannelName, unit: string, digits: number, label: string, notes: string): MetricEntry {
  return {
    name,
    returns: `Highest ${PEAK_WINDOW_S}-s mean of ${label} over the whole recording: value is a number in ${unit}; detail gives the window (window_s, t_start_s, t_end_s) and the phase it falls in.`,
    unit,
    requires: [ch],
    min_duration_s: PEAK_WINDOW_S,
    notes: `${notes} Breaths more than 4 SD from their neighbours (coughs, swallows) are left out first (Lamarra 1987).`,
    compute(rec, options) {
      const w = peakAveraged(rec, cleaned(rec, ch), null, options.averaging);
      if (!w) return noWindow(rec, name, ch, options.averaging);
      return ok(round(w.value, digits), windowDetail(rec, w, options.averaging));
    },
  };
}

/** `vo2max`: highest 30-s mean VO2, mL/min. */
export const vo2max = peakMeanEntry(
  'vo2max',
  'VO2',
  'mL/min',
  1,
  'VO2',
  'Peak oxygen uptake of this test over the whole record, never cropped to a detected phase; a plateau is not checked, so it is VO2peak, not proof of a true maximum. On averaged exports the window is the smallest multiple of the averaging interval reaching 30 s.',
);

/** `vemax`: highest 30-s mean VE, L/min. */
export const vemax = peakMeanEntry(
  'vemax',
  'VE',
  'L/min',
  2,
  'minute ventilation (VE)',
  'Peak ventilation over the whole record, including recovery; compare it with the breathing reserve (maximal voluntary ventilation) measured separately.',
);

/** `rermax`: highest 30-s VCO2 / VO2, from the gases (never the file's RER column). */
export const rermax: MetricEntry = {
  name: 'rermax',
  returns: `Highest ${PEAK_WINDOW_S}-s respiratory exchange ratio (sum of VCO2 over sum of VO2 in the window) over the whole recording: value is a number; detail gives the window and the phase it falls in.`,
  unit: 'ratio',
  requires: ['VO2', 'VCO2'],
  min_duration_s: PEAK_WINDOW_S,
  notes:
    'Computed from VCO2 and VO2, never from an RER column. Over the whole record, so an early-recovery overshoot (CO2 washed out after exercise) can be the peak: detail.phase says where it fell. A peak exercise RER of 1.10 or more is the usual sign of maximal effort.',
  compute(rec, options) {
    const w = peakAveraged(rec, cleaned(rec, 'VCO2'), cleaned(rec, 'VO2'), options.averaging);
    if (!w) return noWindow(rec, 'rermax', 'VO2 and VCO2', options.averaging);
    return ok(round(w.value, 3), windowDetail(rec, w, options.averaging));
  },
};

/**
 * A measured heart rate climbs by tens of beats over a test and tracks VO2 closely (HR rises
 * linearly with VO2; Astrand 1954). Less range, or a weak correlation, is a fixed or stuck entry.
 */
const MIN_HR_SPREAD_BPM = 10;
const MIN_HR_VO2_CORRELATION = 0.3;

/** Range (10th to 90th percentile) of HR and its correlation with VO2 over samples holding both. */
function hrTracking(hr: readonly (number | null)[], vo2: readonly (number | null)[]): { range_bpm: number; r: number } {
  const hs: number[] = [];
  const vs: number[] = [];
  for (let i = 0; i < hr.length; i++) {
    const h = hr[i];
    const v = vo2[i];
    if (h === null || v === null || !Number.isFinite(h) || !Number.isFinite(v) || h <= 0) continue;
    hs.push(h);
    vs.push(v);
  }
  if (hs.length < 3) return { range_bpm: 0, r: Number.NaN };
  const sorted = [...hs].sort((a, b) => a - b);
  const range = sorted[Math.floor(0.9 * (sorted.length - 1))] - sorted[Math.floor(0.1 * (sorted.length - 1))];
  const mh = hs.reduce((a, b) => a + b, 0) / hs.length;
  const mv = vs.reduce((a, b) => a + b, 0) / vs.length;
  let shv = 0;
  let shh = 0;
  let svv = 0;
  for (let i = 0; i < hs.length; i++) {
    shv += (hs[i] - mh) * (vs[i] - mv);
    shh += (hs[i] - mh) ** 2;
    svv += (vs[i] - mv) ** 2;
  }
  return { range_bpm: range, r: shh > 0 && svv > 0 ? shv / Math.sqrt(shh * svv) : Number.NaN };
}

/** `o2_pulse`: VO2 / HR in the VO2 peak window, mL/beat. */
export const o2Pulse: MetricEntry = {
  name: 'o2_pulse',
  returns: `Oxygen pulse at peak: mean VO2 over mean HR in the ${PEAK_WINDOW_S}-s VO2 peak window: value is a number in mL/beat; detail gives the window, its VO2 and HR.`,
  unit: 'mL/beat',
  requires: ['VO2', 'HR'],
  min_duration_s: PEAK_WINDOW_S,
  notes:
    'O2 pulse = VO2 / HR at peak (Wasserman): a surrogate of stroke volume times the arteriovenous O2 difference. Beta blockers raise it by lowering HR. Physiologically implausible heart-rate samples (outside 30-230 beats/min, or jumping by more than 40 beats/min within 2 s; src/signal/heart-rate-plausibility.ts) are left out, and detail says how many. Refused when HR does not track VO2 over the test (a stuck or fixed entry).',
  compute(rec, options) {
    const vo2 = cleaned(rec, 'VO2');
    const measured = channel(rec, 'HR') ?? [];
    const plausibility = heartRatePlausibility(rec.t_s, measured);
    const hr = measured.map((h, i) => (plausibility.flags[i] ? null : h));
    const w = peakAveraged(rec, vo2, null, options.averaging);
    if (!w) return noWindow(rec, 'o2_pulse', 'VO2', options.averaging);
    const inWindow = isDefaultAveraging(options.averaging) ? hrInWindow(rec, hr, w, plausibility.flags) : hrAveragedAt(rec, hr, options.averaging, w.at_s ?? w.t_end_s);
    if ('status' in inWindow) return inWindow;
    const track = hrTracking(hr, vo2);
    if (track.range_bpm < MIN_HR_SPREAD_BPM || !(track.r >= MIN_HR_VO2_CORRELATION)) {
      return unavailable(
        'INSUFFICIENT_SIGNAL',
        `o2_pulse: heart rate does not follow the test (range ${round(track.range_bpm, 1)} beats/min, correlation with VO2 ${Number.isFinite(track.r) ? track.r.toFixed(2) : 'undefined'}); a stuck or fixed heart rate would give a meaningless O2 pulse.`,
        { hr_range_bpm: round(track.range_bpm, 1), hr_vo2_correlation: round(track.r, 3), min_range_bpm: MIN_HR_SPREAD_BPM, min_correlation: MIN_HR_VO2_CORRELATION },
      );
    }
    const detail: Record<string, unknown> = { ...windowDetail(rec, w, options.averaging), vo2_ml_min: round(w.value, 1), hr_bpm: round(inWindow.hr_bpm, 1) };
    if (plausibility.implausible > 0) {
      detail.hr_implausible_samples = plausibility.implausible;
      if (inWindow.implausible !== undefined) detail.hr_implausible_in_window = inWindow.implausible;
      detail.hr_note = `${describeImplausibleHeartRate(plausibility)}; they are left out of this O2 pulse.`;
    }
    return ok(round(w.value / inWindow.hr_bpm, 2), detail);
  },
};

/** HR at the VO2 peak, with how many implausible samples the window held where that is known. */
interface PeakHeartRate {
  hr_bpm: number;
  implausible?: number;
}

/** Mean plausible HR over the VO2 peak window, or a refusal when HR is missing or implausible for most of it. */
function hrInWindow(rec: Recording, hr: readonly (number | null)[], w: PeakWindow, implausibleFlags: readonly (HeartRateFlag | null)[]): PeakHeartRate | MetricResult {
  let sumHr = 0;
  let nHr = 0;
  let nAll = 0;
  let nImplausible = 0;
  for (let i = 0; i < rec.t_s.length; i++) {
    const t = rec.t_s[i];
    if (t <= w.t_end_s - w.window_s || t > w.t_end_s) continue;
    nAll++;
    if (implausibleFlags[i]) nImplausible++;
    const h = hr[i];
    if (h !== null && Number.isFinite(h) && h > 0) {
      sumHr += h;
      nHr++;
    }
  }
  if (nHr === 0 || nHr < nAll / 2) {
    const why = nImplausible > 0 ? `missing or physiologically implausible (${nImplausible} implausible)` : 'missing';
    return unavailable('INSUFFICIENT_SIGNAL', `o2_pulse: heart rate is ${why} for most of the VO2 peak window (${nHr} of ${nAll} samples usable).`, {
      window_s: w.window_s,
      t_end_s: round(w.t_end_s, 1),
      hr_samples: nHr,
      samples: nAll,
      hr_implausible_samples: nImplausible,
    });
  }
  return { hr_bpm: sumHr / nHr, implausible: nImplausible };
}

/** HR under the same averaging, at the averaged point nearest the VO2 peak. */
function hrAveragedAt(rec: Recording, hr: readonly (number | null)[], spec: AveragingSpec, at_s: number): PeakHeartRate | MetricResult {
  const avg = applyAveraging(
    rec.t_s,
    hr.map((h) => (h !== null && h > 0 ? h : null)),
    spec,
    exportStep(rec),
  );
  let best = -1;
  for (let k = 0; k < avg.t_s.length; k++) if (best < 0 || Math.abs(avg.t_s[k] - at_s) < Math.abs(avg.t_s[best] - at_s)) best = k;
  const v = best >= 0 ? avg.values[best] : null;
  if (v === null || Math.abs(avg.t_s[best] - at_s) > 1) {
    return unavailable('INSUFFICIENT_SIGNAL', 'o2_pulse: heart rate under the requested averaging is missing at the VO2 peak.', { at_s: round(at_s, 1), averaging: spec });
  }
  return { hr_bpm: v };
}
