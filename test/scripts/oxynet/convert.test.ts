import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { checkArchitecture } from '../../../scripts/oxynet/architecture.js';
import { TensorBundle } from '../../../scripts/oxynet/checkpoint/bundle.js';
import { CONVERSIONS, convertOxynet, serializeConversion } from '../../../scripts/oxynet/convert.js';
import { readKerasMetadata, type KerasNode } from '../../../scripts/oxynet/keras-metadata.js';
import { PROJECT_ROOT } from '../../../src/plugins.js';
import { randomWindows } from './random-windows.js';

const INPUT = join(PROJECT_ROOT, 'scripts/oxynet/input');
const modelDir = (version: string) => join(PROJECT_ROOT, 'models/oxynet-cnn', version);
const metadata = () => readKerasMetadata(readFileSync(join(INPUT, 'keras_metadata.pb')));

/** A copy of the metadata with one layer's JSON changed. */
function mutated(path: string, change: (m: KerasNode['metadata']) => void): KerasNode[] {
  const nodes = structuredClone(metadata());
  change(nodes.find((n) => n.node_path === path)!.metadata);
  return nodes;
}

/**
 * The forward pass as the weights' README states it, in float64 straight from the Keras-layout
 * tensors (kernel [k, in, out], flatten t * 64 + c), independent of the ONNX graph's layouts.
 */
function referenceForward(bundle: TensorBundle, x: Float32Array): number[] {
  const v = (i: number) => bundle.floats(`variables/${i}/.ATTRIBUTES/VARIABLE_VALUE`);
  const convPoolBn = (input: number[][], base: number): number[][] => {
    const [K, b, g, beta, m, va] = [0, 1, 2, 3, 4, 5].map((j) => v(base + j));
    const T = input.length;
    const cin = input[0].length;
    const conv = Array.from({ length: T }, (_, t) =>
      Array.from({ length: 64 }, (_, o) => {
        let s = b[o];
        for (let j = 0; j < 6; j++) {
          const src = t - 5 + j;
          if (src >= 0) for (let c = 0; c < cin; c++) s += input[src][c] * K[(j * cin + c) * 64 + o];
        }
        return s;
      }),
    );
    return Array.from({ length: T / 2 }, (_, t) => conv[2 * t].map((y, o) => ((Math.max(y, conv[2 * t + 1][o]) - m[o]) / Math.sqrt(va[o] + 0.001)) * g[o] + beta[o]));
  };
  const dense = (input: number[], base: number, units: number, act: (z: number) => number, bn: boolean): number[] => {
    const [W, b] = [v(base), v(base + 1)];
    const out = Array.from({ length: units }, (_, o) => act(input.reduce((s, xi, i) => s + xi * W[i * units + o], b[o])));
    if (!bn) return out;
    const [g, beta, m, va] = [2, 3, 4, 5].map((j) => v(base + j));
    return out.map((y, o) => ((y - m[o]) / Math.sqrt(va[o] + 0.001)) * g[o] + beta[o]);
  };
  const relu = (z: number) => Math.max(z, 0);
  const window = Array.from({ length: 40 }, (_, t) => Array.from(x.subarray(5 * t, 5 * t + 5)));
  const flat = convPoolBn(convPoolBn(window, 0), 6).flat();
  const h = dense(dense(dense(flat, 12, 64, relu, true), 18, 32, relu, true), 24, 16, relu, true);
  return dense(h, 30, 3, (z) => 1 / (1 + Math.exp(-z)), false);
}

