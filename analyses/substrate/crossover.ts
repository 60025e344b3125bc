/**
 * The crossover point: the intensity at which carbohydrate starts to supply more energy than fat
 * (Brooks and Mercier, J Appl Physiol 1994), read from the windows in order of intensity.
 */

/** The per-window figures the crossover needs. */
export interface CrossoverPoint {
  pct_vo2peak: number;
  pct_ee_fat: number;
  rer: number;
  load_w: number | null;
}

/** The crossover finding: where it lies, or why there is none. */
export type Crossover = { found: true; pct_vo2peak: number; rer: number; load_w: number | null; n_crossings: number } | { found: false; reason: string };

/**
 * First intensity where fat's share of energy falls below 50 %, linearly interpolated between the
 * two windows around it. Noisy windows can cross more than once; the count is reported.
 */
export function findCrossover(points: readonly CrossoverPoint[]): Crossover {
  if (points.length === 0) return { found: false, reason: 'no windows.' };
  const sorted = [...points].sort((p, q) => p.pct_vo2peak - q.pct_vo2peak);
  const first = sorted[0];
  if (first.pct_ee_fat < 50) {
    return {
      found: false,
      reason: `carbohydrate already supplies more energy than fat at the lowest window (${first.pct_vo2peak.toFixed(1)} %VO2peak, ${first.pct_ee_fat.toFixed(1)} % of energy from fat).`,
    };
  }
  let n_crossings = 0;
  for (let k = 1; k < sorted.length; k++) if (sorted[k - 1].pct_ee_fat >= 50 !== sorted[k].pct_ee_fat >= 50) n_crossings++;
  const k = sorted.findIndex((p) => p.pct_ee_fat < 50);
  if (k < 0) {
    const last = sorted[sorted.length - 1];
    return {
      found: false,
      reason: `fat still supplies at least half the energy at the highest window (${last.pct_vo2peak.toFixed(1)} %VO2peak).`,
    };
  }
  const p = sorted[k - 1];
  const q = sorted[k];
  const f = (p.pct_ee_fat - 50) / (p.pct_ee_fat - q.pct_ee_fat);
  const lerp = (u: number, v: number): number => u + f * (v - u);
  return {
    found: true,
    pct_vo2peak: lerp(p.pct_vo2peak, q.pct_vo2peak),
    rer: lerp(p.rer, q.rer),
    load_w: p.load_w !== null && q.load_w !== null ? lerp(p.load_w, q.load_w) : null,
    n_crossings,
  };
}
