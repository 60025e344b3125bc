/**
 * Agreement of estimated thresholds with the truth over a cohort: bias (mean of estimate minus
 * truth), Pearson r and mean absolute error, for VO2 and for time, plus missed and spurious
 * thresholds. These are the figures of the promotion gate (spec rule 4) recorded in model cards.
 */
import type { ThresholdAgreement } from '../../analyses/vt/card.js';

/** One test's threshold: estimate and truth (null when absent). */
export interface Pair {
  est: { time_s: number | null; vo2_ml_min: number | null } | null;
  truth: { time_s: number | null; vo2_ml_min: number } | null;
}

function pearson(a: number[], b: number[]): number | null {
  const n = a.length;
  if (n < 3) return null;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : null;
}

const r3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
const r1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);

function summarise(est: number[], truth: number[]) {
  if (est.length === 0) return { bias: null, r: null, mae: null };
  let bias = 0;
  let mae = 0;
  for (let i = 0; i < est.length; i++) {
    bias += est[i] - truth[i];
    mae += Math.abs(est[i] - truth[i]);
  }
  return { bias: r1(bias / est.length), r: r3(pearson(est, truth)), mae: r1(mae / est.length) };
}

/** Cohort agreement of one threshold. */
export function agreement(pairs: Pair[]): ThresholdAgreement {
  const eVo2: number[] = [];
  const tVo2: number[] = [];
  const eTime: number[] = [];
  const tTime: number[] = [];
  let n = 0;
  let missed = 0;
  let spurious = 0;
  for (const { est, truth } of pairs) {
    const hasEst = est !== null && est.vo2_ml_min !== null;
    if (truth && !hasEst) missed++;
    if (!truth && hasEst) spurious++;
    if (!truth || !hasEst) continue;
    n++;
    eVo2.push(est.vo2_ml_min as number);
    tVo2.push(truth.vo2_ml_min);
    if (truth.time_s !== null && est.time_s !== null) {
      eTime.push(est.time_s);
      tTime.push(truth.time_s);
    }
  }
  const v = summarise(eVo2, tVo2);
  const t = summarise(eTime, tTime);
  return {
    n,
    missed,
    spurious,
    vo2_bias_ml_min: v.bias,
    vo2_r: v.r,
    vo2_mae_ml_min: v.mae,
    time_bias_s: t.bias,
    time_r: t.r,
    time_mae_s: t.mae,
  };
}
