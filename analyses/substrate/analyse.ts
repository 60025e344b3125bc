/**
 * The substrate analysis, step by step: check the gases, trim to exercise, read the protocol, build
 * windows, compute rates per window, fit FATMAX, find the crossover, compute gross efficiency, flag.
 * Pure: a Recording in, plain data out; the plugin and the `substrate_summary` metric both call it.
 */
import type { ChannelName, Recording } from '../../src/recording/recording.js';
import { vo2Peak } from '../../src/metrics/vo2peak.js';
import { linearFit } from '../../src/signal/stats.js';
import { findCrossover, type Crossover } from './crossover.js';
import { grossEfficiency, type Efficiency } from './efficiency.js';
import { evalCubic, fitCubicThroughOrigin, interiorMaximum } from './fatmax.js';
import { flag, type SubstrateFlag } from './flags.js';
import { resolveOptions, type SubstrateOptions } from './options.js';
import { choGMin, fatGMin, pctEnergyFromFat } from './oxidation.js';
import { readProtocol, type ProtocolKind, type Span } from './protocol.js';
import { clockBins, exerciseSpan, stageWindows, type RawWindow } from './windows.js';

/** Version of this method; reported as the model version in provenance. */
export const METHOD_VERSION = '1.0.0';

/** One window's gas exchange and substrate rates (gases in L/min, rates in g/min). */
export interface SubstrateWindow {
  t_start: number;
  t_end: number;
  vo2: number;
  vco2: number;
  rer: number;
  pct_vo2peak: number;
  fat_g_min: number;
  cho_g_min: number;
  pct_ee_fat: number;
  /** False above RER 1.0, where the fat rate is an upper bound and may read negative (kept as computed). */
  fat_valid: boolean;
  n_samples: number;
  load_w?: number;
}

/** The FATMAX finding: the fitted turning point, or why there is none. */
export type Fatmax =
  | {
      found: true;
      axis: 'pct_vo2peak';
      pct_vo2peak: number;
      vo2: number;
      fat_g_min: number;
      cho_g_min: number;
      pct_ee_fat: number;
      /** Work rate (W) at FATMAX from the windows' load-intensity line; null without a load. */
      load: number | null;
      fit_r2_fat: number;
      fit_r2_cho: number;
      n_fit_windows: number;
    }
  | {
      found: false;
      axis: 'pct_vo2peak';
      reason: string;
      fit_r2_fat: number | null;
      fit_r2_cho: number | null;
      n_fit_windows: number;
    };

/** The `findings` of a substrate envelope (field names from the reference service). */
export interface SubstrateFindings {
  /** Highest 30-s mean VO2 of the whole recording, L/min: the reference for %VO2peak. */
  vo2peak: number;
  window_source: 'protocol stages' | 'clock bins';
  /** Length of each averaged window, s (the stage tail for stages, the bin for clock bins). */
  window_s: number;
  n_windows: number;
  protocol: ProtocolKind;
  /** True only on a stepped protocol; a ramp never reaches steady state. */
  steady_state: boolean;
  exercise: { t_start: number; t_end: number };
  windows: SubstrateWindow[];
  fatmax: Fatmax;
  crossover: Crossover;
  efficiency: Efficiency;
  flags: SubstrateFlag[];
  method: string[];
}

/** The refusal codes the spec lists for substrate (section 7). */
export type SubstrateRefusal = 'MISSING_CHANNEL' | 'INSUFFICIENT_SIGNAL' | 'SUBSTRATE_FAILED';

/** What `analyseSubstrate` returns: findings with notes, or a refusal with its context. */
export type SubstrateResult =
  | { status: 'ok'; findings: SubstrateFindings; notes: string[] }
  | { status: 'refused'; error: SubstrateRefusal; message: string; context: Record<string, unknown> };

const METHOD: readonly string[] = [
  'Fat oxidation (g/min) = 1.695 VO2 - 1.701 VCO2, with VO2 and VCO2 in L/min (Frayn 1983; Jeukendrup and Wallis 2005).',
  'Carbohydrate oxidation (g/min) = 4.585 VCO2 - 3.226 VO2 (Frayn 1983; Jeukendrup and Wallis 2005); protein oxidation is neglected.',
  'Energy from fat is 9.75 kcal per gram and from carbohydrate 4.18 kcal per gram; the share from fat is fat energy over the sum.',
  'FATMAX is the maximum of a third-order polynomial through the origin fitted to fat oxidation against %VO2peak over windows with RER at most 1.0 (Achten, Gleeson and Jeukendrup 2002).',
  'The crossover is the intensity where carbohydrate starts to supply more energy than fat, interpolated between windows (Brooks and Mercier 1994).',
  'Gross efficiency is mechanical power (the recorded work rate) over metabolic power (the energy of the substrate rates), in per cent.',
];

