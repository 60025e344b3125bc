/**
 * The Oxynet CNN as an ONNX graph (inference mode), built with the shared writer from parameters
 * in one fixed layout, whatever file they came from (the Keras checkpoint or, to prove the
 * architecture, the TFLite model). Forward pass (Zignoli et al., Eur J Sport Sci 2022; layer
 * configs in keras_metadata.pb): per conv block, a causal Conv1D (linear), MaxPool1D 'same',
 * BatchNormalization; then Flatten in time-major order; per dense block, Dense + activation and an
 * optional BatchNormalization. Dropout is the identity at inference and has no node.
 *
 * Two layouts of the same arithmetic: 'conv1d' ([N, C, T], the first conversion) and 'conv2d'
 * ([N, C, 1, T] with 1 x k kernels). ONNX Runtime runs 2-D convolutions with its blocked (NCHWc)
 * kernels and 1-D ones as one small GEMM per window, so 'conv2d' is about twice as fast; its outputs
 * differ from 'conv1d' only by float32 summation order (a few 1e-6 at most). Both stay buildable so every
 * published version's bytes can be rebuilt.
 */
import { OnnxGraphBuilder, type ModelMeta } from '../onnx/writer.js';

/** BatchNormalization with moving statistics: (x - mean) / sqrt(variance + epsilon) * gamma + beta. */
export interface BatchNorm {
  gamma: Float32Array;
  beta: Float32Array;
  mean: Float32Array;
  variance: Float32Array;
  epsilon: number;
}

export interface ConvBlock {
  /** ONNX Conv layout [out_channels, in_channels, kernel], row-major. */
  weight: Float32Array;
  bias: Float32Array;
  in_channels: number;
  out_channels: number;
  kernel: number;
  /** MaxPool size and stride (Keras pool_size = strides, padding 'same'). */
  pool: number;
  bn: BatchNorm;
}

export interface DenseBlock {
  /** Gemm B layout [inputs, outputs], row-major (y = x W + b). */
  weight: Float32Array;
  bias: Float32Array;
  inputs: number;
  outputs: number;
  activation: 'relu' | 'sigmoid';
  /** The BatchNormalization after the activation, when there is one. */
  bn: BatchNorm | null;
}

export interface CnnParameters {
  /** Time steps per window (40 s at 1 Hz). */
  window: number;
  /** Input channels (VO2, VCO2, VE, PetO2, PetCO2). */
  channels: number;
  convs: ConvBlock[];
  dense: DenseBlock[];
}

export type ConvLayout = 'conv1d' | 'conv2d';

/** The graph's input and output names. */
export const INPUT_NAME = 'windows';
export const OUTPUT_NAME = 'probabilities';

/** Output length and [before, after] padding of a Keras 'same' pooling (the extra pad goes after). */
export function samePooling(length: number, pool: number): { length: number; pads: [number, number] } {
  const out = Math.ceil(length / pool);
  const total = Math.max((out - 1) * pool + pool - length, 0);
  return { length: out, pads: [Math.floor(total / 2), total - Math.floor(total / 2)] };
}

