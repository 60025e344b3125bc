/**
 * `gas_quality`: the plausibility checks the recording's channels allow. A check that cannot run
 * (channel absent, record too short) is counted in neither n_checks nor n_passed.
 */
import type { ChannelName, Recording } from '../../recording/recording.js';
import { channel } from '../../recording/recording.js';
import { bandCoupling, type BandCoupling, SEGMENT_S } from '../../signal/cross-spectrum.js';
import type { MetricEntry } from '../metric-entry.js';
import { ok, round, unavailable } from '../result.js';

/** Periods over which the gases are compared, s: breathing-pattern and EOV time scales. */
const PERIOD_MIN_S = 20;
const PERIOD_MAX_S = 200;
/** Coupling rules (chosen): coherent above 0.5, in phase (or in antiphase) within 45 degrees. */
const MIN_COHERENCE = 0.5;
const MAX_PHASE_ERROR_DEG = 45;
/** Share of samples allowed outside the physiological range before the check fails. */
const MAX_OUT_OF_RANGE = 0.05;

/** Plausible ranges of an adult test, rest to peak (units of the canonical channels). */
const RANGES: Partial<Record<ChannelName, [number, number]>> = {
  VO2: [100, 7000],
  VCO2: [80, 8500],
  VE: [3, 250],
  PetO2: [60, 135],
  PetCO2: [15, 65],
  HR: [30, 230],
};
/** RER of a test, rest to recovery overshoot; beyond is a leak or a calibration fault. */
const RER_RANGE: [number, number] = [0.6, 1.6];

interface Check {
  name: string;
  ran: boolean;
  passed: boolean;
  detail: string;
}

function coupling(rec: Recording, a: ChannelName, b: ChannelName): BandCoupling | null | 'absent' {
  const va = channel(rec, a);
  const vb = channel(rec, b);
  if (!va || !vb) return 'absent';
  return bandCoupling(rec.t_s, va, vb, PERIOD_MIN_S, PERIOD_MAX_S);
}

/** Phase distance from a target angle, degrees 0..180. */
function phaseError(phase_deg: number, target_deg: number): number {
  const d = Math.abs(((((phase_deg - target_deg) % 360) + 540) % 360) - 180);
  return d;
}

function couplingCheck(rec: Recording, name: string, a: ChannelName, b: ChannelName, target_deg: number, what: string): { check: Check; coherence: number | null; phase_error: number | null } {
  const c = coupling(rec, a, b);
  if (c === 'absent') return { check: { name, ran: false, passed: false, detail: `needs ${a} and ${b}` }, coherence: null, phase_error: null };
  if (c === null) {
    return {
      check: { name, ran: false, passed: false, detail: `needs at least three gap-free ${SEGMENT_S}-s stretches of ${a} and ${b}` },
      coherence: null,
      phase_error: null,
    };
  }
  const err = phaseError(c.phase_deg, target_deg);
  const passed = c.coherence >= MIN_COHERENCE && err <= MAX_PHASE_ERROR_DEG;
  return {
    check: {
      name,
      ran: true,
      passed,
      detail: `${b} against ${a} over ${PERIOD_MIN_S}-${PERIOD_MAX_S} s periods: coherence ${c.coherence.toFixed(2)}, ${err.toFixed(0)} degrees from ${what} (needs >= ${MIN_COHERENCE} and <= ${MAX_PHASE_ERROR_DEG})`,
    },
    coherence: round(c.coherence, 3),
    phase_error: round(err, 1),
  };
}

function rangeCheck(rec: Recording): Check {
  const present = (Object.keys(RANGES) as ChannelName[]).filter((c) => channel(rec, c));
  if (present.length === 0) return { name: 'physiological_ranges', ran: false, passed: false, detail: 'no gas or heart-rate channel' };
  const bad: string[] = [];
  for (const c of present) {
    const [lo, hi] = RANGES[c]!;
    let n = 0;
    let out = 0;
    for (const v of channel(rec, c)!) {
      if (v === null || !Number.isFinite(v)) continue;
      n++;
      if (v < lo || v > hi) out++;
    }
    if (n > 0 && out / n > MAX_OUT_OF_RANGE) bad.push(`${c} ${Math.round((100 * out) / n)} % outside ${lo}-${hi}`);
  }
  return {
    name: 'physiological_ranges',
    ran: true,
    passed: bad.length === 0,
    detail: bad.length ? bad.join('; ') : `${present.join(', ')} within adult ranges (at most ${MAX_OUT_OF_RANGE * 100} % of samples outside)`,
  };
}

