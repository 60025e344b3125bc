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
import { protocolFor } from '../../src/signal/phases.js';
import type { ProtocolInput, ProtocolKind as TestKind } from '../../src/signal/protocol.js';
import { readProtocol, type ProtocolKind, type ProtocolReading as StepReading, type Span } from './protocol.js';
import { clockBins, exerciseSpan, stageWindows, type Onset, type RawWindow } from './windows.js';

/** Version of this method; reported as the model version in provenance. */
export const METHOD_VERSION = '2.0.0';

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

/** A window as reported: rates outside what oxidation can be (a negative rate, a fat share outside 0-100 %) are withheld as null. */
export type ReportedWindow = Omit<SubstrateWindow, 'fat_g_min' | 'cho_g_min' | 'pct_ee_fat'> & {
  fat_g_min: number | null;
  cho_g_min: number | null;
  pct_ee_fat: number | null;
  /** True when the rates were withheld as impossible (see the `impossible_values` flag). */
  withheld: boolean;
};

/** The fitted curve: fat oxidation (g/min) = a x + b x^2 + c x^3, x the fraction of VO2peak. */
export interface FatmaxFit {
  model: 'cubic through the origin';
  a: number;
  b: number;
  c: number;
  r2: number;
  n: number;
  /** Range of the fitted windows, %VO2peak. */
  pct_vo2peak_from: number;
  pct_vo2peak_to: number;
}

/** The measured maximum: the window (below RER 1.0, rates possible) with the highest fat oxidation, and the fitted curve's value there. */
export interface MeasuredFatPeak {
  t_start: number;
  t_end: number;
  pct_vo2peak: number;
  fat_g_min: number;
  fitted_fat_g_min: number;
  /** True when the highest window is the first or last fitted window: the peak may lie outside the tested range. */
  at_edge: boolean;
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
      fit: FatmaxFit;
      measured: MeasuredFatPeak;
    }
  | {
      found: false;
      axis: 'pct_vo2peak';
      reason: string;
      fit_r2_fat: number | null;
      fit_r2_cho: number | null;
      n_fit_windows: number;
      fit: FatmaxFit | null;
      measured: MeasuredFatPeak | null;
    };

/** The `findings` of a substrate envelope (field names from the reference service). */
export interface SubstrateFindings {
  /** Highest 30-s mean VO2 of the whole recording, L/min: the reference for %VO2peak. */
  vo2peak: number;
  window_source: 'protocol stages' | 'clock bins' | 'constant bouts';
  /** Length of each averaged window, s (the stage tail for stages, the bin for clock bins). */
  window_s: number;
  n_windows: number;
  /** How the load was applied: steps or a ramp (incremental tests), constant bouts, an interval session, or unknown. Never "steps" for constant bouts. */
  protocol: ProtocolKind | 'constant' | 'interval';
  /** The test's kind as every analysis reads it (src/signal/protocol.ts), and what it rests on. */
  protocol_kind: TestKind;
  protocol_source: string;
  /** The caller's protocol input, when one was given (it overrides the reading). */
  protocol_input: ProtocolInput | null;
  /** Constant-load bouts (constant tests only; empty otherwise). */
  bouts: { t_start: number; t_end: number }[];
  /** True only on a stepped protocol or constant bouts; a ramp never reaches steady state. */
  steady_state: boolean;
  exercise: { t_start: number; t_end: number };
  /** Where the analysed span starts and why. */
  onset: Onset;
  windows: ReportedWindow[];
  fatmax: Fatmax;
  crossover: Crossover;
  efficiency: Efficiency;
  flags: SubstrateFlag[];
  method: string[];
}

/** The refusal codes the spec lists for substrate (section 7). */
export type SubstrateRefusal = 'MISSING_CHANNEL' | 'INSUFFICIENT_SIGNAL' | 'SUBSTRATE_FAILED';

/** What `analyseSubstrate` returns: findings with notes, or a refusal with its context. */
export type SubstrateResult = { status: 'ok'; findings: SubstrateFindings; notes: string[] } | { status: 'refused'; error: SubstrateRefusal; message: string; context: Record<string, unknown> };

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
export function analyseSubstrate(rec: Recording, overrides: Partial<SubstrateOptions> = {}, protocolInput: ProtocolInput | null = null): SubstrateResult {
  try {
    return analyse(rec, resolveOptions(overrides), protocolInput);
  } catch (err) {
    return { status: 'refused', error: 'SUBSTRATE_FAILED', message: `The substrate analysis failed: ${(err as Error).message}`, context: {} };
  }
}

