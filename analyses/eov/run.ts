/**
 * The EOV pipeline: preconditions, grid, detrend, Morlet scalogram against the recording's own
 * red-noise background, ridges traced into events, evidence per event, grading, wording.
 */
import type { AnalysisOutcome, AnalysisRequest, ModelRef } from '../../src/analyses/analysis-plugin.js';
import { durationS, type Recording } from '../../src/recording/recording.js';
import { phasesOf } from '../../src/signal/phases.js';
import { GRADED_PERIOD_MAX_S } from '../../src/signal/oscillation-band.js';
import { eventBand, eventSpectrum, measureEvent, sideSpectra, type GridChannels, type MeasuredEvent, type SideSpectra } from './evidence.js';
import { gasQuality } from './gas-quality.js';
import { grade, type ExerciseSpan } from './grading.js';
import { medicationAdjustment } from './medications.js';
import { admit, MIN_COVERAGE, MIN_USABLE_S } from './preconditions.js';
import { traceRidges } from './ridges.js';
import { buildScalogram, CLARITY_RIDGE, periodGrid } from './scalogram.js';
import { centredMean, detrend, detrendPoints, toGrid } from './series.js';
import { headline, summary } from './wording.js';

/** The method's name and version, reported in provenance as `model`. */
export const EOV_MODEL: ModelRef = { name: 'eov-cwt', version: '0.1.0' };
/**
 * A traced ridge is an event only when it lasts this many of its own periods and its mean clarity,
 * against the whole recording's noise and against the noise where it happens, holds the ridge level.
 */
const MIN_EVENT_CYCLES = 3;
/**
 * Widest half-power band (longest over shortest period) of an oscillation: a pure tone spans about
 * 1.3 through this Morlet, broadband noise spreads over octaves.
 */
const MAX_BAND_RATIO = 2;
/** The peak period may fall slightly below the shortest voice a ridge visited (parabolic refinement). */
const SCREEN_MARGIN = 0.9;
/** Finest grid spacing, s: breath-by-breath timing carries nothing faster that EOV needs. */
const MIN_GRID_DT_S = 0.5;
/** Longest grid (points), which bounds memory and time whatever the sampling claims. */
const MAX_GRID_POINTS = 1 << 16;
/** Work-rate channels that can impose their own period on VE (stages of a protocol). */
const WORK_CHANNELS = ['Load', 'Speed', 'Grade'] as const;
/** Window for estimating resting VE when no rest phase is found, s. */
const REST_WINDOW_S = 60;

const RESEARCH_NOTE = 'Research finding (beta): every output is a research finding, and its transportability to other populations is untested.';
const RATER_NOTE = 'Human raters agree poorly on EOV (kappa 0.30-0.43, Brawner 2018): read the definitions and their reasons, not only the grade.';

/**
 * Outcomes by recording and medication list (the only part of a request the analysis reads). The vt
 * analysis grades the same recording for its oscillation note (analyses/vt/oscillation-note.ts), so
 * an analyze-all ran the wavelet analysis twice: a quarter of its time at 20,000 samples (issue 23).
 * A recording is not changed once read (as the phases memo in src/signal/phases.ts assumes).
 */
const outcomes = new WeakMap<Recording, Map<string, AnalysisOutcome>>();

/** Runs the EOV analysis on a recording, once per recording and medication list; refusals come back as `not_analysable`. Each caller gets its own copy. */
export async function runEov(rec: Recording, request: AnalysisRequest): Promise<AnalysisOutcome> {
  const byMedications = outcomes.get(rec) ?? new Map<string, AnalysisOutcome>();
  outcomes.set(rec, byMedications);
  const key = JSON.stringify(request.medications ?? null);
  let outcome = byMedications.get(key);
  if (!outcome) {
    outcome = eovOutcome(rec, request);
    byMedications.set(key, outcome);
  }
  return structuredClone(outcome);
}

function eovOutcome(rec: Recording, request: AnalysisRequest): AnalysisOutcome {
  const admitted = admit(rec);
  if ('error' in admitted) return { status: 'not_analysable', ...admitted, notes: [RESEARCH_NOTE], model: EOV_MODEL };
  try {
    return analyse(rec, request, admitted);
  } catch (err) {
    return {
      status: 'not_analysable',
      error: 'EOV_FAILED',
      message: `The oscillation analysis could not complete: ${err instanceof Error ? err.message : String(err)}.`,
      context: { stage: 'wavelet analysis' },
      notes: [RESEARCH_NOTE],
      model: EOV_MODEL,
    };
  }
}