describe('the oxynet converter', () => {
  for (const { version, layout } of CONVERSIONS) {
    it(`re-runs from scripts/oxynet/input to exactly the committed ${version} model.onnx and conversion.json (${layout})`, () => {
      const { onnx, conversion } = convertOxynet(INPUT, version);
      expect(onnx.equals(readFileSync(join(modelDir(version), 'model.onnx')))).to.equal(true);
      expect(serializeConversion(conversion)).to.equal(readFileSync(join(modelDir(version), 'conversion.json'), 'utf8'));
      expect(conversion.onnx.layout).to.equal(layout);
      expect(conversion.tensors).to.have.length(32);
      expect(conversion.tensors.every((t) => t.crc_ok)).to.equal(true);
    });

    it(`gives in ${version} what the stated forward pass gives from the checkpoint tensors (float64 reference, 1e-5)`, async () => {
      const bundle = new TensorBundle(readFileSync(join(INPUT, 'variables.index')), readFileSync(join(INPUT, 'variables.data-00000-of-00001')));
      const session = await ort.InferenceSession.create(join(modelDir(version), 'model.onnx'), {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      });
      const n = 4;
      const x = randomWindows(n, 2022);
      const out = (await session.run({ windows: new ort.Tensor('float32', x, [n, 40, 5]) })).probabilities;
      expect(out.dims).to.deep.equal([n, 3]);
      const got = out.data as Float32Array;
      for (let w = 0; w < n; w++) {
        const ref = referenceForward(bundle, x.subarray(200 * w, 200 * w + 200));
        ref.forEach((p, k) => {
          expect(Math.abs(got[3 * w + k] - p), `window ${w} column ${k}`).to.be.below(1e-5);
        });
      }
    });
  }

  it('changes only the layout between conversions: the same weights, outputs within 1e-5 (the parity tolerance) on 2,000 seeded windows', async () => {
    const opts = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' } as const;
    const n = 2000;
    const x = new ort.Tensor('float32', randomWindows(n, 11), [n, 40, 5]);
    const outputs = await Promise.all(
      CONVERSIONS.map(async ({ version }) => {
        const session = await ort.InferenceSession.create(join(modelDir(version), 'model.onnx'), opts);
        return (await session.run({ windows: x })).probabilities.data as Float32Array;
      }),
    );
    const [first, ...rest] = outputs;
    for (const other of rest) {
      let maxDiff = 0;
      for (let i = 0; i < first.length; i++) maxDiff = Math.max(maxDiff, Math.abs(first[i] - other[i]));
      expect(maxDiff).to.be.below(1e-5);
    }
    const tensors = CONVERSIONS.map(({ version }) => JSON.parse(readFileSync(join(modelDir(version), 'conversion.json'), 'utf8')).tensors);
    for (const t of tensors.slice(1)) expect(t).to.deep.equal(tensors[0]);
  });

  it('accepts the real layer configs and records the epsilon it read', () => {
    const layers = checkArchitecture(metadata());
    expect(layers.map((l) => l.path)).to.deep.equal(['conv1', 'p1', 'bn1', 'drop1', 'conv2', 'p2', 'bn2', 'drop2', 'f2', 'd1', 'drop3', 'bn3', 'd2', 'drop4', 'bn4', 'd3', 'drop5', 'bn5', 'd4']);
    expect(layers.filter((l) => l.class_name === 'BatchNormalization').map((l) => l.config.epsilon)).to.deep.equal([0.001, 0.001, 0.001, 0.001, 0.001]);
  });

  it('refuses a layer config the graph builder does not assume', () => {
    const cases: [string, (m: KerasNode['metadata']) => void, RegExp][] = [
      [
        'root.conv1',
        (m) => {
          m.config.kernel_size = { class_name: '__tuple__', items: [5] };
        },
        /kernel_size/,
      ],
      [
        'root.conv2',
        (m) => {
          m.config.padding = 'same';
        },
        /padding/,
      ],
      [
        'root.conv1',
        (m) => {
          m.config.filters = 32;
        },
        /filters/,
      ],
      [
        'root.p1',
        (m) => {
          m.config.pool_size = { class_name: '__tuple__', items: [3] };
        },
        /pool_size/,
      ],
      [
        'root.bn2',
        (m) => {
          m.config.epsilon = 0;
        },
        /epsilon/,
      ],
      [
        'root.d3',
        (m) => {
          m.config.activation = 'tanh';
        },
        /activation/,
      ],
      [
        'root.d4',
        (m) => {
          m.config.activation = 'softmax';
        },
        /activation/,
      ],
      [
        'root.drop3',
        (m) => {
          m.class_name = 'BatchNormalization';
        },
        /is a BatchNormalization/,
      ],
      [
        'root.d2',
        (m) => {
          m.build_input_shape = { class_name: 'TensorShape', items: [60, 32] };
        },
        /built for input/,
      ],
    ];
    for (const [path, change, message] of cases) expect(() => checkArchitecture(mutated(path, change)), `${path} ${message}`).to.throw(message);
  });

  it('refuses a model with a layer it does not know', () => {
    const nodes = metadata();
    nodes.push({ ...structuredClone(nodes.find((n) => n.node_path === 'root.bn5')!), node_path: 'root.bn6' });
    expect(() => checkArchitecture(nodes)).to.throw(/does not know: bn6/);
  });
});
