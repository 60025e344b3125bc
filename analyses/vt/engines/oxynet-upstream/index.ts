/**
 * pyoxynet's own pipeline around the Oxynet CNN, kept as a named, reproducible variant (card
 * `oxynet-cnn`): its preprocessing, its column assignment, its VT rule with the 40-s shift and its
 * own smoothed VO2 (engines/oxynet/upstream.ts; Zignoli et al., Eur J Sport Sci 2022). It is not the
 * service's decision rule: it reproduces upstream, failure modes included (the columns are assigned
 * per test from its first and last rows, so a test that ends soon after VT2 can put VT2 before VT1).
 * The only departure: a VT2 without a VT1 is not reported, as for every vt model.
 */
import type { Engine, PlacedThreshold } from '../engine.js';
import { InferenceError, loadedSession } from '../onnx-session.js';
import { APP_STRIDE, upstreamThresholds, type UpstreamThreshold } from '../oxynet/upstream.js';

export const oxynetUpstream: Engine = {
  id: 'oxynet-upstream',
  family: 'learned',
  answers: 'thresholds',
  async run({ model, rec, test }) {
    const session = await loadedSession(model);
    let r;
    try {
      r = await upstreamThresholds(rec, session, APP_STRIDE);
    } catch (err) {
      throw new InferenceError(`model ${model.card.name} ${model.card.version} could not run on this recording: ${(err as Error).message}`);
    }
    const placed = (v: UpstreamThreshold): PlacedThreshold | null => (v.found ? { index: v.time_s - test.t0_s, vo2_ml_min: v.vo2_ml_min } : null);
    const vt1 = placed(r.vt1);
    const why = (v: UpstreamThreshold) => (v.found ? `row ${v.row}` : v.reason);
    return {
      kind: 'thresholds',
      vt1,
      vt2: vt1 === null ? null : placed(r.vt2),
      evidence: {
        method:
          "pyoxynet's rule: columns assigned per test from the first and last 5 smoothed rows; VT1 at the first row where heavy reaches moderate, VT2 at the last row where severe is at most heavy, each moved back to its window's start; VO2 smoothed by pyoxynet's optimal_filter",
        input: r.input,
        stride_s: r.stride,
        columns: r.columns,
        vt1_row: why(r.vt1),
        vt2_row: why(r.vt2),
      },
    };
  },
};
