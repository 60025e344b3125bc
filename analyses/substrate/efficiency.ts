/**
 * Gross efficiency: mechanical power over metabolic power, the latter from the substrate rates
 * (Jeukendrup and Wallis 2005 energy densities). Only with a measured work rate in watts: watts are
 * never back-calculated from VO2, which would make the efficiency circular.
 */
import { metabolicPowerW } from './oxidation.js';

/** Per-window inputs. */
export interface EfficiencyInput {
  t_start_s: number;
  load_w: number | null;
  fat_g_min: number;
  cho_g_min: number;
  fat_valid: boolean;
}

/** Gross efficiency of one window. */
export interface EfficiencyWindow {
  t_start: number;
  load_w: number;
  metabolic_power_w: number;
  gross_efficiency_pct: number;
}

/** The efficiency finding: per-window values and at FATMAX, or the reason it is unavailable. */
export type Efficiency =
  | {
      available: true;
      unit: '%';
      windows: EfficiencyWindow[];
      /** At FATMAX: the load there over the metabolic power of the fitted rates; null with a reason when it cannot be placed. */
      at_fatmax_pct: number | null;
      at_fatmax_reason: string | null;
      note: string;
    }
  | { available: false; reason: string };

/** Mechanical over metabolic power, in %. */
export function grossEfficiencyPct(load_w: number, fat_g_min: number, cho_g_min: number): number {
  return (100 * load_w) / metabolicPowerW(fat_g_min, cho_g_min);
}

/**
 * Efficiency per window with a positive work rate and RER at most 1.0 (above it, CO2 from bicarbonate
 * buffering inflates the energy estimate), and at FATMAX when a load can be placed there.
 */
export function grossEfficiency(
  windows: readonly EfficiencyInput[],
  noLoadReason: string | null,
  atFatmax: { load_w: number; fat_g_min: number; cho_g_min: number } | null,
  atFatmaxReason: string,
): Efficiency {
  if (noLoadReason !== null) return { available: false, reason: noLoadReason };
  const out: EfficiencyWindow[] = [];
  for (const w of windows) {
    if (w.load_w === null || !(w.load_w > 0) || !w.fat_valid) continue;
    const metabolic = metabolicPowerW(w.fat_g_min, w.cho_g_min);
    if (!(metabolic > 0)) continue;
    out.push({ t_start: w.t_start_s, load_w: w.load_w, metabolic_power_w: metabolic, gross_efficiency_pct: (100 * w.load_w) / metabolic });
  }
  if (out.length === 0) {
    return { available: false, reason: 'no window has both a positive work rate and an RER of at most 1.0.' };
  }
  let at: number | null = null;
  let reason: string | null = atFatmaxReason;
  if (atFatmax && atFatmax.load_w > 0) {
    const metabolic = metabolicPowerW(atFatmax.fat_g_min, atFatmax.cho_g_min);
    if (metabolic > 0) {
      at = (100 * atFatmax.load_w) / metabolic;
      reason = null;
    }
  } else if (atFatmax) {
    reason = 'the work rate at FATMAX is not positive (FATMAX lies in the unloaded warm-up).';
  }
  return {
    available: true,
    unit: '%',
    windows: out,
    at_fatmax_pct: at,
    at_fatmax_reason: reason,
    note: 'Gross efficiency counts all metabolic power, resting metabolism included; windows above RER 1.0 and unloaded windows are left out.',
  };
}