function analyse(rec: Recording, opts: SubstrateOptions, protocolInput: ProtocolInput | null): SubstrateResult {
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

  // 2. Exercise from its onset: the end of the warm-up (unloaded pedalling) or of a warm-up bout; rest, warm-up and recovery dropped.
  const test = protocolFor(rec, protocolInput);
  const ex = exerciseSpan(rec);
  if (!ex.phases_found) flags.push(flag('phases_not_found', 'info', 'phases could not be told apart: the whole recording is treated as exercise.'));
  if (ex.dropped.length > 0) flags.push(flag('trimmed_to_exercise', 'info', `${ex.dropped.join(' and ')} dropped.`));
  flags.push(flag('onset', 'info', ONSET_DETAIL[ex.onset](ex.span.t_start_s)));

  // 3. Load in watts, and the protocol.
  const load = loadStatus(rec, ex.span, opts);
  if (load.reason !== null) flags.push(flag('no_load', 'info', `${load.reason} Windows are placed against %VO2peak only and gross efficiency is unavailable.`));
  const withLoad = load.reason === null;
  const workChannels: ChannelName[] = [];
  if (withLoad) workChannels.push('Load');
  for (const name of ['Speed', 'Grade'] as const) if (rec.channels[name]) workChannels.push(name);
  let stepping: StepReading | null = null;
  let protocol: SubstrateFindings['protocol'];
  if (test.kind === 'constant') {
    protocol = 'constant';
    flags.push(
      flag(
        'constant_load',
        'warning',
        `${test.detail} Each bout is one intensity, summarised by the mean of its last part; FATMAX and the crossover need a range of intensities and are not read from bouts.`,
      ),
    );
  } else {
    stepping = test.input ? fromInput(test.input, ex.span, opts, rec.sampling.raw_interval_s ?? 0) : readProtocol(rec, ex.span, workChannels, opts);
    protocol = test.kind === 'interval' ? 'interval' : stepping.kind;
    if (test.input) flags.push(flag('protocol_from_request', 'info', test.detail));
    if (test.kind === 'interval') {
      flags.push(flag('interval_protocol', 'warning', `${test.detail} The windows mix work bouts and pauses: FATMAX and the crossover do not describe a graded test.`));
    } else if (stepping.kind === 'ramp') {
      flags.push(flag('ramp_protocol', 'warning', `${stepping.detail} A ramp never reaches steady state: FATMAX reads high and is not comparable with a graded test.`));
    } else if (stepping.kind === 'unknown') {
      flags.push(flag('protocol_unknown', 'warning', `${stepping.detail} Steady state is not established.`));
    }
  }

  // 4. Windows: constant bouts, else stages when the work rate (or the caller) gives them, else clock bins.
  let raw: RawWindow[];
  let window_source: SubstrateFindings['window_source'];
  let window_s: number;
  if (test.kind === 'constant') {
    // A bout is summarised as a stage is: the mean of its last part, where VO2 has settled.
    const bouts = stageWindows(rec, test.bouts, opts, withLoad);
    raw = bouts.windows;
    window_source = 'constant bouts';
    window_s = bouts.tail_s;
  } else if (stepping && stepping.stages.length > 0) {
    const staged = stageWindows(rec, stepping.stages, opts, withLoad);
    raw = staged.windows;
    window_source = 'protocol stages';
    window_s = staged.tail_s;
  } else {
    window_s = Math.max(opts.bin_s, rec.sampling.raw_interval_s ?? 0);
    raw = clockBins(rec, ex.span, window_s, withLoad);
    window_source = 'clock bins';
    if (stepping?.kind === 'steps') {
      flags.push(flag('stages_not_located', 'warning', 'VO2 shows plateaus but no work-rate channel places the stages: clock bins may straddle stage changes.'));
    }
  }

  // 5. Per-window rates; impossible ones withheld.
  // The service's one VO2peak (src/metrics/vo2peak.ts), so %VO2peak here matches vo2max, vt and the page.
  const vo2peak_l_min = (vo2Peak(rec)?.value ?? Number.NaN) / 1000;
  const windows = raw.map((w) => toWindow(w, vo2peak_l_min));
  const possible = windows.filter(isPossible);
  const impossible = windows.length - possible.length;
  if (impossible > 0) {
    flags.push(
      flag(
        'impossible_values',
        'warning',
        `${impossible} of ${windows.length} windows give a negative fat or carbohydrate rate (a share of energy from fat outside 0-100 %), which oxidation cannot produce: their rates are withheld (null) and left out of FATMAX, the crossover and efficiency. RER below 0.70 (hyperventilation, fasting ketosis or a gas calibration problem) or above 1.0 (CO2 from buffering) causes it.`,
      ),
    );
  }
  const fitWindows = possible.filter((w) => w.fat_valid && w.pct_vo2peak > 0);
  const above = windows.length - windows.filter((w) => w.fat_valid).length;
  if (above > 0) {
    flags.push(flag('rer_above_one', 'warning', `${above} of ${windows.length} windows above RER 1.0: their fat rate is an upper bound, left out of the FATMAX fit.`));
  }
  const below07 = windows.filter((w) => w.rer < 0.7).length;
  if (below07 > 0) {
    flags.push(flag('rer_below_0_70', 'warning', `${below07} windows below RER 0.70, outside the range of the equations: hyperventilation, fasting ketosis or a gas calibration problem.`));
  }
  const crossover = (): Crossover => findCrossover(possible.map((w) => ({ pct_vo2peak: w.pct_vo2peak, pct_ee_fat: w.pct_ee_fat, rer: w.rer, load_w: w.load_w ?? null })));
  const efficiencyInputs = possible.map((w) => ({ t_start_s: w.t_start, load_w: w.load_w ?? null, fat_g_min: w.fat_g_min, cho_g_min: w.cho_g_min, fat_valid: w.fat_valid }));
  const findingsBase = {
    vo2peak: vo2peak_l_min,
    window_source,
    window_s,
    n_windows: windows.length,
    protocol,
    protocol_kind: test.kind,
    protocol_source: test.source,
    protocol_input: test.input,
    bouts: test.kind === 'constant' ? test.bouts.map((b) => ({ t_start: b.t_start_s, t_end: b.t_end_s })) : [],
    steady_state: protocol === 'steps' || protocol === 'constant',
    exercise: { t_start: ex.span.t_start_s, t_end: ex.span.t_end_s },
    onset: ex.onset,
    windows: windows.map(reported),
    flags,
    method: [...METHOD],
  };
  if (test.kind === 'constant') {
    if (windows.length === 0) {
      return { status: 'refused', error: 'INSUFFICIENT_SIGNAL', message: `${test.detail} No bout holds both gases to average.`, context: { protocol: test.kind, bouts: test.bouts.length } };
    }
    const reason = 'constant-load bouts: one intensity per bout, so there is no curve of fat oxidation against intensity to fit.';
    return {
      status: 'ok',
      findings: rounded({
        ...findingsBase,
        fatmax: { found: false, axis: 'pct_vo2peak', reason, fit_r2_fat: null, fit_r2_cho: null, n_fit_windows: 0, fit: null, measured: null },
        crossover: { found: false, reason },
        efficiency: grossEfficiency(efficiencyInputs, load.reason, null, 'FATMAX is not read from constant bouts.'),
      }),
      notes,
    };
  }
  const context = { windows_below_rer_one: fitWindows.length, needed: opts.min_fit_windows, n_windows: windows.length, window_source, window_s, protocol: test.kind };
  if (fitWindows.length < opts.min_fit_windows) {
    return {
      status: 'refused',
      error: 'INSUFFICIENT_SIGNAL',
      message: `Only ${fitWindows.length} windows below RER 1.0 with possible rates (${windows.length} in all, ${window_source} of ${window_s} s); the FATMAX fit needs at least ${opts.min_fit_windows}.`,
      context,
    };
  }
  const xs = fitWindows.map((w) => w.pct_vo2peak / 100);
  const xLo = Math.min(...xs);
  const xHi = Math.max(...xs);
  const range_pct = 100 * (xHi - xLo);
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

  // 6. FATMAX from the cubic fits, with the measured maximum beside it.
  const fatFit = fitCubicThroughOrigin(
    xs,
    fitWindows.map((w) => w.fat_g_min),
  );
  const choFit = fitCubicThroughOrigin(
    xs,
    fitWindows.map((w) => w.cho_g_min),
  );
  if (!fatFit || !choFit) {
    return { status: 'refused', error: 'SUBSTRATE_FAILED', message: 'The cubic fits of fat and carbohydrate oxidation against intensity are singular.', context };
  }
  const fit: FatmaxFit = { model: 'cubic through the origin', a: fatFit.a, b: fatFit.b, c: fatFit.c, r2: fatFit.r2, n: fatFit.n, pct_vo2peak_from: 100 * xLo, pct_vo2peak_to: 100 * xHi };
  const top = fitWindows.reduce((best, w) => (w.fat_g_min > best.fat_g_min ? w : best), fitWindows[0]);
  const measured: MeasuredFatPeak = {
    t_start: top.t_start,
    t_end: top.t_end,
    pct_vo2peak: top.pct_vo2peak,
    fat_g_min: top.fat_g_min,
    fitted_fat_g_min: evalCubic(fatFit, top.pct_vo2peak / 100),
    at_edge: top.pct_vo2peak / 100 === xLo || top.pct_vo2peak / 100 === xHi,
  };
  const loadLine = withLoad
    ? linearFit(
        fitWindows.map((w) => w.pct_vo2peak),
        fitWindows.map((w) => w.load_w ?? Number.NaN),
      )
    : null;
  const peak = interiorMaximum(fatFit, xLo, xHi);
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
      fit,
      measured,
    };
    if (loadAt !== null) atFatmax = { load_w: loadAt, fat_g_min: peak.y, cho_g_min: cho };
  } else {
    fatmax = { found: false, axis: 'pct_vo2peak', reason: peak.reason, fit_r2_fat: fatFit.r2, fit_r2_cho: choFit.r2, n_fit_windows: fitWindows.length, fit, measured };
  }

  // 7. Crossover and efficiency.
  const efficiency = grossEfficiency(efficiencyInputs, load.reason, atFatmax, peak.found ? 'no load could be placed at FATMAX.' : 'FATMAX was not found.');

  if (protocol !== 'steps') notes.push('Without steady-state stages the windows lag the work rate: FATMAX reads high and is not comparable with a graded test.');
  return { status: 'ok', findings: rounded({ ...findingsBase, fatmax, crossover: crossover(), efficiency }), notes };
}

