/**
 * `ve_vco2_slope`: least squares of VE (L/min) on VCO2 (L/min) over the first 25, 50, 75 and 100 %
 * of exercise, each with its 95 % confidence interval, n and ventilatory class.
 */
import { channel } from '../../recording/recording.js';
import { linearFit } from '../../signal/stats.js';
import type { MetricEntry } from '../metric-entry.js';
import { phasesOf } from '../../signal/phases.js';
import { ok, round, unavailable } from '../result.js';

/**
 * Breaths are averaged into 10-s bins before the fit: breath noise in VCO2 flattens a least-squares
 * slope (regression dilution), most over the narrow VCO2 range of the first quarter, and breaths
 * are not independent, so a fit over them would claim too narrow an interval.
 */
export const BIN_S = 10;
/** Fewest bins and smallest VCO2 span (L/min) a segment needs before its slope means anything. */
export const MIN_SEGMENT_POINTS = 8;
export const MIN_SEGMENT_VCO2_SPAN_L_MIN = 0.3;

/** Ventilatory classes of the VE/VCO2 slope (Arena et al., Am Heart J 2007): I < 30, II 30-35.9, III 36-44.9, IV >= 45. */
export function ventilatoryClass(slope: number): 'I' | 'II' | 'III' | 'IV' {
  if (slope < 30) return 'I';
  if (slope < 36) return 'II';
  if (slope < 45) return 'III';
  return 'IV';
}

const FRACTIONS = [0.25, 0.5, 0.75, 1] as const;

/** 10-s bin means of VCO2 (L/min) and VE (L/min) over [t0, tEnd], from samples holding both. */
function binned(t_s: readonly number[], vco2: readonly (number | null)[], ve: readonly (number | null)[], t0: number, tEnd: number): { xs: number[]; ys: number[] } {
  const sums = new Map<number, [number, number, number]>();
  for (let i = 0; i < t_s.length; i++) {
    const t = t_s[i];
    const x = vco2[i];
    const y = ve[i];
    if (t < t0 || t > tEnd || x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    const k = Math.floor((t - t0) / BIN_S);
    const s = sums.get(k) ?? [0, 0, 0];
    s[0] += x / 1000;
    s[1] += y;
    s[2] += 1;
    sums.set(k, s);
  }
  const keys = [...sums.keys()].sort((a, b) => a - b);
  return { xs: keys.map((k) => sums.get(k)![0] / sums.get(k)![2]), ys: keys.map((k) => sums.get(k)![1] / sums.get(k)![2]) };
}

/** The `ve_vco2_slope` entry. */
export const veVco2Slope: MetricEntry = {
  name: 've_vco2_slope',
  returns:
    'A list of {label "25%" | "50%" | "75%" | "100%", slope, ci_low, ci_high, n, ventilatory_class, t_end_s}: least squares of VE (L/min) on VCO2 (L/min) over the first 25, 50, 75 and 100 % of exercise, with the 95 % confidence interval of the slope; n counts 10-s bins; segments with too few bins are left out (detail.omitted says why).',
  unit: 'L/min per L/min',
  requires: ['VE', 'VCO2'],
  min_duration_s: 120,
  notes:
    'Ventilatory efficiency (design section 7): classes I < 30, II 30-35.9, III 36-44.9, IV >= 45 (Arena 2007). The 100 % slope includes respiratory compensation and reads higher than a slope cut at VT2; the exercise span comes from the phases metric and carries its error.',
  compute(rec) {
    const phases = phasesOf(rec);
    if (!phases) return unavailable('INSUFFICIENT_SIGNAL', 've_vco2_slope: no exercise phase could be found in this recording.', { needs: 'an exercise phase' });
    const ve = channel(rec, 'VE') ?? [];
    const vco2 = channel(rec, 'VCO2') ?? [];
    const { t_start_s: t0, t_end_s: t1 } = phases.exercise;
    const segments: Record<string, unknown>[] = [];
    const omitted: { label: string; reason: string }[] = [];
    for (const f of FRACTIONS) {
      const label = `${f * 100}%`;
      const tEnd = t0 + f * (t1 - t0);
      const { xs, ys } = binned(rec.t_s, vco2, ve, t0, tEnd);
      const span = xs.length ? Math.max(...xs) - Math.min(...xs) : 0;
      const fit = linearFit(xs, ys);
      if (!fit || xs.length < MIN_SEGMENT_POINTS || span < MIN_SEGMENT_VCO2_SPAN_L_MIN) {
        omitted.push({
          label,
          reason: `${xs.length} bins of ${BIN_S} s spanning ${span.toFixed(2)} L/min of VCO2; a slope needs at least ${MIN_SEGMENT_POINTS} bins over ${MIN_SEGMENT_VCO2_SPAN_L_MIN} L/min`,
        });
        continue;
      }
      segments.push({
        label,
        slope: round(fit.slope, 2),
        ci_low: round(fit.ci_low, 2),
        ci_high: round(fit.ci_high, 2),
        n: fit.n,
        ventilatory_class: ventilatoryClass(fit.slope),
        t_end_s: round(tEnd, 1),
      });
    }
    if (!segments.some((s) => s.label === '100%')) {
      return unavailable('INSUFFICIENT_SIGNAL', `ve_vco2_slope: exercise holds too few VE and VCO2 samples for a slope (${omitted[omitted.length - 1].reason}).`, {
        min_points: MIN_SEGMENT_POINTS,
        min_vco2_span_l_min: MIN_SEGMENT_VCO2_SPAN_L_MIN,
      });
    }
    return ok(segments, {
      exercise: { t_start_s: round(t0, 1), t_end_s: round(t1, 1) },
      phase_method: phases.method,
      phase_error_s: phases.expected_error_s,
      omitted,
    });
  },
};
