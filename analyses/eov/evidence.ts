/**
 * Measures one traced oscillation: period and band, amplitude, cycles, envelope, PetCO2 phase and
 * coupling, rate against volume drive, and a loop-gain margin. Inputs are grid series; times in s.
 */
import { GRADED_PERIOD_MAX_S, GRADED_PERIOD_MIN_S } from '../../src/signal/oscillation-band.js';
import { scaleForPeriod, spectrumLike, waveletRow, type Spectrum, type WaveletRow } from './morlet.js';
import type { Track } from './ridges.js';
import { CLARITY_SIGNIFICANT, noiseBackground, type NoiseBackground, type Scalogram } from './scalogram.js';
import { centredMean, detrend, detrendGain, fitRedNoise } from './series.js';

/** Leite et al. 2003: at least 3 regular cycles. */
export const LEITE_MIN_CYCLES = 3;
/** Leite et al. 2003: cycle-length SD at most 20 % of the mean. */
export const LEITE_MAX_CYCLE_CV = 0.2;
/** Leite et al. 2003: mean amplitude at least 5 L/min. */
export const LEITE_MIN_AMPLITUDE_L_MIN = 5;
/** Relative change of the amplitude (as % of VE) over an event that counts as growing or waning. */
const ENVELOPE_CHANGE = 0.3;
/** PetCO2 within this many degrees of antiphase corroborates (half a quadrant of lag allowed). */
const ANTIPHASE_TOLERANCE_DEG = 60;
/** Within this many degrees of antiphase, with coherence above TIGHT_COHERENCE, coupling is tight. */
const TIGHT_TOLERANCE_DEG = 30;
const TIGHT_COHERENCE = 0.8;
/** Squared wavelet coherence below which PetCO2 does not follow VE at the event's period. */
const MIN_COHERENCE = 0.5;

/** The channels on the analysis grid, with their shared spacing. */
export interface GridChannels {
  t0_s: number;
  dt_s: number;
  ve: Float64Array;
  /** VE minus its centred moving average: what the scalogram analyses. */
  ve_detrended: Float64Array;
  ve_trend: Float64Array;
  petco2: Float64Array;
  petco2_detrended: Float64Array;
  /** Breathing frequency on the grid, or null when the recording has none. */
  rf: Float64Array | null;
  /** Work-rate channels (Load, Speed, Grade) on the grid, to tell stage-driven swings from EOV. */
  work: { name: string; values: Float64Array }[];
  detrend_points: number;
}

/** Spectra of the companion channels, computed once per recording and filtered per event. */
export interface SideSpectra {
  petco2: Spectrum;
  /** PetCO2's own red-noise background, for its clarity at an event's period. */
  petco2_background: NoiseBackground;
  /** Detrended log VE and log RF, for the drive split; null without breathing frequency. */
  log_ve: Spectrum | null;
  log_rf: Spectrum | null;
  /** Detrended work-rate channels. */
  work: { name: string; values: Float64Array; spectrum: Spectrum }[];
}

/** Builds the companion spectra with the same padding and FFT size as the scalogram's `like`. */
export function sideSpectra(g: GridChannels, like: Spectrum): SideSpectra {
  const petco2 = spectrumLike(g.petco2_detrended, like);
  let logVe: Spectrum | null = null;
  let logRf: Spectrum | null = null;
  if (g.rf) {
    const n = g.ve.length;
    const lve = new Float64Array(n);
    const lrf = new Float64Array(n);
    let ok = true;
    for (let i = 0; i < n && ok; i++) {
      ok = g.ve[i] > 0 && g.rf[i] > 0;
      lve[i] = Math.log(g.ve[i]);
      lrf[i] = Math.log(g.rf[i]);
    }
    if (ok) {
      logVe = spectrumLike(detrend(lve, g.detrend_points), like);
      logRf = spectrumLike(detrend(lrf, g.detrend_points), like);
    }
  }
  const work = g.work.map((w) => ({ ...w, spectrum: spectrumLike(detrend(w.values, g.detrend_points), like) }));
  return { petco2, petco2_background: noiseBackground(petco2, fitRedNoise(g.petco2_detrended), g.detrend_points), log_ve: logVe, log_rf: logRf, work };
}

