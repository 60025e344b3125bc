import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as ort from 'onnxruntime-node';
import { createOxynetSession } from '../../../../../analyses/vt/engines/oxynet/run.js';
import { assignColumns, upstreamSeries, upstreamThresholds, type UpstreamResult, type UpstreamThreshold } from '../../../../../analyses/vt/engines/oxynet/upstream.js';
import { realTests, type RealTest } from '../../../../../scripts/train/real-tests.js';
import { PROJECT_ROOT } from '../../../../../src/plugins.js';
import { generateTest } from '../../../../../src/synthetic/generate.js';

const MODEL = join(PROJECT_ROOT, 'models/oxynet-cnn/v1.0.0/model.onnx');

/** The first breath time of the ETA fixture: our parser shifts it to t_s = 0. */
const etaFirstBreathS = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/vt/exercise_threshold_app_test.json'), 'utf8')) as { data: { t: number }[] }[])[0].data[0].t;

/** Cross-check figures of an independent re-implementation (pyoxynet models README), in each file's own time base. */
const EXPECTED = {
  csv: { vt1: [458, 3326], vt2: [662, 4113] },
  eta: { vt1: [435, 3339], vt2: [577, 4102] },
} as const;

function found(t: UpstreamThreshold): { time_s: number; vo2_ml_min: number } {
  if (!t.found) throw new Error(`threshold not found: ${t.reason}`);
  return t;
}

/** A stand-in session that returns fixed outputs, to drive the decision rule. */
function fixedSession(column: (row: number, rows: number) => [number, number, number]): ort.InferenceSession {
  return {
    run: async (feeds: Record<string, ort.Tensor>) => {
      const rows = feeds.windows.dims[0];
      const data = new Float32Array(rows * 3);
      for (let r = 0; r < rows; r++) data.set(column(r, rows), 3 * r);
      return { probabilities: { dims: [rows, 3], data } };
    },
  } as unknown as ort.InferenceSession;
}