function analyse(rec: Recording, request: AnalysisRequest, admitted: Exclude<ReturnType<typeof admit>, { error: unknown }>): AnalysisOutcome {
  const notes = [RESEARCH_NOTE, ...admitted.notes];
  // 1. Phases: exercise for the burden, rest for the Corrà amplitude reference. The grid stops at
  //    the end of exercise: the fall of VE after peak is a transient the detrend cannot remove, and
  //    the definitions grade exercise only.
  const phases = phasesOf(rec);
  if (!phases) notes.push('No exercise phase could be found: the whole recording is treated as exercise.');
  else notes.push(`Exercise runs from ${Math.round(phases.exercise.t_start_s)} s to ${Math.round(phases.exercise.t_end_s)} s (phases from ${phases.method}).`);
  const t0 = rec.t_s[0];
  const exerciseEnd = phases ? phases.exercise.t_end_s : rec.t_s[rec.t_s.length - 1];
  const cutAtExercise = exerciseEnd - t0 >= MIN_USABLE_S && exerciseEnd < rec.t_s[rec.t_s.length - 1];
  const duration = cutAtExercise ? exerciseEnd - t0 : durationS(rec);
  if (cutAtExercise) notes.push(`Recovery (after ${Math.round(exerciseEnd)} s) is not analysed.`);
  // 2. The grid at the raw interval.
  let dt = Math.max(admitted.grid_dt_s, MIN_GRID_DT_S);
  if (duration / dt + 1 > MAX_GRID_POINTS) {
    dt = duration / (MAX_GRID_POINTS - 1);
    notes.push(`The analysis grid was coarsened to ${dt.toFixed(2)} s to stay within ${MAX_GRID_POINTS} points.`);
  }
  const n = Math.floor(duration / dt + 1e-9) + 1;
  const onGrid = (values: (number | null)[]): Float64Array => toGrid(rec.t_s, values, t0, dt, n);
  const ve = onGrid(rec.channels.VE!.values);
  const petco2 = onGrid(rec.channels.PetCO2!.values);
  const rfValues = rec.channels.RF?.values;
  const rfCoverage = rfValues ? rfValues.filter((v) => v !== null && Number.isFinite(v)).length / rfValues.length : 0;
  const rf = rfValues && rfCoverage >= MIN_COVERAGE ? onGrid(rfValues) : null;
  if (!rf) notes.push('No usable breathing frequency: the drive split between rate and tidal volume is not reported.');
  const work = WORK_CHANNELS.flatMap((name) => {
    const values = rec.channels[name]?.values;
    if (!values || values.filter((v) => v !== null && Number.isFinite(v)).length < MIN_COVERAGE * values.length) return [];
    return [{ name, values: onGrid(values) }];
  });
  // 3. Detrend with a centred moving average of about a minute.
  const points = detrendPoints(dt);
  const veTrend = centredMean(ve, points);
  const g: GridChannels = {
    t0_s: t0,
    dt_s: dt,
    ve,
    ve_detrended: detrend(ve, points),
    ve_trend: veTrend,
    petco2,
    petco2_detrended: detrend(petco2, points),
    rf,
    work,
    detrend_points: points,
  };
  // 4. Scalogram over the resolvable band and its significant ridges.
  const lo = Math.max(admitted.band.period_floor_s, 4 * dt);
  const scalogram = buildScalogram(g.ve_detrended, dt, periodGrid(lo, GRADED_PERIOD_MAX_S), points);
  const gas = gasQuality(rec);
  const events: MeasuredEvent[] = [];
  // The companion spectra are needed only once some ridge qualifies as an event.
  let side: SideSpectra | null = null;
  for (const track of traceRidges(scalogram)) {
    // Cheap screen first: a ridge shorter than three of the shortest periods it visited cannot qualify.
    let shortest = Number.POSITIVE_INFINITY;
    for (const j of track.j) shortest = Math.min(shortest, scalogram.periods_s[j]);
    if ((track.i[track.i.length - 1] - track.i[0]) * dt < MIN_EVENT_CYCLES * shortest * SCREEN_MARGIN) continue;
    // The event criteria read the figures as reported; band and length need no wavelet row, so they go first.
    const band = eventBand(scalogram, track);
    const peaked = band.reported.period_hi_s / band.reported.period_lo_s <= MAX_BAND_RATIO;
    if (!(peaked && band.reported.duration_s >= MIN_EVENT_CYCLES * band.reported.period_peak_s)) continue;
    const spectrum = eventSpectrum(scalogram, band);
    if (!(Math.min(spectrum.reported_clarity, spectrum.local_clarity) >= CLARITY_RIDGE)) continue;
    side ??= sideSpectra(g, scalogram.spectrum);
    events.push(measureEvent(spectrum, g, side, admitted.band.period_floor_s, gas.verdict !== 'poor'));
  }
  const index = (t: number): number => Math.min(n - 1, Math.max(0, Math.round((t - t0) / dt)));
  const exercise: ExerciseSpan = phases ? { from: index(phases.exercise.t_start_s), to: index(phases.exercise.t_end_s) } : { from: 0, to: n - 1 };
  const restVe = restingVe(g, phases?.rest ?? null, exercise, notes);
  // 5. Strongest event: the strongest graded one, else the strongest faster one.
  const byStrength = (a: MeasuredEvent, b: MeasuredEvent): number => b.strength - a.strength || a.i0 - b.i0;
  const graded = events.filter((e) => e.event.graded).sort(byStrength);
  const strongest = graded[0] ?? [...events].sort(byStrength)[0] ?? null;
  const grading = grade(events, exercise, restVe, strongest);
  const meds = medicationAdjustment(request.medications);
  if (meds.unrecognised.length) {
    notes.push(`Medication${meds.unrecognised.length > 1 ? 's' : ''} not recognised: ${meds.unrecognised.join(', ')}; accepted with no burden adjustment (factor 1.0).`);
  }
  if (meds.recognised.length) notes.push(`Medication burden adjustment factors are all 1.0 for now (${meds.recognised.join(', ')}).`);
  if (strongest && !strongest.event.corroborated) notes.push('PetCO2 does not move in antiphase with the strongest oscillation: it is not corroborated by gas exchange.');
  notes.push(RATER_NOTE);
  const event = strongest?.event ?? null;
  return {
    status: 'ok',
    findings: {
      grade: grading.grade,
      headline: headline(grading, event),
      summary: summary(grading, event),
      definitions: grading.definitions,
      burden: round(grading.burden * meds.factor, 3),
      corra_fraction: round(grading.corra_fraction, 3),
      resting_ve_l_min: round(restVe, 2),
      event,
      events: events
        .slice()
        .sort((a, b) => a.i0 - b.i0)
        .map((e) => ({
          t_start: e.event.t_start,
          t_end: e.event.t_end,
          period_peak_s: e.event.period_peak_s,
          clarity: e.event.clarity,
          amplitude_l_min: e.event.amplitude_l_min,
          graded: e.event.graded,
        })),
      period_floor_s: admitted.band.period_floor_s,
      period_ceiling_s: admitted.band.period_ceiling_s,
      band_narrowed: admitted.band.band_narrowed,
      sampling_interval_s: round(admitted.sampling_interval_s, 3),
      gas_quality: gas.verdict,
      gas_quality_note: gas.note,
      medications: meds,
      method:
        'VE on a uniform grid at the raw interval up to the end of exercise, minus its centred 60-s moving average; Morlet wavelet (omega0 = 6) power read against a red-noise background fitted to the recording (Torrence and Compo 1998); an event is a ridge of clarity >= 4.6 lasting >= 3 periods with a spectral peak; graded at 40-140 s unless a work-rate channel drives it.',
    },
    notes,
    model: EOV_MODEL,
  };
}

/** Mean VE over the rest phase; without one, the lowest 60-s mean before exercise (said in notes). */
function restingVe(g: GridChannels, rest: { t_start_s: number; t_end_s: number } | null, exercise: ExerciseSpan, notes: string[]): number {
  const n = g.ve.length;
  const index = (t: number): number => Math.min(n - 1, Math.max(0, Math.round((t - g.t0_s) / g.dt_s)));
  if (rest) {
    const a = index(rest.t_start_s);
    const b = index(rest.t_end_s);
    if (b > a) {
      let s = 0;
      for (let i = a; i <= b; i++) s += g.ve[i];
      return s / (b - a + 1);
    }
  }
  const win = Math.max(1, Math.round(REST_WINDOW_S / g.dt_s));
  const smooth = centredMean(g.ve, 2 * Math.floor(win / 2) + 1);
  const end = exercise.from > win ? exercise.from : n - 1;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= end; i++) best = Math.min(best, smooth[i]);
  notes.push(
    exercise.from > win
      ? 'No rest phase was found: resting VE is estimated as the lowest 60-s mean VE before exercise.'
      : 'No rest phase was found: resting VE is estimated as the lowest 60-s mean VE of the recording.',
  );
  return best;
}

function round(x: number, d: number): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}
