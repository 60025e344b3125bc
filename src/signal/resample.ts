/**
 * Puts irregular samples (breaths) on a uniform time grid by linear interpolation. Every analysis
 * that needs a regular axis (1-Hz model input, wavelets, plotting) goes through here.
 */

export interface UniformSeries {
  /** Time of the first grid point, s. */
  t0_s: number;
  /** Grid spacing, s. */
  dt_s: number;
  /** Interpolated values; NaN inside gaps longer than the allowed gap. */
  values: Float64Array;
}

/**
 * Linear interpolation of (t, v) onto t0, t0 + dt, ... up to the last sample. Null samples are
 * skipped; a grid point inside a gap longer than `maxGapS` between valid samples becomes NaN.
 */
export function resampleUniform(t_s: readonly number[], values: readonly (number | null)[], dt_s: number, options: { t0_s?: number; t_end_s?: number; maxGapS?: number } = {}): UniformSeries {
  const ts: number[] = [];
  const vs: number[] = [];
  for (let i = 0; i < t_s.length; i++) {
    const v = values[i];
    if (v !== null && v !== undefined && Number.isFinite(v)) {
      ts.push(t_s[i]);
      vs.push(v);
    }
  }
  const t0 = options.t0_s ?? (t_s.length ? Math.ceil(t_s[0] / dt_s) * dt_s : 0);
  const tEnd = options.t_end_s ?? (t_s.length ? t_s[t_s.length - 1] : t0);
  const n = Math.max(0, Math.floor((tEnd - t0) / dt_s + 1e-9) + 1);
  const out = new Float64Array(n).fill(Number.NaN);
  const maxGap = options.maxGapS ?? Number.POSITIVE_INFINITY;
  let j = 0;
  for (let k = 0; k < n; k++) {
    const t = t0 + k * dt_s;
    while (j + 1 < ts.length && ts[j + 1] < t) j++;
    if (ts.length === 0) break;
    if (t < ts[0] || t > ts[ts.length - 1]) continue;
    if (ts[j] === t || j + 1 >= ts.length) {
      out[k] = ts[j] === t ? vs[j] : Number.NaN;
      continue;
    }
    const ta = ts[j];
    const tb = ts[j + 1];
    if (tb - ta > maxGap) continue;
    const w = (t - ta) / (tb - ta);
    out[k] = vs[j] + w * (vs[j + 1] - vs[j]);
  }
  return { t0_s: t0, dt_s, values: out };
}
