import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { buildWindows, minMaxScale } from '../../../analyses/vt/engines/oxynet/windows.js';
import { upstreamSeries } from '../../../analyses/vt/engines/oxynet/upstream.js';
import { cnnToOnnx } from '../../../scripts/oxynet/cnn-graph.js';
import { realTests } from '../../../scripts/train/real-tests.js';
import { type FlatTable, rootTable } from '../../../scripts/oxynet/tflite/flatbuffer.js';
import { runTflite } from '../../../scripts/oxynet/tflite/interpreter.js';
import { readTflite, type TfliteModel } from '../../../scripts/oxynet/tflite/model.js';
import { EXPECTED_OPERATORS, tfliteToCnn } from '../../../scripts/oxynet/tflite/to-cnn.js';
import { PROJECT_ROOT } from '../../../src/plugins.js';
import { randomWindows } from './random-windows.js';

const model = () => readTflite(readFileSync(join(PROJECT_ROOT, 'scripts/oxynet/input/tfl_model.tflite')));

/** Windows every 9 s through both labelled tests, prepared as the upstream pipeline prepares them. */
async function realWindows(): Promise<{ windows: Float32Array; count: number }> {
  const parts: Float32Array[] = [];
  let count = 0;
  for (const test of await realTests()) {
    const series = upstreamSeries(test.recording);
    const scaled = series.channels.map((c) => minMaxScale(c));
    const starts: number[] = [];
    for (let i = 1; i < series.time_s.length - 40; i += 9) starts.push(i);
    parts.push(buildWindows(scaled, starts));
    count += starts.length;
  }
  const windows = new Float32Array(count * 200);
  let at = 0;
  for (const p of parts) {
    windows.set(p, at);
    at += p.length;
  }
  return { windows, count };
}

describe('the TFLite model, read and run by our own code', () => {
  it('reads a hand-built FlatBuffer through its vtable: scalars, absent fields, a string and a vector', () => {
    const b = Buffer.alloc(60);
    b.writeUInt32LE(20, 0); // root table at 20
    b.write('TEST', 4, 'latin1'); // file identifier
    // vtable at 8: its size, the table's size, then fields 0..3 (field 1 absent)
    [12, 16, 4, 0, 8, 12].forEach((v, i) => {
      b.writeUInt16LE(v, 8 + 2 * i);
    });
    b.writeInt32LE(20 - 8, 20); // table -> vtable
    b.writeInt32LE(-7, 24); // field 0
    b.writeUInt32LE(36 - 28, 28); // field 2 -> string at 36
    b.writeUInt32LE(44 - 32, 32); // field 3 -> vector at 44
    b.writeUInt32LE(2, 36);
    b.write('hi', 40, 'utf8');
    b.writeUInt32LE(3, 44);
    [1, -2, 3].forEach((v, i) => {
      b.writeInt32LE(v, 48 + 4 * i);
    });
    expect(() => rootTable(b, 'TFL3')).to.throw(/identifier/);
    const t: FlatTable = rootTable(b, 'TEST');
    expect(t.int32(0)).to.equal(-7);
    expect(t.has(1)).to.equal(false);
    expect(t.int32(1, 42)).to.equal(42);
    expect(t.string(2)).to.equal('hi');
    expect(t.int32Vector(3)).to.deep.equal([1, -2, 3]);
    expect(t.int32(9, 5)).to.equal(5); // beyond the vtable: the default
    expect(t.int32Vector(1)).to.deep.equal([]);
  });

  it('reads the tensors, buffers, operator codes and operators with their options', () => {
    const m = model();
    expect(m.version).to.equal(3);
    expect(m.tensors).to.have.length(46);
    expect(m.operators.map((o) => o.op)).to.deep.equal(EXPECTED_OPERATORS);
    expect(m.tensors[m.inputs[0]].shape).to.deep.equal([1, 40, 5]);
    expect(m.tensors[m.inputs[0]].shape_signature).to.deep.equal([-1, 40, 5]);
    const conv = m.operators.find((o) => o.op === 'CONV_2D')!;
    expect(m.tensors[conv.inputs[1]].shape).to.deep.equal([64, 1, 6, 5]);
    expect(conv.options).to.deep.equal({ kind: 'conv2d', padding: 1, stride_w: 1, stride_h: 1, activation: 0, dilation_w: 1, dilation_h: 1 });
    expect(m.operators.find((o) => o.op === 'MAX_POOL_2D')!.options).to.deep.include({ padding: 0, filter_h: 2, stride_h: 2, filter_w: 1 });
    expect(m.operators.filter((o) => o.op === 'FULLY_CONNECTED').map((o) => (o.options as { activation: number }).activation)).to.deep.equal([1, 1, 1, 0]);
  });

  for (const layout of ['conv1d', 'conv2d'] as const) {
    it(`gives the same outputs as our ONNX graph (${layout} layout) built from its weights (max |diff| <= 1e-5), on seeded and on real windows`, async () => {
      const m = model();
      const onnx = cnnToOnnx(tfliteToCnn(m), { producer: 'test', doc: 'Oxynet CNN from the TFLite weights' }, layout);
      const session = await ort.InferenceSession.create(onnx, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
      const real = await realWindows();
      expect(real.count).to.be.above(150);
      for (const [label, windows, count] of [
        ['seeded', randomWindows(64, 7), 64],
        ['real', real.windows, real.count],
      ] as const) {
        const expected = runTflite(m, { shape: [count, 40, 5], data: windows });
        expect(expected.shape).to.deep.equal([count, 3]);
        const got = (await session.run({ windows: new ort.Tensor('float32', windows, [count, 40, 5]) })).probabilities.data as Float32Array;
        let maxDiff = 0;
        for (let i = 0; i < got.length; i++) maxDiff = Math.max(maxDiff, Math.abs(got[i] - expected.data[i]));
        expect(maxDiff, `${label} windows`).to.be.at.most(1e-5);
        // Not a constant answer: the outputs spread over the unit interval.
        expect(Math.max(...expected.data) - Math.min(...expected.data), label).to.be.above(0.5);
      }
    });
  }

  it('refuses a graph that is not the expected CNN, and an operator the interpreter does not know', () => {
    const changed: TfliteModel = structuredClone(model());
    const conv = changed.operators.find((o) => o.op === 'CONV_2D')!;
    if (conv.options.kind === 'conv2d') conv.options.padding = 0;
    expect(() => tfliteToCnn(changed)).to.throw(/CONV_2D/);
    const unknown: TfliteModel = structuredClone(model());
    unknown.operators[unknown.operators.length - 1] = { ...unknown.operators.at(-1)!, op: 'BUILTIN_150', code: 150 };
    expect(() => tfliteToCnn(unknown)).to.throw(/unexpected operator sequence/);
    expect(() => runTflite(unknown, { shape: [1, 40, 5], data: new Float32Array(200) })).to.throw(/BUILTIN_150 is not supported/);
  });
});