/** Everything measured on one event; field names follow the public reference shape. */
export interface EovEvent {
  t_start: number;
  t_end: number;
  duration_s: number;
  period_peak_s: number;
  period_lo_s: number;
  period_hi_s: number;
  clarity: number;
  n_cycles: number;
  cycle_length_sd_pct: number | null;
  amplitude_l_min: number;
  amplitude_pct_ve: number;
  envelope: 'stable' | 'growing' | 'waning';
  phase_deg: number;
  phase_error_deg: number;
  corroborated: boolean;
  co2_coupling: string;
  co2_coherence: number;
  co2_amplitude_mmhg: number;
  co2_amplitude_pct: number;
  drive: 'respiratory rate' | 'tidal volume' | null;
  drive_rf_fraction: number | null;
  drive_vt_fraction: number | null;
  loop_gain_margin: number;
  loop_gain_method: string;
  /** The work-rate channel that swings with VE at this period (a staged protocol, not EOV), or null. */
  protocol_driven_by: string | null;
  graded: boolean;
}

/** An event with the per-point amplitude the grading needs (not reported). */
export interface MeasuredEvent {
  event: EovEvent;
  i0: number;
  i1: number;
  /** Peak-to-trough amplitude of VE at the event's period for each grid point of [i0, i1], L/min. */
  amplitude_l_min: Float64Array;
  /** Strength used to pick the strongest event: mean clarity times duration. */
  strength: number;
  /** Clarity against the noise level where the event happens (see Scalogram.weight). */
  local_clarity: number;
}

/** How the loop-gain margin is estimated, reported beside it. */
export const LOOP_GAIN_METHOD =
  'delay-loop model VE(t) = -G VE(t - T/2) + noise (Khoo et al., J Appl Physiol 1982): G is minus the autocorrelation of detrended VE at half the period over the event; 0 = stable, 1 = self-sustaining';

/** A ridge's spectral peak and band, from the scalogram alone, with the figures an event reports (rounded). */
export interface EventBand {
  i0: number;
  i1: number;
  period_s: number;
  lo_s: number;
  hi_s: number;
  /** As reported: 0.1 s. */
  reported: { period_peak_s: number; period_lo_s: number; period_hi_s: number; duration_s: number };
}

/** A ridge's band with its clarity at the peak period and the VE wavelet row there. */
export interface EventSpectrum extends EventBand {
  clarity: number;
  /** As reported: 0.1. */
  reported_clarity: number;
  /** Clarity against the noise level where the event happens (see Scalogram.weight). */
  local_clarity: number;
  /** The VE wavelet row over the event, grid points [i0, i1]. */
  row: WaveletRow;
}

