/**
 * `landmarks`: the classic gas-exchange landmarks of an incremental test, each with its time, VO2
 * and % of VO2peak. They corroborate a threshold model; they never override one.
 */
import type { Recording } from '../../recording/recording.js';
import { channel } from '../../recording/recording.js';
import { type GasBreakpoint, rcpBreakpoint, vSlope } from '../../signal/breakpoints.js';
import { centeredTimeMean } from '../../signal/smooth.js';
import type { MetricEntry } from '../metric-entry.js';
import { phasesOf, type PhaseBoundaries } from '../../signal/phases.js';
import { ok, round, unavailable } from '../result.js';
import { vo2Peak } from '../vo2peak.js';
import { peakWindowS } from './peak-window.js';

/** Smoothing of the curves whose extremes are landmarks, s (the VO2peak window). */
const LANDMARK_SMOOTHING_S = 30;
/** The first minute of exercise is skipped for extremes: kinetics, not thresholds, move the ratios there. */
const SKIP_START_S = 60;
/** RER must stay at or above 1.0 this long for a crossing to count, s. */
const RER_HOLD_S = 30;

type Point = { t_s: number | null; vo2: number | null; pct_vo2peak: number | null } & Record<string, unknown>;

interface Context {
  rec: Recording;
  phases: PhaseBoundaries;
  vo2Smooth: Float64Array;
  vo2peak: number;
}

/** The point at sample i: time, 30-s VO2 and % of VO2peak, plus extra fields. */
function pointAt(c: Context, t_s: number, vo2: number, extra: Record<string, unknown> = {}): Point {
  return { t_s: round(t_s, 1), vo2: round(vo2, 1), pct_vo2peak: round((100 * vo2) / c.vo2peak, 1), ...extra };
}

/** Indices of exercise samples from `skip_s` after its start. */
function exerciseIndices(c: Context, skip_s: number): number[] {
  const out: number[] = [];
  const { t_start_s, t_end_s } = c.phases.exercise;
  for (let i = 0; i < c.rec.t_s.length; i++) {
    const t = c.rec.t_s[i];
    if (t >= t_start_s + skip_s && t <= t_end_s) out.push(i);
  }
  return out;
}

function breakpointPoint(c: Context, b: GasBreakpoint | null, what: string): Point | string {
  if (!b) return `${what}: too few exercise samples for a two-line fit`;
  if (!b.accepted) return `${what}: ${b.reason}`;
  if (!Number.isFinite(b.vo2_ml_min)) return `${what}: no VO2 at the break`;
  return pointAt(c, b.t_s, b.vo2_ml_min, { slope_before: round(b.slope_before, 3), slope_after: round(b.slope_after, 3) });
}

function rerCrossing(c: Context): Point | string {
  const vo2 = c.vo2Smooth;
  const vco2 = centeredTimeMean(c.rec.t_s, channel(c.rec, 'VCO2') ?? [], LANDMARK_SMOOTHING_S);
  const idx = exerciseIndices(c, 0);
  const rer = (i: number) => vco2[i] / vo2[i];
  const early = idx.filter((i) => c.rec.t_s[i] <= c.phases.exercise.t_start_s + SKIP_START_S && Number.isFinite(rer(i)));
  if (early.length && early.every((i) => rer(i) >= 1)) return 'RER is already at or above 1.0 at the start of exercise (hyperventilation or a short warm-up), so no crossing can be placed';
  // The next exercise sample below 1.0 after each one, from the end, so the hold test is O(1).
  const nextBelow = new Int32Array(idx.length + 1).fill(idx.length);
  for (let k = idx.length - 1; k >= 0; k--) nextBelow[k] = rer(idx[k]) < 1 ? k : nextBelow[k + 1];
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k];
    if (!(rer(i) >= 1) || c.rec.t_s[i] < c.phases.exercise.t_start_s + SKIP_START_S) continue;
    const below = nextBelow[k + 1];
    if (below === idx.length || c.rec.t_s[idx[below]] > c.rec.t_s[i] + RER_HOLD_S) return pointAt(c, c.rec.t_s[i], vo2[i], { rer: round(rer(i), 3) });
  }
  return 'RER never stays at or above 1.0 during exercise';
}