function rerCheck(rec: Recording): Check {
  const vo2 = channel(rec, 'VO2');
  const vco2 = channel(rec, 'VCO2');
  if (!vo2 || !vco2) return { name: 'rer_range', ran: false, passed: false, detail: 'needs VO2 and VCO2' };
  let n = 0;
  let out = 0;
  for (let i = 0; i < rec.t_s.length; i++) {
    const a = vo2[i];
    const b = vco2[i];
    if (a === null || b === null || !(a > 0) || !Number.isFinite(b)) continue;
    n++;
    const r = b / a;
    if (r < RER_RANGE[0] || r > RER_RANGE[1]) out++;
  }
  if (n === 0) return { name: 'rer_range', ran: false, passed: false, detail: 'no sample holds both VO2 and VCO2' };
  const share = out / n;
  return {
    name: 'rer_range',
    ran: true,
    passed: share <= MAX_OUT_OF_RANGE,
    detail: `${(100 * share).toFixed(1)} % of samples have VCO2/VO2 outside ${RER_RANGE[0]}-${RER_RANGE[1]} (at most ${MAX_OUT_OF_RANGE * 100} % allowed)`,
  };
}

/** The `gas_quality` entry. */
export const gasQuality: MetricEntry = {
  name: 'gas_quality',
  returns:
    '{verdict ("good" | "fair" | "poor"), n_checks, n_passed, vco2_coherence, vco2_phase_error_deg, closure_coherence, closure_phase_error_deg, checks, note}: checks are vco2_follows_ve, petco2_opposes_peto2, physiological_ranges and rer_range, each {name, ran, passed, detail}; a figure is null when its check could not run.',
  unit: null,
  requires: [],
  min_duration_s: 0,
  notes: `n_checks counts only the checks the channels allow; an absent check is not a passed check. VCO2 should follow VE (coherent, in phase) and PetCO2 oppose PetO2 (coherent, in antiphase) over ${PERIOD_MIN_S}-${PERIOD_MAX_S} s periods (Welch cross-spectrum, ${SEGMENT_S}-s segments; the 0.5 and 45-degree cut-offs are ours). good: all passed; fair: one failed; poor: more than one failed.`,
  compute(rec) {
    const follow = couplingCheck(rec, 'vco2_follows_ve', 'VE', 'VCO2', 0, 'in phase');
    const closure = couplingCheck(rec, 'petco2_opposes_peto2', 'PetO2', 'PetCO2', 180, 'antiphase');
    const checks = [follow.check, closure.check, rangeCheck(rec), rerCheck(rec)];
    const ran = checks.filter((c) => c.ran);
    if (ran.length === 0) {
      return unavailable('MISSING_CHANNEL', 'gas_quality: no check can run; the recording has none of VO2, VCO2, VE, PetO2, PetCO2 or HR.', {
        required: ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2', 'HR'],
        missing: ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2', 'HR'],
      });
    }
    const passed = ran.filter((c) => c.passed);
    const failed = ran.length - passed.length;
    const verdict = failed === 0 ? 'good' : failed === 1 ? 'fair' : 'poor';
    const skipped = checks.filter((c) => !c.ran).map((c) => `${c.name} (${c.detail})`);
    const failedNames = ran.filter((c) => !c.passed).map((c) => c.name);
    let note = `${passed.length} of ${ran.length} runnable checks passed`;
    if (failedNames.length) note += `; failed: ${failedNames.join(', ')}`;
    if (skipped.length) note += `; not run: ${skipped.join('; ')}`;
    return ok({
      verdict,
      n_checks: ran.length,
      n_passed: passed.length,
      vco2_coherence: follow.coherence,
      vco2_phase_error_deg: follow.phase_error,
      closure_coherence: closure.coherence,
      closure_phase_error_deg: closure.phase_error,
      checks,
      note: `${note}.`,
    });
  },
};