/** Measures an event from its spectrum. `gasOk` false means PetCO2 may not corroborate. */
export function measureEvent(spectrum: EventSpectrum, g: GridChannels, side: SideSpectra, bandFloor_s: number, gasOk: boolean): MeasuredEvent {
  const { i0, i1, period_s: period, clarity, local_clarity: localClarity, row: ve, reported } = spectrum;
  const dt = g.dt_s;
  const gain = detrendGain(period, dt, g.detrend_points);
  // Peak-to-trough amplitude in L/min, and as a fraction of the local VE trend.
  const rel = new Float64Array(i1 - i0 + 1);
  const amp = new Float64Array(i1 - i0 + 1);
  for (let i = i0; i <= i1; i++) {
    amp[i - i0] = (4 * Math.hypot(ve.re[i - i0], ve.im[i - i0])) / gain;
    rel[i - i0] = amp[i - i0] / g.ve_trend[i];
  }
  // Amplitude and envelope from points outside the cone of influence (sqrt 2 scales from either end
  // of the grid, Torrence and Compo 1998), where the mirrored padding damps the wavelet, when at
  // least one period of such points exists.
  const coi = Math.ceil((Math.SQRT2 * scaleForPeriod(period)) / dt);
  const a = Math.max(i0, coi);
  const b = Math.min(i1, g.ve.length - 1 - coi);
  const innerRel = b - a >= period / dt ? rel.subarray(a - i0, b - i0 + 1) : rel;
  // Breath noise and EOV amplitude both scale with ventilation, so the relative amplitude read
  // inside the cone is carried to the whole event through its mean VE.
  const amplitude = meanOf(innerRel) * meanRange(g.ve_trend, i0, i1);
  // VE minus its moving average over exactly one period, which leaves that period untouched.
  const residual = detrend(g.ve, oddPoints(period / dt));
  const cycles = countCycles(residual, i0, i1, period, dt);
  const co2 = co2Evidence(g, side, ve, i0, i1, period, gain);
  const phaseOff = Math.abs(wrapDeg(co2.phase_deg - 180));
  const co2Moves = co2.clarity >= CLARITY_SIGNIFICANT && co2.coherence >= MIN_COHERENCE;
  const drive = driveSplit(side, i0, i1, period);
  const duration = (i1 - i0) * dt;
  const protocol = protocolDriver(side, ve, i0, i1, period, gain, meanOf(innerRel));
  const event: EovEvent = {
    t_start: round(g.t0_s + i0 * dt, 1),
    t_end: round(g.t0_s + i1 * dt, 1),
    duration_s: reported.duration_s,
    period_peak_s: reported.period_peak_s,
    period_lo_s: reported.period_lo_s,
    period_hi_s: reported.period_hi_s,
    clarity: spectrum.reported_clarity,
    n_cycles: cycles.n_cycles,
    cycle_length_sd_pct: cycles.cv === null ? null : round(cycles.cv * 100, 1),
    amplitude_l_min: round(amplitude, 2),
    amplitude_pct_ve: round(100 * meanOf(innerRel), 1),
    envelope: envelopeOf(innerRel),
    phase_deg: round(co2.phase_deg, 0),
    phase_error_deg: round(co2.phase_error_deg, 0),
    corroborated: gasOk && co2Moves && phaseOff <= ANTIPHASE_TOLERANCE_DEG,
    co2_coupling: couplingLabel(co2Moves, co2.coherence, co2.phase_deg),
    co2_coherence: round(co2.coherence, 2),
    co2_amplitude_mmhg: round(co2.amplitude_mmhg, 2),
    co2_amplitude_pct: round(co2.amplitude_pct, 1),
    drive: drive ? (drive.rf >= drive.vt ? 'respiratory rate' : 'tidal volume') : null,
    drive_rf_fraction: drive ? round(drive.rf, 2) : null,
    drive_vt_fraction: drive ? round(drive.vt, 2) : null,
    loop_gain_margin: round(loopGain(residual, i0, i1, period, dt), 2),
    loop_gain_method: LOOP_GAIN_METHOD,
    protocol_driven_by: protocol,
    graded: period >= GRADED_PERIOD_MIN_S && period <= GRADED_PERIOD_MAX_S && period >= bandFloor_s && protocol === null,
  };
  return { event, i0, i1, amplitude_l_min: amp, strength: clarity * duration, local_clarity: localClarity };
}

/**
 * Peak period and half-power band of the event's time-averaged wavelet power (over the local noise
 * level), with a parabola through the log-period maximum. The detrend scales a pure tone's power by
 * one constant at every scale, so the peak stays at the tone's own period. Needs no wavelet row, so
 * a ridge whose band or length already rules it out costs no transform.
 */
