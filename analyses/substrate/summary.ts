/**
 * The `substrate_summary` metric: the headline figures of the substrate analysis, from the same
 * domain code (one implementation, two entry points).
 */
import type { MetricEntry, MetricOptions, MetricResult } from '../../src/metrics/metric-entry.js';
import type { Recording } from '../../src/recording/recording.js';
import { analyseSubstrate, type ReportedWindow, type SubstrateFindings } from './analyse.js';

/** The metric's value. */
export interface SubstrateSummary {
  fatmax_found: boolean;
  /** Why FATMAX was not found; null when it was. */
  fatmax_reason: string | null;
  /** Peak fat oxidation (g/min): the fitted FATMAX when found, else the highest window below RER 1.0. */
  fat_peak_g_min: number;
  fat_peak_pct_vo2peak: number;
  fat_peak_load_w: number | null;
  fat_peak_source: 'fitted FATMAX' | 'highest window';
  cho_at_fat_peak_g_min: number;
  /** Highest carbohydrate rate among windows below RER 1.0 (above it, buffering CO2 inflates it). */
  cho_peak_g_min: number;
  cho_peak_pct_vo2peak: number;
  crossover_pct_vo2peak: number | null;
  steady_state: boolean;
  protocol: SubstrateFindings['protocol'];
  windows_above_rer_one: number;
  n_windows: number;
}

type Possible = ReportedWindow & { fat_g_min: number; cho_g_min: number; pct_ee_fat: number };

/** Condenses findings to the summary value. */
export function summarise(f: SubstrateFindings): SubstrateSummary {
  // Withheld windows (impossible rates) carry no rates to compare; an ok result always has fitted windows.
  const valid = f.windows.filter((w): w is Possible => w.fat_valid && !w.withheld);
  const topFat = valid.reduce((best, w) => (w.fat_g_min > best.fat_g_min ? w : best), valid[0]);
  const topCho = valid.reduce((best, w) => (w.cho_g_min > best.cho_g_min ? w : best), valid[0]);
  const fm = f.fatmax;
  return {
    fatmax_found: fm.found,
    fatmax_reason: fm.found ? null : fm.reason,
    fat_peak_g_min: fm.found ? fm.fat_g_min : topFat.fat_g_min,
    fat_peak_pct_vo2peak: fm.found ? fm.pct_vo2peak : topFat.pct_vo2peak,
    fat_peak_load_w: fm.found ? fm.load : (topFat.load_w ?? null),
    fat_peak_source: fm.found ? 'fitted FATMAX' : 'highest window',
    cho_at_fat_peak_g_min: fm.found ? fm.cho_g_min : topFat.cho_g_min,
    cho_peak_g_min: topCho.cho_g_min,
    cho_peak_pct_vo2peak: topCho.pct_vo2peak,
    crossover_pct_vo2peak: f.crossover.found ? f.crossover.pct_vo2peak : null,
    steady_state: f.steady_state,
    protocol: f.protocol,
    windows_above_rer_one: f.windows.length - valid.length,
    n_windows: f.n_windows,
  };
}

/** Runs the analysis and maps a refusal to an `unavailable` metric result. */
export function computeSubstrateSummary(rec: Recording, options: Pick<MetricOptions, 'protocol'> = { protocol: null }): MetricResult {
  const result = analyseSubstrate(rec, {}, options.protocol ?? null);
  if (result.status === 'ok') {
    if (result.findings.windows.some((w) => w.fat_valid && !w.withheld)) return { status: 'ok', value: summarise(result.findings) };
    return {
      status: 'unavailable',
      error: 'INSUFFICIENT_SIGNAL',
      message: 'No window below RER 1.0 has possible oxidation rates to summarise.',
      context: { n_windows: result.findings.n_windows, protocol: result.findings.protocol_kind },
    };
  }
  // The metric codes have no SUBSTRATE_FAILED: a failed fit means the signal did not support one.
  const error = result.error === 'MISSING_CHANNEL' ? 'MISSING_CHANNEL' : 'INSUFFICIENT_SIGNAL';
  return { status: 'unavailable', error, message: result.message, context: { ...result.context, analysis_error: result.error } };
}

/** The registry entry. */
export const substrateSummaryMetric: MetricEntry = {
  name: 'substrate_summary',
  returns: 'FATMAX found or not, peak fat oxidation and its intensity, the carbohydrate figures, whether the protocol reached steady state, and how many windows lie above RER 1.0.',
  unit: 'g/min',
  requires: ['VO2', 'VCO2'],
  min_duration_s: 240,
  notes:
    'FATMAX is a fitted point, not a measured sample, with no confidence interval. steady_state is false on ramps, where FATMAX reads high and is not comparable with a graded test. Above RER 1.0 fat rates are upper bounds and are left out of the peaks.',
  compute: computeSubstrateSummary,
};