const NOTES: readonly string[] = [
  'FATMAX is a fitted point, not a measured sample, and carries no confidence interval.',
  'The equations assume a steady state and negligible protein oxidation; above RER 1.0 the fat rate is an upper bound, not a measurement.',
  '%VO2peak is relative to the highest 30-s VO2 of this recording, which understates VO2max when the test stopped before exhaustion.',
];

/** Runs the analysis; never throws for a recording it cannot read (that is a refusal). */
export function analyseSubstrate(rec: Recording, overrides: Partial<SubstrateOptions> = {}): SubstrateResult {
  try {
    return analyse(rec, resolveOptions(overrides));
  } catch (err) {
    return { status: 'refused', error: 'SUBSTRATE_FAILED', message: `The substrate analysis failed: ${(err as Error).message}`, context: {} };
  }
}

function analyse(rec: Recording, opts: SubstrateOptions): SubstrateResult {
  // 1. Both gases, with at least one reading each.
  const missing = (['VO2', 'VCO2'] as const).filter((name) => !rec.channels[name]?.values.some((v) => v !== null && Number.isFinite(v)));
  if (missing.length > 0) {
    return {
      status: 'refused',
      error: 'MISSING_CHANNEL',
      message: `Substrate oxidation needs VO2 and VCO2; the recording has no ${missing.join(' or ')}.`,
      context: { required: ['VO2', 'VCO2'], missing, reasons: Object.fromEntries(missing.map((m) => [m, rec.absent[m] ?? 'absent'])) },
    };
  }
  const flags: SubstrateFlag[] = [];
  const notes = [...NOTES];

  // 2. Exercise with its warm-up; rest and recovery dropped.
  const ex = exerciseSpan(rec);
  if (!ex.phases_found) flags.push(flag('phases_not_found', 'info', 'phases could not be told apart: the whole recording is treated as exercise.'));
  if (ex.dropped.length > 0) {
    flags.push(flag('trimmed_to_exercise', 'info', `${ex.dropped.join(' and ')} dropped; ${ex.warmup_kept ? 'the warm-up is kept as a real intensity' : 'no warm-up found'}.`));
  }

  // 3. Load in watts, and the protocol.
  const load = loadStatus(rec, ex.span, opts);
  if (load.reason !== null) flags.push(flag('no_load', 'info', `${load.reason} Windows are placed against %VO2peak only and gross efficiency is unavailable.`));
  const workChannels: ChannelName[] = [];
  if (load.reason === null) workChannels.push('Load');
  for (const name of ['Speed', 'Grade'] as const) if (rec.channels[name]) workChannels.push(name);
  const protocol = readProtocol(rec, ex.span, workChannels, opts);
  if (protocol.kind === 'ramp') {
    flags.push(flag('ramp_protocol', 'warning', `${protocol.detail} A ramp never reaches steady state: FATMAX reads high and is not comparable with a graded test.`));
  } else if (protocol.kind === 'unknown') {
    flags.push(flag('protocol_unknown', 'warning', `${protocol.detail} Steady state is not established.`));
  }

  // 4. Windows: stages when the work rate has them, else clock bins.
  const withLoad = load.reason === null;
  let raw: RawWindow[];
  let window_source: SubstrateFindings['window_source'];
  let window_s: number;
  if (protocol.stages.length > 0) {
    const staged = stageWindows(rec, protocol.stages, opts, withLoad);
    raw = staged.windows;
    window_source = 'protocol stages';
    window_s = staged.tail_s;
  } else {
    window_s = Math.max(opts.bin_s, rec.sampling.raw_interval_s ?? 0);
    raw = clockBins(rec, ex.span, window_s, withLoad);
    window_source = 'clock bins';
    if (protocol.kind === 'steps') {
      flags.push(flag('stages_not_located', 'warning', 'VO2 shows plateaus but no work-rate channel places the stages: clock bins may straddle stage changes.'));
    }
  }

  // 5. Per-window rates.
  // The service's one VO2peak (src/metrics/vo2peak.ts), so %VO2peak here matches vo2max, vt and the page.
  const vo2peak_l_min = (vo2Peak(rec)?.value ?? Number.NaN) / 1000;
  const windows = raw.map((w) => toWindow(w, vo2peak_l_min));
  const fitWindows = windows.filter((w) => w.fat_valid && Number.isFinite(w.fat_g_min) && w.pct_vo2peak > 0);
  const above = windows.length - windows.filter((w) => w.fat_valid).length;
  if (above > 0) {
    flags.push(flag('rer_above_one', 'warning', `${above} of ${windows.length} windows above RER 1.0: their fat rate is an upper bound (it can read negative), kept as computed and left out of the FATMAX fit.`));
  }
  const below07 = windows.filter((w) => w.rer < 0.7).length;
  if (below07 > 0) {
    flags.push(flag('rer_below_0_70', 'warning', `${below07} windows below RER 0.70, outside the range of the equations (carbohydrate reads negative): hyperventilation, fasting ketosis or a gas calibration problem.`));
  }
  const context = { windows_below_rer_one: fitWindows.length, needed: opts.min_fit_windows, n_windows: windows.length, window_source, window_s };
  if (fitWindows.length < opts.min_fit_windows) {
    return {
      status: 'refused',
      error: 'INSUFFICIENT_SIGNAL',
      message: `Only ${fitWindows.length} windows below RER 1.0 (${windows.length} in all, ${window_source} of ${window_s} s); the FATMAX fit needs at least ${opts.min_fit_windows}.`,
      context,
    };
  }
  const xs = fitWindows.map((w) => w.pct_vo2peak / 100);
  const range_pct = 100 * (Math.max(...xs) - Math.min(...xs));
  if (range_pct < opts.min_fit_range_pct) {
    return {
      status: 'refused',
      error: 'INSUFFICIENT_SIGNAL',
      message: `The windows below RER 1.0 span only ${range_pct.toFixed(1)} %VO2peak; a fat oxidation curve needs at least ${opts.min_fit_range_pct}.`,
      context: { ...context, range_pct_vo2peak: range_pct, needed_range_pct_vo2peak: opts.min_fit_range_pct },
    };
  }
  if (fitWindows.length < opts.advised_fit_windows) {
    flags.push(flag('few_valid_windows', 'warning', `only ${fitWindows.length} windows below RER 1.0: the cubic is barely determined (${opts.advised_fit_windows} or more advised).`));
  }

  // 6. FATMAX from the cubic fits.
  const fatFit = fitCubicThroughOrigin(xs, fitWindows.map((w) => w.fat_g_min));
  const choFit = fitCubicThroughOrigin(xs, fitWindows.map((w) => w.cho_g_min));
  if (!fatFit || !choFit) {
    return { status: 'refused', error: 'SUBSTRATE_FAILED', message: 'The cubic fits of fat and carbohydrate oxidation against intensity are singular.', context };
  }
  const loadLine = withLoad ? linearFit(fitWindows.map((w) => w.pct_vo2peak), fitWindows.map((w) => w.load_w ?? Number.NaN)) : null;
  const peak = interiorMaximum(fatFit, Math.min(...xs), Math.max(...xs));
  let fatmax: Fatmax;
  let atFatmax: { load_w: number; fat_g_min: number; cho_g_min: number } | null = null;
  if (peak.found) {
    const pct = 100 * peak.x;
    const cho = evalCubic(choFit, peak.x);
    const loadAt = loadLine ? loadLine.intercept + loadLine.slope * pct : null;
    fatmax = {
      found: true,
      axis: 'pct_vo2peak',
      pct_vo2peak: pct,
      vo2: peak.x * vo2peak_l_min,
      fat_g_min: peak.y,
      cho_g_min: cho,
      pct_ee_fat: pctEnergyFromFat(peak.y, cho),
      load: loadAt,
      fit_r2_fat: fatFit.r2,
      fit_r2_cho: choFit.r2,
      n_fit_windows: fitWindows.length,
    };
    if (loadAt !== null) atFatmax = { load_w: loadAt, fat_g_min: peak.y, cho_g_min: cho };
  } else {
    fatmax = { found: false, axis: 'pct_vo2peak', reason: peak.reason, fit_r2_fat: fatFit.r2, fit_r2_cho: choFit.r2, n_fit_windows: fitWindows.length };
  }

  // 7. Crossover and efficiency.
  const crossover = findCrossover(windows.map((w) => ({ pct_vo2peak: w.pct_vo2peak, pct_ee_fat: w.pct_ee_fat, rer: w.rer, load_w: w.load_w ?? null })));
  const efficiency = grossEfficiency(
    windows.map((w) => ({ t_start_s: w.t_start, load_w: w.load_w ?? null, fat_g_min: w.fat_g_min, cho_g_min: w.cho_g_min, fat_valid: w.fat_valid })),
    load.reason,
    atFatmax,
    peak.found ? 'no load could be placed at FATMAX.' : 'FATMAX was not found.',
  );

  if (protocol.kind !== 'steps') notes.push('Without steady-state stages the windows lag the work rate: FATMAX reads high and is not comparable with a graded test.');
  return {
    status: 'ok',
    findings: rounded({
      vo2peak: vo2peak_l_min,
      window_source,
      window_s,
      n_windows: windows.length,
      protocol: protocol.kind,
      steady_state: protocol.kind === 'steps',
      exercise: { t_start: ex.span.t_start_s, t_end: ex.span.t_end_s },
      windows,
      fatmax,
      crossover,
      efficiency,
      flags,
      method: [...METHOD],
    }),
    notes,
  };
}