export function eventBand(s: Scalogram, track: Track): EventBand {
  const i0 = track.i[0];
  const i1 = track.i[track.i.length - 1];
  const m = s.periods_s.length;
  const c = new Float64Array(m);
  // Power over the local noise level, so a burst of breath noise inside the event does not smear
  // its spectrum towards the short periods.
  for (let j = 0; j < m; j++) {
    let sum = 0;
    for (let i = i0; i <= i1; i++) sum += s.power[j][i] / s.weight[i];
    c[j] = sum / (i1 - i0 + 1);
  }
  // The peak is sought along the periods the ridge itself visited, never elsewhere in the band.
  let jb = -1;
  for (const j of new Set(track.j)) if (jb < 0 || c[j] > c[jb]) jb = j;
  const logP = (j: number): number => Math.log(s.periods_s[j]);
  let peakLog = logP(jb);
  let peak = c[jb];
  if (jb > 0 && jb < m - 1) {
    const denom = c[jb - 1] - 2 * c[jb] + c[jb + 1];
    if (denom < 0) {
      const off = (0.5 * (c[jb - 1] - c[jb + 1])) / denom;
      peakLog = logP(jb) + off * (logP(jb + 1) - logP(jb));
      peak = c[jb] - 0.25 * (c[jb - 1] - c[jb + 1]) * off;
    }
  }
  const half = peak / 2;
  const edge = (dir: -1 | 1): number => {
    let j = jb;
    while (j + dir >= 0 && j + dir < m && c[j + dir] >= half) j += dir;
    if (j + dir < 0 || j + dir >= m) return s.periods_s[j];
    const f = (c[j] - half) / (c[j] - c[j + dir]);
    return Math.exp(logP(j) + f * (logP(j + dir) - logP(j)));
  };
  const period = Math.exp(peakLog);
  const lo = edge(-1);
  const hi = edge(1);
  return {
    i0,
    i1,
    period_s: period,
    lo_s: lo,
    hi_s: hi,
    reported: { period_peak_s: round(period, 1), period_lo_s: round(lo, 1), period_hi_s: round(hi, 1), duration_s: round((i1 - i0) * s.spectrum.dt_s, 1) },
  };
}

/** Clarity of the event at its peak period, against the whole recording's noise and the local noise level. */
export function eventSpectrum(s: Scalogram, band: EventBand): EventSpectrum {
  const { i0, i1, period_s } = band;
  const row = waveletRow(s.spectrum, period_s, i0, i1);
  let p = 0;
  let pLocal = 0;
  for (let i = i0; i <= i1; i++) {
    const power = row.re[i - i0] ** 2 + row.im[i - i0] ** 2;
    p += power;
    pLocal += power / s.weight[i];
  }
  const background = s.background_of(period_s) * (i1 - i0 + 1);
  const clarity = p / background;
  return { ...band, clarity, reported_clarity: round(clarity, 1), local_clarity: pLocal / background, row };
}

/** Odd number of grid points nearest `x` (at least 1), for centred windows. */
function oddPoints(x: number): number {
  return Math.max(1, 2 * Math.round(x / 2) + 1);
}

/**
 * Cycles counted in the time domain, independent of the wavelet: `residual` is VE minus its moving
 * average over exactly one period, smoothed here over a quarter period; peaks at least 0.6 periods
 * apart. Returns completed cycles and the cycle-length coefficient of variation.
 */
function countCycles(residual: Float64Array, i0: number, i1: number, period: number, dt: number): { n_cycles: number; cv: number | null } {
  const smooth = centredMean(residual, oddPoints(period / 4 / dt));
  const minSep = (0.6 * period) / dt;
  const peaks: number[] = [];
  for (let i = Math.max(i0, 1); i <= Math.min(i1, residual.length - 2); i++) {
    if (!(smooth[i] > smooth[i - 1] && smooth[i] >= smooth[i + 1] && smooth[i] > 0)) continue;
    const last = peaks[peaks.length - 1];
    if (last !== undefined && i - last < minSep) {
      if (smooth[i] > smooth[last]) peaks[peaks.length - 1] = i;
      continue;
    }
    peaks.push(i);
  }
  if (peaks.length < 3) return { n_cycles: Math.max(0, peaks.length - 1), cv: null };
  const lengths = peaks.slice(1).map((p, k) => (p - peaks[k]) * dt);
  const mean = meanOf(lengths);
  const sd = Math.sqrt(lengths.reduce((a, l) => a + (l - mean) ** 2, 0) / (lengths.length - 1));
  return { n_cycles: lengths.length, cv: sd / mean };
}

