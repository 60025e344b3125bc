/**
 * Thresholds from per-second domain probabilities (Oxynet, Zignoli et al. 2019, 2022): VT1 where
 * the moderate domain gives way to heavy, VT2 where severe overtakes heavy, read on smoothed
 * curves. The crossing is placed by a one-step fit (the split that best separates "before" from
 * "after", i.e. the maximum of the cumulative sum of the margin), so a brief flicker of the curves
 * cannot move it; a domain that is never sustained gives no threshold at all.
 */
import { movingMean } from '../grid-filters.js';
import type { DomainCurves } from './curves.js';
import type { DecisionRule } from './rule.js';

/** Half-width (s) of the centred mean applied to the probability curves. */
const CURVE_HALF_S = 10;
/** A domain counts as reached only if it holds the majority for this many consecutive seconds. */
const MIN_SUSTAINED_S = 20;
/** VT2 is sought from this long after VT1: the heavy domain spans minutes, never a moment. */
const MIN_VT_GAP_S = 30;

export interface Crossings {
  /** Grid index of VT1, or null when the moderate domain is never left. */
  vt1_index: number | null;
  /** Grid index of VT2, or null when the severe domain is never reached. */
  vt2_index: number | null;
}

/** Smooths the curves and places VT1 and VT2 (VT2 is sought only after VT1). */
export function crossingsFromCurves(curves: DomainCurves): Crossings {
  const pm = movingMean(curves.moderate, CURVE_HALF_S);
  const ps = movingMean(curves.severe, CURVE_HALF_S);
  const n = pm.length;
  // Margin of "still moderate" (VT1) and "not yet severe" (VT2): positive before, negative after.
  const m1 = new Float64Array(n);
  const m2 = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    m1[i] = 2 * pm[i] - 1;
    m2[i] = 1 - 2 * ps[i];
  }
  const vt1 = stepIndex(m1, 0);
  const vt2 = vt1 === null ? null : stepIndex(m2, vt1 + MIN_VT_GAP_S);
  return { vt1_index: vt1, vt2_index: vt2 };
}

/**
 * Best split k in (from, n) of a margin that is positive before and negative after, or null when
 * the margin is never negative for MIN_SUSTAINED_S consecutive seconds after `from`, or when the
 * part after the best split is not, on average, past the change (a brief excursion the split
 * cannot explain, e.g. at the very end).
 */
export function stepIndex(margin: Float64Array, from: number): number | null {
  const n = margin.length;
  let run = 0;
  let sustained = false;
  for (let i = from; i < n && !sustained; i++) {
    run = margin[i] < 0 ? run + 1 : 0;
    sustained = run >= MIN_SUSTAINED_S;
  }
  if (!sustained) return null;
  let sum = 0;
  let best = Number.NEGATIVE_INFINITY;
  let bestK = from;
  for (let k = from; k < n; k++) {
    // sum = margin[from..k-1]; splitting at k keeps the positive part before and the negative after.
    if (sum > best) {
      best = sum;
      bestK = k;
    }
    sum += margin[k];
  }
  if (n - bestK < MIN_SUSTAINED_S) return null;
  let after = 0;
  for (let k = bestK; k < n; k++) after += margin[k];
  return after < 0 ? bestK : null;
}

const peak = (a: Float64Array) => Math.round(1000 * a.reduce((m, v) => Math.max(m, v), 0)) / 1000;

/** gandalf v0.x's rule: one-step fits on the smoothed curves, no other evidence. */
export const stepFit: DecisionRule = {
  id: 'step-fit',
  decide(curves, { test }) {
    const c = crossingsFromCurves(curves);
    return {
      vt1: c.vt1_index === null ? null : { index: c.vt1_index },
      vt2: c.vt2_index === null ? null : { index: c.vt2_index },
      evidence: {
        method: 'per-second domain probabilities; VT1 where moderate gives way, VT2 where severe overtakes heavy',
        max_p_heavy: peak(curves.heavy),
        max_p_severe: peak(curves.severe),
        analysed_until_s: test.t0_s + test.end_index,
      },
    };
  },
};
