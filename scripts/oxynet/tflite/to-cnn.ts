/**
 * Maps the TFLite model's weights into the ONNX graph's parameterisation (cnn-graph.ts), so the
 * same builder can be checked against TensorFlow's own export of the architecture:
 * - CONV_2D filters OHWI [out, 1, k, in] become ONNX Conv weights [out, in, k];
 * - the conv blocks' batch normalisation, folded by the converter into MUL then ADD after the pool,
 *   becomes a BatchNormalization with gamma = mul, beta = add, mean 0 and variance 1 - epsilon;
 * - FULLY_CONNECTED weights [out, in] become Gemm weights [in, out];
 * - the batch normalisation after each hidden dense layer, folded into the next FULLY_CONNECTED,
 *   becomes an identity BatchNormalization (gamma 1, beta 0, mean 0, variance 1 - epsilon).
 * The operator sequence, paddings, strides and activations are checked first; anything else is refused.
 */
import type { BatchNorm, CnnParameters, ConvBlock, DenseBlock } from '../cnn-graph.js';
import { ACTIVATION, PADDING, TENSOR_TYPE, type TfliteModel } from './model.js';

/** The operator sequence TensorFlow's converter wrote for the Oxynet CNN (two conv blocks, four dense layers). */
const CONV_BLOCK = ['PAD', 'EXPAND_DIMS', 'CONV_2D', 'RESHAPE', 'EXPAND_DIMS', 'MAX_POOL_2D', 'MUL', 'ADD', 'RESHAPE'];
export const EXPECTED_OPERATORS = [...CONV_BLOCK, ...CONV_BLOCK, 'FULLY_CONNECTED', 'FULLY_CONNECTED', 'FULLY_CONNECTED', 'FULLY_CONNECTED', 'LOGISTIC'];

/** Any positive epsilon gives the identity with variance 1 - epsilon; the Keras layers' value is used. */
const EPSILON = 0.001;

function floats(model: TfliteModel, index: number): { shape: number[]; data: Float32Array } {
  const t = model.tensors[index];
  const bytes = model.buffers[t.buffer];
  if (t.type !== TENSOR_TYPE.FLOAT32 || !bytes || bytes.length !== 4 * t.shape.reduce((a, b) => a * b, 1)) throw new Error(`tensor ${t.name} is not a float32 constant`);
  return { shape: t.shape, data: new Float32Array(Uint8Array.from(bytes).buffer) };
}

function ints(model: TfliteModel, index: number): number[] {
  const t = model.tensors[index];
  if (t.type !== TENSOR_TYPE.INT32) throw new Error(`tensor ${t.name} is not an int32 constant`);
  return Array.from(new Int32Array(Uint8Array.from(model.buffers[t.buffer]).buffer));
}

const identityBn = (channels: number): BatchNorm => ({
  gamma: new Float32Array(channels).fill(1),
  beta: new Float32Array(channels),
  mean: new Float32Array(channels),
  variance: new Float32Array(channels).fill(1 - EPSILON),
  epsilon: EPSILON,
});

/** The CNN parameters of a TFLite Oxynet model; throws when its graph is not the expected one. */
export function tfliteToCnn(model: TfliteModel): CnnParameters {
  const ops = model.operators;
  const names = ops.map((o) => o.op);
  if (names.join() !== EXPECTED_OPERATORS.join()) throw new Error(`unexpected operator sequence: ${names.join(', ')}`);
  const [, window, channels] = model.tensors[model.inputs[0]].shape;

  const convs: ConvBlock[] = [];
  for (let block = 0; block < 2; block++) {
    const [padOp, , convOp, , , poolOp, mulOp, addOp] = ops.slice(block * CONV_BLOCK.length, (block + 1) * CONV_BLOCK.length);
    const filter = floats(model, convOp.inputs[1]);
    const [cout, kh, k, cin] = filter.shape;
    const paddings = ints(model, padOp.inputs[1]);
    // Causal: k - 1 zeros before the time axis (axis 1 of [N, T, C]), nothing elsewhere.
    if (paddings.join() !== [0, 0, k - 1, 0, 0, 0].join()) throw new Error(`block ${block}: PAD is [${paddings}], not causal for kernel ${k}`);
    const c = convOp.options;
    if (c.kind !== 'conv2d' || kh !== 1 || c.padding !== PADDING.VALID || c.stride_h !== 1 || c.stride_w !== 1 || c.dilation_h !== 1 || c.dilation_w !== 1 || c.activation !== ACTIVATION.NONE) {
      throw new Error(`block ${block}: CONV_2D is not a linear stride-1 VALID 1 x ${k} convolution`);
    }
    const p = poolOp.options;
    if (p.kind !== 'pool2d' || p.padding !== PADDING.SAME || p.filter_w !== 1 || p.stride_w !== 1 || p.filter_h !== p.stride_h || p.activation !== ACTIVATION.NONE) {
      throw new Error(`block ${block}: MAX_POOL_2D is not a same-padded pool along time`);
    }
    for (const op of [mulOp, addOp])
      if ((op.options.kind === 'mul' || op.options.kind === 'add') && op.options.activation !== ACTIVATION.NONE) throw new Error(`block ${block}: folded batch norm has an activation`);
    const weight = new Float32Array(filter.data.length);
    for (let o = 0; o < cout; o++) for (let ch = 0; ch < cin; ch++) for (let j = 0; j < k; j++) weight[(o * cin + ch) * k + j] = filter.data[(o * k + j) * cin + ch];
    const variance = new Float32Array(cout).fill(1 - EPSILON);
    convs.push({
      weight,
      bias: floats(model, convOp.inputs[2]).data,
      in_channels: cin,
      out_channels: cout,
      kernel: k,
      pool: p.filter_h,
      bn: { gamma: floats(model, mulOp.inputs[1]).data, beta: floats(model, addOp.inputs[1]).data, mean: new Float32Array(cout), variance, epsilon: EPSILON },
    });
  }

  const fcs = ops.filter((o) => o.op === 'FULLY_CONNECTED');
  const dense: DenseBlock[] = fcs.map((op, i) => {
    const last = i === fcs.length - 1;
    const o = op.options;
    if (o.kind !== 'fully_connected' || o.activation !== (last ? ACTIVATION.NONE : ACTIVATION.RELU)) throw new Error(`FULLY_CONNECTED ${i} has an unexpected activation`);
    const w = floats(model, op.inputs[1]);
    const [outputs, inputs] = w.shape;
    const weight = new Float32Array(w.data.length);
    for (let u = 0; u < outputs; u++) for (let j = 0; j < inputs; j++) weight[j * outputs + u] = w.data[u * inputs + j];
    return { weight, bias: floats(model, op.inputs[2]).data, inputs, outputs, activation: last ? 'sigmoid' : 'relu', bn: last ? null : identityBn(outputs) };
  });
  return { window, channels, convs, dense };
}