/** Envelope of the amplitude relative to VE: the fitted change over the event, as a fraction of its mean. */
function envelopeOf(rel: Float64Array): EovEvent['envelope'] {
  const n = rel.length;
  if (n < 3) return 'stable';
  const mx = (n - 1) / 2;
  const my = meanOf(rel);
  let sxy = 0;
  let sxx = 0;
  for (let k = 0; k < n; k++) {
    sxy += (k - mx) * (rel[k] - my);
    sxx += (k - mx) ** 2;
  }
  const change = ((sxy / sxx) * (n - 1)) / my;
  if (change > ENVELOPE_CHANGE) return 'growing';
  if (change < -ENVELOPE_CHANGE) return 'waning';
  return 'stable';
}

interface Co2Evidence {
  phase_deg: number;
  phase_error_deg: number;
  coherence: number;
  clarity: number;
  amplitude_mmhg: number;
  amplitude_pct: number;
}

/** PetCO2 against VE at the event's period: cross-wavelet phase, coherence, clarity, amplitude. */
function co2Evidence(g: GridChannels, side: SideSpectra, ve: WaveletRow, i0: number, i1: number, period: number, gain: number): Co2Evidence {
  const co2 = waveletRow(side.petco2, period, i0, i1);
  let cre = 0;
  let cim = 0;
  let pv = 0;
  let pc = 0;
  let ampSum = 0;
  let unitRe = 0;
  let unitIm = 0;
  for (let i = i0; i <= i1; i++) {
    // cross = co2 * conj(ve): its angle is how far PetCO2 leads VE.
    const k = i - i0;
    const xr = co2.re[k] * ve.re[k] + co2.im[k] * ve.im[k];
    const xi = co2.im[k] * ve.re[k] - co2.re[k] * ve.im[k];
    cre += xr;
    cim += xi;
    const mag = Math.hypot(xr, xi);
    if (mag > 0) {
      unitRe += xr / mag;
      unitIm += xi / mag;
    }
    pv += ve.re[k] ** 2 + ve.im[k] ** 2;
    const p = co2.re[k] ** 2 + co2.im[k] ** 2;
    pc += p;
    ampSum += (4 * Math.sqrt(p)) / gain;
  }
  const n = i1 - i0 + 1;
  const cycles = Math.max(1, ((i1 - i0) * g.dt_s) / period);
  // Circular SD of the point-wise phase difference, then the error of the mean over independent cycles.
  const r = Math.min(1, Math.hypot(unitRe, unitIm) / n);
  const circSd = r > 0 ? Math.sqrt(-2 * Math.log(r)) : Math.PI;
  const background = side.petco2_background(period);
  const amplitude = ampSum / n;
  return {
    phase_deg: (Math.atan2(cim, cre) * 180) / Math.PI,
    phase_error_deg: ((circSd / Math.sqrt(cycles)) * 180) / Math.PI,
    coherence: pv > 0 && pc > 0 ? (cre * cre + cim * cim) / (pv * pc) : 0,
    clarity: pc / n / background,
    amplitude_mmhg: amplitude,
    amplitude_pct: (100 * amplitude) / meanRange(g.petco2, i0, i1),
  };
}

/** Words for the PetCO2 coupling. */
function couplingLabel(moves: boolean, coherence: number, phase: number): string {
  if (!moves) return 'none';
  const off = Math.abs(wrapDeg(phase - 180));
  if (off <= TIGHT_TOLERANCE_DEG && coherence >= TIGHT_COHERENCE) return 'tight antiphase';
  if (off <= ANTIPHASE_TOLERANCE_DEG) return 'loose antiphase';
  if (Math.abs(wrapDeg(phase)) <= ANTIPHASE_TOLERANCE_DEG) return 'in phase';
  return 'quadrature';
}

