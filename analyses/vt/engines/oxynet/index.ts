import { averagedSmoothingOf, compensationSearchOf } from '../../card.js';
import type { Engine } from '../engine.js';
import { InferenceError, loadedSession } from '../onnx-session.js';
import { oxynetCurves, readingOf, type RunWindows } from './curves.js';
import { REFERENCE_TAIL_S } from './reference-range.js';
import { runOxynet } from './run.js';
import { runOxynetShared } from './shared-run.js';
import { releaseSplitSessions, splitSessionsFor } from './split-sessions.js';
import { buildWindows } from './windows.js';

/** The Oxynet CNN read as per-second domain curves (curves.ts), for a decision rule to place thresholds on. */
export const oxynetCnn: Engine = {
  id: 'oxynet-cnn',
  family: 'learned',
  answers: 'curves',
  async warmUp(model) {
    await splitSessionsFor(model);
  },
  release: releaseSplitSessions,
  async run({ model, rec, test, exercise_start_index }) {
    const reading = readingOf(model);
    const session = await loadedSession(model);
    let split;
    try {
      split = await splitSessionsFor(model);
    } catch (err) {
      throw new InferenceError(`model ${model.card.name} ${model.card.version} could not be loaded: ${(err as Error).message}`);
    }
    const windows: RunWindows = split ? (channels, starts) => runOxynetShared(split, channels, starts) : (channels, starts) => runOxynet(session, buildWindows(channels, starts), starts.length);
    let r;
    try {
      r = await oxynetCurves(windows, rec, test, reading, exercise_start_index, averagedSmoothingOf(model.card), compensationSearchOf(model.card));
    } catch (err) {
      throw new InferenceError(`model ${model.card.name} ${model.card.version} could not run on this recording: ${(err as Error).message}`);
    }
    return {
      kind: 'curves',
      curves: r.curves,
      evidence: {
        engine: 'Oxynet CNN (Zignoli et al. 2022)',
        input: r.input,
        windows: r.windows,
        curves_until_s: test.t0_s + r.last_index,
        // Named only by cards that read the tail, so older versions' findings stay as their cards recorded them.
        ...(reading.tail === 'edge_padded' ? { padded_windows: r.padded_windows } : {}),
        ...(reading.scaling_range === 'reference_tail' ? { scaling: { range: 'reference_tail', compensation_s: r.scaling_compensation_s, reference_tail_s: REFERENCE_TAIL_S } } : {}),
        ...(r.breathing_rate ? { breathing_rate: r.breathing_rate } : {}),
      },
    };
  },
};