/** How each onset is said in the `onset` flag. */
const ONSET_DETAIL: Record<Onset, (t_s: number) => string> = {
  'start of a loaded warm-up': (t) => `windows start at ${Math.round(t)} s, the start of a warm-up under load, kept as the first intensity.`,
  'end of warm-up': (t) => `windows start at ${Math.round(t)} s, the end of the warm-up (unloaded pedalling): the VO2 plateau before the sustained rise.`,
  'start of the incremental part after a warm-up bout': (t) => `windows start at ${Math.round(t)} s, where the incremental part begins after a warm-up bout.`,
  'exercise start': (t) => `windows start at ${Math.round(t)} s, the start of exercise; no warm-up was found before it.`,
  'recording start': (t) => `windows start at ${Math.round(t)} s, the start of the recording.`,
};

/** Stages from the caller's protocol: full stages of `stage_s` from the exercise onset; a ramp has none. */
function fromInput(input: ProtocolInput, span: Span, opts: SubstrateOptions, interval_s: number): StepReading {
  if (input.kind === 'ramp') return { kind: 'ramp', source: 'work rate', stages: [], short_segments: 0, detail: 'a ramp, as the request states.' };
  const stages: Span[] = [];
  // The last stage counts when it is complete to within one sample (an averaged export stamps each row at its end).
  for (let t = span.t_start_s; t + input.stage_s <= span.t_end_s + interval_s + 1e-9; t += input.stage_s) stages.push({ t_start_s: t, t_end_s: t + input.stage_s });
  const kind = input.stage_s >= opts.min_stage_s ? 'steps' : 'ramp';
  return {
    kind,
    source: 'work rate',
    stages: kind === 'steps' ? stages : [],
    short_segments: 0,
    detail: `${stages.length} stages of ${input.stage_s} s from the exercise onset, as the request states.`,
  };
}

/** Rates that oxidation can produce: neither rate negative (so the share from fat lies within 0-100 %). */
function isPossible(w: SubstrateWindow): boolean {
  return w.fat_g_min >= 0 && w.cho_g_min >= 0;
}

function reported(w: SubstrateWindow): ReportedWindow {
  if (isPossible(w)) return { ...w, withheld: false };
  return { ...w, fat_g_min: null, cho_g_min: null, pct_ee_fat: null, withheld: true };
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