/**
 * Share of the VE oscillation carried by breathing frequency and by tidal volume: with
 * log VE = log RF + log VT, each share is the projection of its log oscillation on that of VE.
 */
function driveSplit(side: SideSpectra, i0: number, i1: number, period: number): { rf: number; vt: number } | null {
  if (!side.log_ve || !side.log_rf) return null;
  const wv = waveletRow(side.log_ve, period, i0, i1);
  const wr = waveletRow(side.log_rf, period, i0, i1);
  let proj = 0;
  let pv = 0;
  for (let i = i0; i <= i1; i++) {
    const k = i - i0;
    proj += wr.re[k] * wv.re[k] + wr.im[k] * wv.im[k];
    pv += wv.re[k] ** 2 + wv.im[k] ** 2;
  }
  if (!(pv > 0)) return null;
  const rf = proj / pv;
  return { rf, vt: 1 - rf };
}

/**
 * A work-rate swing (as a fraction of its mean) at least this share of VE's own relative swing can
 * have driven it: VE follows work rate roughly in proportion, so a ramp's small kinks cannot.
 */
const MIN_WORK_SWING_OF_VE = 0.5;

/**
 * The work-rate channel whose own swing at the event's period is coherent with VE's: stages of a
 * step or treadmill protocol make VE rise in a staircase that a detrend turns into a periodic swing.
 */
function protocolDriver(side: SideSpectra, ve: WaveletRow, i0: number, i1: number, period: number, gain: number, veSwing: number): string | null {
  for (const w of side.work) {
    const row = waveletRow(w.spectrum, period, i0, i1);
    let cre = 0;
    let cim = 0;
    let pw = 0;
    let pv = 0;
    let amp = 0;
    let level = 0;
    for (let i = i0; i <= i1; i++) {
      const k = i - i0;
      cre += row.re[k] * ve.re[k] + row.im[k] * ve.im[k];
      cim += row.im[k] * ve.re[k] - row.re[k] * ve.im[k];
      const p = row.re[k] ** 2 + row.im[k] ** 2;
      pw += p;
      pv += ve.re[k] ** 2 + ve.im[k] ** 2;
      amp += (4 * Math.sqrt(p)) / gain;
      level += Math.abs(w.values[i]);
    }
    const coherence = pw > 0 && pv > 0 ? (cre * cre + cim * cim) / (pw * pv) : 0;
    if (coherence >= MIN_COHERENCE && level > 0 && amp / level >= MIN_WORK_SWING_OF_VE * veSwing) return w.name;
  }
  return null;
}

/**
 * Loop-gain margin by the delay-loop model (see LOOP_GAIN_METHOD), clamped to [0, 1], on VE minus
 * its moving average over one period.
 */
function loopGain(residual: Float64Array, i0: number, i1: number, period: number, dt: number): number {
  const lag = Math.max(1, Math.round(period / 2 / dt));
  if (i1 - i0 <= lag + 2) return 0;
  const m = meanRange(residual, i0, i1);
  let c0 = 0;
  let c = 0;
  for (let i = i0; i <= i1; i++) {
    const d = residual[i] - m;
    c0 += d * d;
    if (i - lag >= i0) c += d * (residual[i - lag] - m);
  }
  if (!(c0 > 0)) return 0;
  const rho = c / (i1 - i0 + 1 - lag) / (c0 / (i1 - i0 + 1));
  return Math.min(1, Math.max(0, -rho));
}

/** Angle wrapped to (-180, 180]. */
export function wrapDeg(d: number): number {
  let x = ((((d + 180) % 360) + 360) % 360) - 180;
  if (x === -180) x = 180;
  return x;
}

function meanOf(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return x.length ? s / x.length : Number.NaN;
}

function meanRange(x: Float64Array, i0: number, i1: number): number {
  let s = 0;
  for (let i = i0; i <= i1; i++) s += x[i];
  return s / (i1 - i0 + 1);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
