/**
 * What a recording must hold before any vt engine runs: every channel the model's card lists
 * (refused with MISSING_CHANNEL, never substituted), enough of each, fine enough sampling, and an
 * exercise phase long enough to hold a threshold, in one incremental bout (else INSUFFICIENT_SIGNAL,
 * saying what was needed).
 */
import type { RefusalCode } from '../../src/errors.js';
import type { BreathDespiking } from './card.js';
import type { ChannelName, Recording } from '../../src/recording/recording.js';
import { phasesOf, protocolOf } from '../../src/signal/phases.js';
import type { ProtocolReading } from '../../src/signal/protocol.js';
import { prepareTest, VT_CHANNELS, type PreparedTest } from './preprocess.js';

/** Each gas channel must hold measured values over at least this fraction of the 1-Hz grid. */
export const MIN_COVERAGE = 0.5;
/** Coarsest sampling accepted (s): 30-s averages still place a threshold within the gate's 60 s. */
export const MAX_INTERVAL_S = 30;
/** Shortest exercise (phase start to VO2 peak) that can hold a threshold, s. */
export const MIN_EXERCISE_S = 180;
/** Smallest rise of the smoothed VO2 over the test that counts as exercise, mL/min. */
export const MIN_VO2_RISE_ML_MIN = 400;

export type InputCheck = { ok: true; test: PreparedTest; exercise_start_index: number; notes: string[] } | { ok: false; error: RefusalCode; message: string; context: Record<string, unknown> };

/** Another model a refused recording could be read by (the web application's alternative engine). */
export interface AlternativeModel {
  name: string;
  version: string;
  inputs: readonly ChannelName[];
}

/**
 * Checks a recording against a model's inputs and prepares the 1-Hz test when it passes. A
 * MISSING_CHANNEL refusal names, in `context.alternatives`, the `alternatives` whose inputs the
 * recording holds, so the refusal says what would work.
 */
export function checkInput(
  rec: Recording,
  inputs: readonly ChannelName[],
  { alternatives = [], protocol = protocolOf(rec), despiking = 'running_median' }: { alternatives?: readonly AlternativeModel[]; protocol?: ProtocolReading; despiking?: BreathDespiking } = {},
): InputCheck {
  const missing = inputs.filter((c) => !rec.channels[c]);
  if (missing.length) {
    const reasons = Object.fromEntries(missing.map((c) => [c, rec.absent[c] ?? 'not in the recording']));
    const readers = alternatives.filter((m) => m.inputs.every((c) => rec.channels[c]));
    const context: Record<string, unknown> = { required: [...inputs], missing, reasons };
    if (readers.length) {
      context.alternatives = readers.map((m) => ({
        model: m.name,
        model_version: m.version,
        surface: 'web',
        requires: [...m.inputs],
        note: `The web application's alternative engine ${m.name} ${m.version} can read this file: it needs only ${m.inputs.join(', ')} and runs each classic criterion whose channels the file has.`,
      }));
    }
    return {
      ok: false,
      error: 'MISSING_CHANNEL',
      message: `Thresholds need ${inputs.join(', ')}; the recording lacks ${missing.join(', ')}. A missing gas channel is never substituted.${readers.length ? ` The web application's alternative engine (${readers.map((m) => m.name).join(', ')}) can read this file.` : ''}`,
      context,
    };
  }
  const interval = rec.sampling.raw_interval_s;
  if (interval !== null && interval > MAX_INTERVAL_S) {
    return insufficient(`The samples are ${interval} s apart; thresholds need samples at most ${MAX_INTERVAL_S} s apart.`, { raw_interval_s: interval, max_interval_s: MAX_INTERVAL_S });
  }
  if (rec.t_s.length < 10) return insufficient('The recording has fewer than 10 samples.', { samples: rec.t_s.length, min_samples: 10 });
  const test = prepareTest(rec, despiking);
  // Only the card's inputs must be dense: an engine that reads optional channels checks their coverage itself.
  const sparse = VT_CHANNELS.filter((c) => inputs.includes(c) && test.coverage[c] < MIN_COVERAGE);
  if (sparse.length) {
    return insufficient(`Too sparse: ${sparse.join(', ')} cover less than ${MIN_COVERAGE * 100} % of the recording.`, {
      coverage: Object.fromEntries(sparse.map((c) => [c, Math.round(test.coverage[c] * 1000) / 1000])),
      min_coverage: MIN_COVERAGE,
    });
  }
  const phases = phasesOf(rec);
  const bouts = phases?.exercise_bouts ?? 1;
  if (bouts > 1) {
    // As the landmarks metric: ventilatory thresholds are read on one incremental bout, and the
    // breakpoints of an interval test (each bout a step up from recovery) are not thresholds.
    return insufficient(`An interval test of ${bouts} exercise bouts: thresholds are read from one incremental bout of exercise.`, {
      exercise_bouts: bouts,
      needs: 'one incremental exercise bout',
      protocol: protocol.kind,
    });
  }
  if (protocol.kind === 'constant' || protocol.kind === 'interval') {
    const seen = protocol.kind === 'constant' ? 'A constant-load test' : 'An interval session';
    return insufficient(`${seen} has no incremental part (${protocol.detail}) Thresholds are read from one incremental bout of exercise.`, {
      protocol: protocol.kind,
      protocol_source: protocol.source,
      exercise_bouts: protocol.bouts.length,
      needs: 'one incremental exercise bout',
    });
  }
  const notes: string[] = [];
  if (protocol.kind === 'warmup_incremental' && protocol.incremental)
    notes.push(`A warm-up bout precedes the incremental part: thresholds are searched from ${Math.round(protocol.incremental.t_start_s)} s, where the incremental part starts.`);
  let start = 0;
  if (phases) {
    start = Math.max(0, Math.min(test.end_index, Math.round(phases.exercise.t_start_s - test.t0_s)));
  } else {
    notes.push('no exercise phase could be located; the whole recording up to the VO2 peak was searched');
  }
  const exerciseS = test.end_index - start;
  let lo = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= test.end_index; i++) lo = Math.min(lo, test.vo2[i]);
  const rise = test.vo2[test.end_index] - lo;
  if (exerciseS < MIN_EXERCISE_S || !(rise >= MIN_VO2_RISE_ML_MIN)) {
    return insufficient(
      `No usable exercise: ${Math.round(exerciseS)} s from exercise start to the VO2 peak and a VO2 rise of ${Math.round(rise)} mL/min; thresholds need at least ${MIN_EXERCISE_S} s and ${MIN_VO2_RISE_ML_MIN} mL/min.`,
      { exercise_s: Math.round(exerciseS), min_exercise_s: MIN_EXERCISE_S, vo2_rise_ml_min: Math.round(rise), min_vo2_rise_ml_min: MIN_VO2_RISE_ML_MIN },
    );
  }
  return { ok: true, test, exercise_start_index: start, notes };
}

function insufficient(message: string, context: Record<string, unknown>): InputCheck {
  return { ok: false, error: 'INSUFFICIENT_SIGNAL', message, context };
}
