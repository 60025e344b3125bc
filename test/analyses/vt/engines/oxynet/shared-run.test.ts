import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOxynetSession, runOxynet } from '../../../../../analyses/vt/engines/oxynet/run.js';
import { runOxynetShared, type SplitSessions } from '../../../../../analyses/vt/engines/oxynet/shared-run.js';
import { splitOxynetGraph } from '../../../../../analyses/vt/engines/oxynet/split-graph.js';
import { buildWindows, WINDOW_S } from '../../../../../analyses/vt/engines/oxynet/windows.js';
import { PROJECT_ROOT } from '../../../../../src/plugins.js';
import type * as ort from 'onnxruntime-node';

const modelBytes = (version: string) => new Uint8Array(readFileSync(join(PROJECT_ROOT, `models/oxynet-cnn/${version}/model.onnx`)));

/** Five scaled series of `length` seconds: seeded random walks in [0, 1], as smooth as a test's channels. */
function series(length: number, seed: number): Float64Array[] {
  let s = seed;
  const next = () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
  return Array.from({ length: 5 }, () => {
    const out = new Float64Array(length);
    let v = next();
    for (let t = 0; t < length; t++) {
      v = Math.min(1, Math.max(0, v + (next() - 0.5) * 0.06));
      out[t] = v;
    }
    return out;
  });
}

function startsOf(length: number, first: number, stride: number): number[] {
  const out: number[] = [];
  for (let s = first; s + WINDOW_S <= length; s += stride) out.push(s);
  return out;
}

const sameBits = (a: Float32Array, b: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe('the Oxynet CNN with each convolution output computed once', () => {
  let whole: ort.InferenceSession;
  let split: SplitSessions;
  before(async () => {
    const bytes = modelBytes('v1.1.0');
    const parts = splitOxynetGraph(bytes);
    [whole, split] = await Promise.all([createOxynetSession(bytes), Promise.all([createOxynetSession(parts.trunk), createOxynetSession(parts.dense)]).then(([trunk, dense]) => ({ trunk, dense }))]);
  });

  for (const [length, first, stride, seed] of [
    [1014, 0, 2, 3],
    [987, 0, 2, 11],
    [1201, 1, 2, 5],
    [333, 0, 1, 7],
    [96, 3, 3, 13],
    [40, 0, 2, 17],
  ]) {
    it(`gives the whole graph's bits: ${length} s, windows from ${first} s every ${stride} s`, async () => {
      const channels = series(length, seed);
      const starts = startsOf(length, first, stride);
      const expected = await runOxynet(whole, buildWindows(channels, starts), starts.length);
      const got = await runOxynetShared(split, channels, starts);
      expect(got.length).to.equal(3 * starts.length);
      expect(sameBits(got, expected)).to.equal(true);
    });
  }

  for (const chunk of [1, 2, 7, 100]) {
    it(`gives the whole graph's bits run in chunks of at most ${chunk} windows`, async () => {
      const channels = series(1201, 19);
      const starts = startsOf(1201, 1, 2);
      const expected = await runOxynet(whole, buildWindows(channels, starts), starts.length);
      const got = await runOxynetShared(split, channels, starts, chunk);
      expect(sameBits(got, expected)).to.equal(true);
    });
  }

  it('refuses windows that do not fit the series, as buildWindows does', async () => {
    let error: unknown = null;
    await runOxynetShared(split, series(60, 1), [30]).catch((err: unknown) => {
      error = err;
    });
    expect((error as Error).message).to.match(/does not fit/);
  });

  it('finds no cut in the 1-D layout of v1.0.0, which then runs whole', () => {
    expect(() => splitOxynetGraph(modelBytes('v1.0.0'))).to.throw(/not the 2-D layout/);
  });
});
