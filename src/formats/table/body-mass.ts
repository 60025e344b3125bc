/**
 * Body mass from a table's absolute and per-kg VO2 (VO2 / VO2/kg), for exports that state it
 * nowhere else; spiro derives the Vyntus body mass this way (as a mean), MGC's two VO2 columns give
 * it as well (a median, robust to the breaths where one of the two is rounded to zero).
 */
import { median } from '../../recording/build.js';

/** The ratio's mean or median over the rows with both values, to 0.1 kg; null when no row has both. */
export function bodyMassFromPerKg(vo2: readonly (number | null)[], perKg: readonly (number | null)[], average: 'mean' | 'median'): { body_mass_kg: number; rows: number } | null {
  const ratios: number[] = [];
  for (let i = 0; i < vo2.length; i++) {
    const v = vo2[i];
    const k = perKg[i];
    if (v === null || !k) continue;
    const r = v / k;
    if (Number.isFinite(r)) ratios.push(r);
  }
  if (ratios.length === 0) return null;
  const value = average === 'mean' ? ratios.reduce((a, b) => a + b, 0) / ratios.length : median(ratios);
  return { body_mass_kg: Math.round(value * 10) / 10, rows: ratios.length };
}