describe('the upstream Oxynet pipeline', () => {
  let tests: RealTest[];
  let session: ort.InferenceSession;
  before(async () => {
    tests = await realTests();
    session = await createOxynetSession(MODEL);
  });
  const csv = () => tests.find((t) => t.id.includes('data_test.csv'))!;
  const eta = () => tests.find((t) => t.id.includes('exercise threshold app'))!;

  it('treats the pyoxynet CSV as a 1-Hz series as it is, and the ETA JSON as breaths', () => {
    const c = upstreamSeries(csv().recording);
    expect(c.input).to.equal('averaged');
    // The CSV's own time column (5..779) and values, unchanged: interpolation onto whole seconds is the identity.
    expect(c.time_s[0]).to.equal(5);
    expect(c.time_s.length).to.equal(775);
    expect(c.channels[0][0]).to.equal(csv().recording.channels.VO2!.values[0]);
    const e = upstreamSeries(eta().recording);
    expect(e.input).to.equal('breath_by_breath');
    expect(e.samples_used).to.equal(389);
    // np.arange(int(t0), int(t_last)): 973 whole seconds from the first breath, the last second dropped.
    expect(e.time_s[0]).to.equal(0);
    expect(e.time_s.length).to.equal(973);
  });

  it('reproduces the cross-check figures on data_test.csv (stride 2, the app)', async () => {
    const r = await upstreamThresholds(csv().recording, session);
    expect(r.columns).to.deep.equal({ moderate: 2, heavy: 0, severe: 1 });
    const [vt1, vt2] = [found(r.vt1), found(r.vt2)];
    expect(vt1.time_s).to.be.closeTo(EXPECTED.csv.vt1[0], 2);
    expect(vt1.vo2_ml_min).to.be.closeTo(EXPECTED.csv.vt1[1], 10);
    expect(vt2.time_s).to.be.closeTo(EXPECTED.csv.vt2[0], 2);
    expect(vt2.vo2_ml_min).to.be.closeTo(EXPECTED.csv.vt2[1], 10);
  });

  it('reproduces the cross-check figures on the ETA JSON, in the file time base (t_s + first breath time)', async () => {
    expect(etaFirstBreathS).to.equal(-240);
    const r = await upstreamThresholds(eta().recording, session);
    expect(r.columns).to.deep.equal({ moderate: 2, heavy: 0, severe: 1 });
    const [vt1, vt2] = [found(r.vt1), found(r.vt2)];
    expect(vt1.time_s + etaFirstBreathS).to.be.closeTo(EXPECTED.eta.vt1[0], 2);
    expect(vt1.vo2_ml_min).to.be.closeTo(EXPECTED.eta.vt1[1], 10);
    expect(vt2.time_s + etaFirstBreathS).to.be.closeTo(EXPECTED.eta.vt2[0], 2);
    expect(vt2.vo2_ml_min).to.be.closeTo(EXPECTED.eta.vt2[1], 10);
  });

  it('gives curves that start moderate and end severe on both tests, at stride 1 as at stride 2', async () => {
    for (const test of tests) {
      for (const stride of [1, 2]) {
        const r = await upstreamThresholds(test.recording, session, stride);
        const n = r.rows.time_s.length;
        expect(r.columns, `${test.id} stride ${stride}`).to.deep.equal({ moderate: 2, heavy: 0, severe: 1 });
        expect(r.rows.moderate[0]).to.be.above(r.rows.severe[0]);
        expect(r.rows.severe[n - 1]).to.be.above(r.rows.moderate[n - 1]);
        expect(r.rows.time_s[1] - r.rows.time_s[0]).to.equal(stride);
        expect(found(r.vt2).time_s).to.be.above(found(r.vt1).time_s);
      }
    }
  });

  it('gives the same bits on every run', async () => {
    const a = await upstreamThresholds(eta().recording, session);
    const b = await upstreamThresholds(eta().recording, await createOxynetSession(MODEL));
    expect(Buffer.from(a.outputs.buffer).equals(Buffer.from(b.outputs.buffer))).to.equal(true);
    expect(a.vt1).to.deep.equal(b.vt1);
    expect(a.vt2).to.deep.equal(b.vt2);
  });

  it('assigns columns by the app rule, including when moderate and severe coincide', () => {
    const col = (values: number[]) => Float64Array.from(values);
    const rows = (first: number, last: number) => col([...Array<number>(5).fill(first), ...Array<number>(5).fill(last)]);
    expect(assignColumns([rows(0.1, 0.2), rows(0.2, 0.9), rows(0.9, 0.1)])).to.deep.equal({ moderate: 2, heavy: 0, severe: 1 });
    // Column 0 leads at both ends: heavy is the later of columns 1 and 2.
    expect(assignColumns([rows(0.9, 0.9), rows(0.1, 0.2), rows(0.2, 0.1)])).to.deep.equal({ moderate: 0, heavy: 2, severe: 0 });
  });

  it('reports no crossing, and a crossing inside the first window, as not found instead of upstream 0 or a wrapped row', async () => {
    const rec = generateTest({ seed: 404, protocol: 'ramp' }).recording;
    const flat = await upstreamThresholds(
      rec,
      fixedSession(() => [0.1, 0.1, 0.9]),
    );
    expect(flat.vt1).to.deep.equal({ found: false, reason: 'no_crossing' });
    const early: UpstreamResult = await upstreamThresholds(
      rec,
      fixedSession((r, n) => [0.5, r / n, 0.5]),
    );
    expect(early.columns).to.deep.equal({ moderate: 0, heavy: 2, severe: 1 });
    expect(early.vt1).to.deep.equal({ found: false, reason: 'crossing_within_first_window' });
  });

  it('refuses a recording without one of the five channels, or too short for two windows', async () => {
    const rec = generateTest({ seed: 405, protocol: 'ramp' }).recording;
    const noPetO2 = { ...rec, channels: { ...rec.channels, PetO2: undefined } };
    expect(() => upstreamSeries(noPetO2)).to.throw(/no PetO2/);
    // The first 42 s: 42 whole seconds hold one window (starts 1 .. < 42 - 40).
    const n = rec.t_s.findIndex((t) => t > rec.t_s[0] + 42);
    const short = { ...rec, t_s: rec.t_s.slice(0, n), channels: Object.fromEntries(Object.entries(rec.channels).map(([k, v]) => [k, { ...v!, values: v!.values.slice(0, n) }])) };
    let error: Error | null = null;
    await upstreamThresholds(short, session).catch((e: Error) => (error = e));
    expect(error).to.match(/at least two are needed/);
  });
});
