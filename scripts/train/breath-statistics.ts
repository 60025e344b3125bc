/**
 * Breath-to-breath noise statistics of a breath-by-breath recording: each channel's residuals around
 * a robust local linear trend (+-30 s, points beyond 3.5 robust SD left out of the fit), their SD by
 * VO2 band, their correlations (volumes as relative residuals, end-tidal pressures as mmHg), lag-1
 * autocorrelation, kurtosis, and how far the end-tidal residuals move per unit of relative VE
 * residual (breath depth). Calibrates the generator's measured noise on the real test and checks it.
 */
import type { Recording } from '../../src/recording/recording.js';

const CHANNELS = ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'] as const;
type Channel = (typeof CHANNELS)[number];
const VOLUMES: readonly Channel[] = ['VO2', 'VCO2', 'VE'];
const TREND_HALF_WINDOW_S = 30;
const BAND_ML_MIN = 500;
const MIN_BAND_BREATHS = 15;

export interface NoiseStatistics {
  breaths: number;
  /** Residual SD (mL/min, L/min, mmHg) and CV by band of the VO2 trend. */
  bands: { vo2_ml_min: [number, number]; n: number; sd: Record<Channel, number>; cv: Record<'VO2' | 'VE', number> }[];
  sd: Record<Channel, number>;
  correlation: { ve_vo2: number; ve_vco2: number; vo2_vco2: number; peto2_petco2: number; peto2_ve: number; petco2_ve: number };
  lag1: Record<Channel, number>;
  kurtosis: Record<Channel, number>;
  /** End-tidal residual (mmHg) per unit of relative VE residual. */
  per_relative_ve: { PetO2: number; PetCO2: number };
}

/** Statistics of the breaths between from_s and to_s (default: the whole recording). */
export function noiseStatistics(rec: Recording, from_s = -Infinity, to_s = Infinity): NoiseStatistics {
  const keep = rec.t_s.map((_, i) => i).filter((i) => rec.t_s[i] >= from_s && rec.t_s[i] <= to_s && CHANNELS.every((c) => rec.channels[c]?.values[i] != null));
  const t = keep.map((i) => rec.t_s[i]);
  const values = Object.fromEntries(CHANNELS.map((c) => [c, keep.map((i) => rec.channels[c]!.values[i] as number)])) as Record<Channel, number[]>;
  const trend = Object.fromEntries(CHANNELS.map((c) => [c, robustTrend(t, values[c])])) as Record<Channel, number[]>;
  const res = Object.fromEntries(CHANNELS.map((c) => [c, values[c].map((v, i) => v - trend[c][i])])) as Record<Channel, number[]>;
  const rel = Object.fromEntries(CHANNELS.map((c) => [c, res[c].map((r, i) => r / trend[c][i])])) as Record<Channel, number[]>;
  const corrOf = (c: Channel): number[] => (VOLUMES.includes(c) ? rel[c] : res[c]);

  const bands: NoiseStatistics['bands'] = [];
  for (let lo = 0; lo < Math.max(...trend.VO2); lo += BAND_ML_MIN) {
    const idx = trend.VO2.map((_, i) => i).filter((i) => trend.VO2[i] >= lo && trend.VO2[i] < lo + BAND_ML_MIN);
    if (idx.length < MIN_BAND_BREATHS) continue;
    const pick = (xs: number[]): number[] => idx.map((i) => xs[i]);
    bands.push({
      vo2_ml_min: [lo, lo + BAND_ML_MIN],
      n: idx.length,
      sd: Object.fromEntries(CHANNELS.map((c) => [c, round(sd(pick(res[c])), 2)])) as Record<Channel, number>,
      cv: { VO2: round(sd(pick(rel.VO2)), 4), VE: round(sd(pick(rel.VE)), 4) },
    });
  }
  return {
    breaths: t.length,
    bands,
    sd: Object.fromEntries(CHANNELS.map((c) => [c, round(sd(res[c]), 2)])) as Record<Channel, number>,
    correlation: {
      ve_vo2: round(corr(rel.VE, rel.VO2), 3),
      ve_vco2: round(corr(rel.VE, rel.VCO2), 3),
      vo2_vco2: round(corr(rel.VO2, rel.VCO2), 3),
      peto2_petco2: round(corr(res.PetO2, res.PetCO2), 3),
      peto2_ve: round(corr(res.PetO2, rel.VE), 3),
      petco2_ve: round(corr(res.PetCO2, rel.VE), 3),
    },
    lag1: Object.fromEntries(CHANNELS.map((c) => [c, round(corr(corrOf(c).slice(0, -1), corrOf(c).slice(1)), 3)])) as Record<Channel, number>,
    kurtosis: Object.fromEntries(CHANNELS.map((c) => [c, round(kurtosis(res[c]), 2)])) as Record<Channel, number>,
    per_relative_ve: { PetO2: round(slope(rel.VE, res.PetO2), 2), PetCO2: round(slope(rel.VE, res.PetCO2), 2) },
  };
}

/** Local linear fit at each breath over +-30 s, refitted twice without points beyond 3.5 robust SD. */
function robustTrend(t: number[], y: number[]): number[] {
  return t.map((ti) => {
    const idx = t.map((_, i) => i).filter((i) => Math.abs(t[i] - ti) <= TREND_HALF_WINDOW_S);
    let use = idx;
    let level = 0;
    for (let pass = 0; pass < 3; pass++) {
      const fit = linearFit(
        use.map((i) => t[i] - ti),
        use.map((i) => y[i]),
      );
      level = fit.intercept;
      const r = idx.map((i) => y[i] - (fit.intercept + fit.slope * (t[i] - ti)));
      const spread = 1.4826 * median(r.map(Math.abs)) || Infinity;
      const next = idx.filter((_, k) => Math.abs(r[k]) < 3.5 * spread);
      if (next.length < 3) break;
      use = next;
    }
    return level;
  });
}

function linearFit(x: number[], y: number[]): { intercept: number; slope: number } {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (x[i] - mx) ** 2;
    sxy += (x[i] - mx) * (y[i] - my);
  }
  const b = sxx > 0 ? sxy / sxx : 0;
  return { intercept: my - b * mx, slope: b };
}

function slope(x: number[], y: number[]): number {
  return linearFit(x, y).slope;
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function sd(xs: number[]): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
}

function corr(a: number[], b: number[]): number {
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

function kurtosis(xs: number[]): number {
  const m = mean(xs);
  const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
  return xs.reduce((a, b) => a + (b - m) ** 4, 0) / xs.length / v ** 2;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