function veVco2Nadir(c: Context): Point | string {
  const ve = channel(c.rec, 'VE');
  if (!ve) return 'needs VE, which this recording does not have';
  const veS = centeredTimeMean(c.rec.t_s, ve, LANDMARK_SMOOTHING_S);
  const co2S = centeredTimeMean(c.rec.t_s, channel(c.rec, 'VCO2') ?? [], LANDMARK_SMOOTHING_S);
  let best = -1;
  let bestV = Number.POSITIVE_INFINITY;
  for (const i of exerciseIndices(c, SKIP_START_S)) {
    const r = veS[i] / (co2S[i] / 1000);
    if (Number.isFinite(r) && r < bestV) {
      bestV = r;
      best = i;
    }
  }
  if (best < 0) return 'no exercise samples with VE and VCO2 after the first minute';
  return pointAt(c, c.rec.t_s[best], c.vo2Smooth[best], { ve_vco2: round(bestV, 2) });
}

function petco2Peak(c: Context): Point | string {
  const pet = channel(c.rec, 'PetCO2');
  if (!pet) return 'needs PetCO2, which this recording does not have';
  const s = centeredTimeMean(c.rec.t_s, pet, LANDMARK_SMOOTHING_S);
  let best = -1;
  for (const i of exerciseIndices(c, SKIP_START_S)) if (Number.isFinite(s[i]) && (best < 0 || s[i] > s[best])) best = i;
  if (best < 0) return 'no exercise samples with PetCO2 after the first minute';
  return pointAt(c, c.rec.t_s[best], c.vo2Smooth[best], { petco2_mmhg: round(s[best], 1) });
}

/** The `landmarks` entry. */
export const landmarks: MetricEntry = {
  name: 'landmarks',
  returns:
    '{vo2peak, vo2peak_window_s, points, not_found, reading}: points keyed vo2peak_30s, v_slope_breakpoint, rcp_breakpoint, rer_crossing_1.0, ve_vco2_nadir, petco2_peak, each {t_s, vo2 (30-s mean, mL/min), pct_vo2peak} (the breakpoints add slope_before and slope_after); not_found gives the reason for each landmark that could not be placed.',
  unit: 'mL/min',
  requires: ['VO2', 'VCO2'],
  min_duration_s: 180,
  notes:
    'V-slope: Beaver, Wasserman, Whipp 1986 (VCO2 on VO2, first 60 s dropped, two-line fit, slope rise > 0.1, upper slope > 1 after Sue 1988). Respiratory compensation: the same fit of VE on VCO2. VE/VCO2 nadir and PetCO2 peak sit near VT2 and between the thresholds (Wasserman). Landmarks corroborate a threshold model; they never override it (Gaskill 2001: methods combined beat any one).',
  compute(rec) {
    const phases = phasesOf(rec);
    if (!phases) return unavailable('INSUFFICIENT_SIGNAL', 'landmarks: no exercise phase could be found, and every landmark is an exercise landmark.', { needs: 'an exercise phase' });
    const vo2 = channel(rec, 'VO2') ?? [];
    // The service's one VO2peak, the same as vo2max.
    const peak = vo2Peak(rec);
    if (!peak) return unavailable('INSUFFICIENT_SIGNAL', 'landmarks: no 30-s window holds enough VO2 samples for a VO2peak.', { window_s: peakWindowS(rec) });
    const c: Context = { rec, phases, vo2Smooth: centeredTimeMean(rec.t_s, vo2, LANDMARK_SMOOTHING_S), vo2peak: peak.value };
    const bouts = phases.exercise_bouts ?? 1;
    const rcp = bouts === 1 ? rcpBreakpoint(rec, phases) : null;
    const interval = `an interval test (${bouts} exercise bouts): the breakpoints of an incremental test do not apply`;
    const found: Record<string, Point | string> = {
      vo2peak_30s: pointAt(c, (peak.t_start_s + peak.t_end_s) / 2, peak.value),
      v_slope_breakpoint: bouts > 1 ? interval : breakpointPoint(c, vSlope(rec, phases, rcp), 'V-slope'),
      rcp_breakpoint: bouts > 1 ? interval : channel(rec, 'VE') ? breakpointPoint(c, rcp, 'respiratory compensation') : 'needs VE, which this recording does not have',
      'rer_crossing_1.0': rerCrossing(c),
      ve_vco2_nadir: veVco2Nadir(c),
      petco2_peak: petco2Peak(c),
    };
    const points: Record<string, Point> = {};
    const notFound: Record<string, string> = {};
    for (const [name, p] of Object.entries(found)) {
      if (typeof p === 'string') notFound[name] = p;
      else points[name] = p;
    }
    return ok({
      vo2peak: round(peak.value, 1),
      vo2peak_window_s: peak.window_s,
      points,
      not_found: notFound,
      reading: `Landmarks corroborate a threshold model and never override it. Exercise from ${phases.method} (boundaries within about ${phases.expected_error_s} s); VO2 at each point is the ${LANDMARK_SMOOTHING_S}-s centred mean.`,
    });
  },
};