/** Encodes the CNN: input `windows` [N, window, channels] float32, output `probabilities` [N, classes]. */
export function cnnToOnnx(p: CnnParameters, meta: ModelMeta, layout: ConvLayout = 'conv1d'): Buffer {
  const g = new OnnxGraphBuilder('oxynet_cnn');
  const bn = (name: string, input: string, output: string, b: BatchNorm) => {
    g.node('BatchNormalization', [input, `${name}_gamma`, `${name}_beta`, `${name}_mean`, `${name}_variance`], [output], name, { epsilon: { float: b.epsilon } });
  };
  const bnInitializers = (name: string, b: BatchNorm) => {
    const c = [b.gamma.length];
    g.floatInitializer(`${name}_gamma`, c, b.gamma).floatInitializer(`${name}_beta`, c, b.beta);
    g.floatInitializer(`${name}_mean`, c, b.mean).floatInitializer(`${name}_variance`, c, b.variance);
  };

  // 1. Channels-last windows to ONNX's [N, C, T] (and [N, C, 1, T] for the 2-D layout).
  g.node('Transpose', [INPUT_NAME], ['x_nct'], 'to_channels_first', { perm: { ints: [0, 2, 1] } });
  let current = 'x_nct';
  const twoD = layout === 'conv2d';
  if (twoD) {
    g.node('Unsqueeze', [current, 'height_axis'], ['x_nc1t'], 'to_2d');
    current = 'x_nc1t';
  }
  // 1-D attributes, or the same with a height of one in front.
  const attr = (height: number, ...width: number[]) => ({ ints: twoD ? [height, ...width] : width });
  let length = p.window;
  let channels = p.channels;
  // 2. Conv blocks: causal padding is k - 1 zeros before the first step and none after.
  p.convs.forEach((c, i) => {
    if (c.in_channels !== channels) throw new Error(`conv ${i} expects ${c.in_channels} channels, gets ${channels}`);
    const pool = samePooling(length, c.pool);
    g.node('Conv', [current, `conv${i}_weight`, `conv${i}_bias`], [`conv${i}`], `conv${i}`, {
      kernel_shape: attr(1, c.kernel),
      pads: twoD ? { ints: [0, c.kernel - 1, 0, 0] } : { ints: [c.kernel - 1, 0] },
      strides: attr(1, 1),
      dilations: attr(1, 1),
    });
    g.node('MaxPool', [`conv${i}`], [`pool${i}`], `pool${i}`, {
      kernel_shape: attr(1, c.pool),
      strides: attr(1, c.pool),
      pads: twoD ? { ints: [0, pool.pads[0], 0, pool.pads[1]] } : { ints: pool.pads },
    });
    bn(`conv${i}_bn`, `pool${i}`, `conv${i}_out`, c.bn);
    current = `conv${i}_out`;
    length = pool.length;
    channels = c.out_channels;
  });
  // 3. Flatten as Keras does on channels-last data: index t * channels + c.
  if (twoD) {
    g.node('Squeeze', [current, 'height_axis'], ['features_nct'], 'to_1d');
    current = 'features_nct';
  }
  g.node('Transpose', [current], ['features_ntc'], 'to_channels_last', { perm: { ints: [0, 2, 1] } });
  g.node('Reshape', ['features_ntc', 'flat_shape'], ['flat'], 'flatten');
  current = 'flat';
  let width = length * channels;
  // 4. Dense blocks; the last activation's output is the graph output.
  p.dense.forEach((d, i) => {
    if (d.inputs !== width) throw new Error(`dense ${i} expects ${d.inputs} inputs, gets ${width}`);
    const last = i === p.dense.length - 1;
    g.node('Gemm', [current, `dense${i}_weight`, `dense${i}_bias`], [`dense${i}`], `dense${i}`);
    const act = last && !d.bn ? OUTPUT_NAME : `dense${i}_act`;
    g.node(d.activation === 'relu' ? 'Relu' : 'Sigmoid', [`dense${i}`], [act], `dense${i}_${d.activation}`);
    current = act;
    if (d.bn) {
      const out = last ? OUTPUT_NAME : `dense${i}_out`;
      bn(`dense${i}_bn`, act, out, d.bn);
      current = out;
    }
    width = d.outputs;
  });

  p.convs.forEach((c, i) => {
    g.floatInitializer(`conv${i}_weight`, twoD ? [c.out_channels, c.in_channels, 1, c.kernel] : [c.out_channels, c.in_channels, c.kernel], c.weight);
    g.floatInitializer(`conv${i}_bias`, [c.out_channels], c.bias);
    bnInitializers(`conv${i}_bn`, c.bn);
  });
  if (twoD) g.int64Initializer('height_axis', [1], [2]);
  g.int64Initializer('flat_shape', [2], [-1, length * channels]);
  p.dense.forEach((d, i) => {
    g.floatInitializer(`dense${i}_weight`, [d.inputs, d.outputs], d.weight);
    g.floatInitializer(`dense${i}_bias`, [d.outputs], d.bias);
    if (d.bn) bnInitializers(`dense${i}_bn`, d.bn);
  });
  g.input(INPUT_NAME, ['N', p.window, p.channels]);
  g.output(OUTPUT_NAME, ['N', width]);
  return g.toModel(meta);
}
