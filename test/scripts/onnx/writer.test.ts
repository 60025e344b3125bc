import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { mlpToOnnx, OnnxGraphBuilder, type DenseLayer } from '../../../scripts/onnx/writer.js';
import { Message } from '../../../scripts/protobuf/reader.js';
import { PROJECT_ROOT } from '../../../src/plugins.js';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function tinyLayer(inputs: number, outputs: number, activation: DenseLayer['activation'], seed: number): DenseLayer {
  return {
    inputs,
    outputs,
    activation,
    weights: Float32Array.from({ length: inputs * outputs }, (_, i) => ((i * 7 + seed) % 11) / 10 - 0.5),
    bias: Float32Array.from({ length: outputs }, (_, i) => (i - seed) / 8),
  };
}

/** The dense layers and metadata of a model written by mlpToOnnx, read back from its bytes. */
function readMlp(bytes: Uint8Array): { layers: DenseLayer[]; producer: string; doc: string } {
  const model = new Message(bytes);
  const graph = model.message(7);
  const tensors = new Map(graph.messages(5).map((t) => [t.string(8), t]));
  const ops = graph
    .messages(1)
    .map((n) => n.string(4))
    .filter((op) => op !== 'Gemm');
  const layers = ops.map((op, i): DenseLayer => {
    const w = tensors.get(`W${i}`)!;
    const [inputs, outputs] = w.numbers(1);
    const floats = (t: Message) => new Float32Array(Uint8Array.from(t.bytes(9)).buffer);
    return { inputs, outputs, weights: floats(w), bias: floats(tensors.get(`b${i}`)!), activation: op === 'Relu' ? 'relu' : 'softmax' };
  });
  return { layers, producer: model.string(2), doc: model.string(6) };
}

describe('the shared ONNX writer', () => {
  it('writes the same MLP bytes as the trainer wrote before the writer was shared', () => {
    // sha256 taken from scripts/train/onnx-writer.ts (commit 1860bb2) for this exact input.
    const bytes = mlpToOnnx([tinyLayer(4, 3, 'relu', 1), tinyLayer(3, 3, 'softmax', 2)], { producer: 'pin', doc: 'tiny mlp' });
    expect(bytes.length).to.equal(422);
    expect(sha256(bytes)).to.equal('4618e1c923a236cdff3a32c109bbe5825887d341db480592f4f34bbe0ac46a64');
  });

  it('re-encodes every committed gandalf MLP (v0.x) to its exact bytes from its own weights', () => {
    const dir = join(PROJECT_ROOT, 'models/gandalf');
    // v1 and later read the converted Oxynet CNN (models/oxynet-cnn/), not an MLP of their own.
    const versions = readdirSync(dir).filter((v) => v.startsWith('v0.'));
    expect(versions.length).to.be.at.least(3);
    for (const version of versions) {
      const committed = readFileSync(join(dir, version, 'model.onnx'));
      const { layers, producer, doc } = readMlp(committed);
      expect(layers.length, version).to.be.at.least(2);
      expect(sha256(mlpToOnnx(layers, { producer, doc })), version).to.equal(sha256(committed));
    }
  });

  it('builds a graph onnxruntime runs: causal Conv with asymmetric pads, MaxPool, Reshape to -1, Gemm, Sigmoid', async () => {
    // One channel, length 4, kernel [1, 1, 1] padded [2, 0]: y[t] = x[t-2] + x[t-1] + x[t] (a causal sum).
    const g = new OnnxGraphBuilder('probe')
      .node('Transpose', ['x'], ['xt'], 'transpose', { perm: { ints: [0, 2, 1] } })
      .node('Conv', ['xt', 'k', 'kb'], ['c'], 'conv', { kernel_shape: { ints: [3] }, pads: { ints: [2, 0] } })
      .node('MaxPool', ['c'], ['p'], 'pool', { kernel_shape: { ints: [2] }, strides: { ints: [2] } })
      .node('Reshape', ['p', 'shape'], ['flat'], 'reshape')
      .node('Gemm', ['flat', 'w', 'wb'], ['z'], 'gemm', { alpha: { float: 0.5 } })
      .node('Sigmoid', ['z'], ['y'], 'sigmoid')
      .floatInitializer('k', [1, 1, 3], Float32Array.of(1, 1, 1))
      .floatInitializer('kb', [1], Float32Array.of(0))
      .int64Initializer('shape', [2], [-1, 2])
      .floatInitializer('w', [2, 1], Float32Array.of(1, -1))
      .floatInitializer('wb', [1], Float32Array.of(0))
      .input('x', ['N', 4, 1])
      .output('y', ['N', 1]);
    const session = await ort.InferenceSession.create(g.toModel({ producer: 'test', doc: 'probe' }));
    const out = await session.run({ x: new ort.Tensor('float32', Float32Array.of(1, 2, 3, 4, 4, 3, 2, 1), [2, 4, 1]) });
    // Causal sums 1 3 6 9 -> pooled 3 9 -> 0.5 (3 - 9) = -3; 4 7 9 6 -> 7 9 -> -1.
    const y = Array.from(out.y.data as Float32Array);
    expect(y[0]).to.be.closeTo(1 / (1 + Math.exp(3)), 1e-7);
    expect(y[1]).to.be.closeTo(1 / (1 + Math.exp(1)), 1e-7);
  });

  it('refuses an initializer whose data does not fill its dims', () => {
    expect(() => new OnnxGraphBuilder('g').floatInitializer('w', [2, 3], new Float32Array(5))).to.throw(/need 6 values, got 5/);
  });
});