/** Whether Load can be read as watts over exercise; `reason` says why not. */
function loadStatus(rec: Recording, span: Span, opts: SubstrateOptions): { reason: string | null } {
  const values = rec.channels.Load?.values;
  if (!values) return { reason: `No work-rate channel in watts (${rec.absent.Load ?? 'absent from the file'}).` };
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && Number.isFinite(v) && rec.t_s[i] >= span.t_start_s && rec.t_s[i] <= span.t_end_s) max = Math.max(max, v);
  }
  if (!(max > 0)) return { reason: 'The Load channel reads 0 W (or nothing) throughout exercise.' };
  if (max > opts.max_plausible_load_w) return { reason: `The Load channel reaches ${Math.round(max)}, beyond any ergometer (${opts.max_plausible_load_w} W): not read as watts.` };
  return { reason: null };
}

function toWindow(w: RawWindow, vo2peak_l_min: number): SubstrateWindow {
  const fat = fatGMin(w.vo2_l_min, w.vco2_l_min);
  const cho = choGMin(w.vo2_l_min, w.vco2_l_min);
  const rer = w.vco2_l_min / w.vo2_l_min;
  const out: SubstrateWindow = {
    t_start: w.t_start_s,
    t_end: w.t_end_s,
    vo2: w.vo2_l_min,
    vco2: w.vco2_l_min,
    rer,
    pct_vo2peak: (100 * w.vo2_l_min) / vo2peak_l_min,
    fat_g_min: fat,
    cho_g_min: cho,
    pct_ee_fat: pctEnergyFromFat(fat, cho),
    fat_valid: rer <= 1,
    n_samples: w.n_samples,
  };
  if (w.load_w !== null) out.load_w = w.load_w;
  return out;
}

/** Decimal places kept per field name in the output (computation is at full precision). */
const DECIMALS: Readonly<Record<string, number>> = {
  t_start: 1,
  t_end: 1,
  window_s: 1,
  vo2: 4,
  vco2: 4,
  vo2peak: 4,
  rer: 4,
  fat_g_min: 4,
  cho_g_min: 4,
  pct_vo2peak: 2,
  pct_ee_fat: 2,
  load: 1,
  load_w: 1,
  metabolic_power_w: 1,
  gross_efficiency_pct: 2,
  at_fatmax_pct: 2,
  fit_r2_fat: 4,
  fit_r2_cho: 4,
};

/** Rounds numbers for output by field name; arrays and nested objects are walked. */
function rounded<T>(value: T, key = ''): T {
  if (typeof value === 'number') {
    const d = DECIMALS[key];
    if (d === undefined || !Number.isFinite(value)) return value;
    const f = 10 ** d;
    return (Math.round(value * f) / f) as T;
  }
  if (Array.isArray(value)) return value.map((v) => rounded(v, key)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v, k)])) as T;
  }
  return value;
}
