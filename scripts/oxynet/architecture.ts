/**
 * What the ONNX graph builder (cnn-graph.ts) assumes about the Oxynet CNN, checked against the
 * Keras layer configs in keras_metadata.pb and the tensor shapes in the checkpoint before any
 * weight is converted. Any difference refuses the conversion: a silently different layer would
 * give a model that runs and answers wrongly.
 */
import type { TensorBundle } from './checkpoint/bundle.js';
import { DT_FLOAT } from './checkpoint/bundle.js';
import { layerVariables, OBJECT_GRAPH_KEY, type LayerVariable } from './checkpoint/object-graph.js';
import type { BatchNorm, CnnParameters, ConvBlock, DenseBlock } from './cnn-graph.js';
import { samePooling } from './cnn-graph.js';
import { kerasInts, type KerasNode } from './keras-metadata.js';

/** One layer as the builder assumes it: Keras attribute path, class, and the config values it relies on. */
export interface LayerSpec {
  path: string;
  class_name: 'Conv1D' | 'MaxPooling1D' | 'BatchNormalization' | 'Dropout' | 'Flatten' | 'Dense';
  /** Config keys whose values must match exactly (tuples compared as int arrays). */
  config: Record<string, unknown>;
}

const conv = (path: string): LayerSpec => ({
  path,
  class_name: 'Conv1D',
  config: { filters: 64, kernel_size: [6], strides: [1], dilation_rate: [1], groups: 1, padding: 'causal', activation: 'linear', use_bias: true, data_format: 'channels_last' },
});
const pool = (path: string): LayerSpec => ({ path, class_name: 'MaxPooling1D', config: { pool_size: [2], strides: [2], padding: 'same', data_format: 'channels_last' } });
const bn = (path: string, axis: number): LayerSpec => ({ path, class_name: 'BatchNormalization', config: { axis: [axis], center: true, scale: true } });
const drop = (path: string): LayerSpec => ({ path, class_name: 'Dropout', config: {} });
const dense = (path: string, units: number, activation: 'relu' | 'sigmoid'): LayerSpec => ({ path, class_name: 'Dense', config: { units, activation, use_bias: true } });

/** The CNN of pyoxynet's regressor, in forward order (the order the builder applies the layers). */
export const OXYNET_LAYERS: readonly LayerSpec[] = [
  conv('conv1'),
  pool('p1'),
  bn('bn1', 2),
  drop('drop1'),
  conv('conv2'),
  pool('p2'),
  bn('bn2', 2),
  drop('drop2'),
  { path: 'f2', class_name: 'Flatten', config: { data_format: 'channels_last' } },
  dense('d1', 64, 'relu'),
  drop('drop3'),
  bn('bn3', 1),
  dense('d2', 32, 'relu'),
  drop('drop4'),
  bn('bn4', 1),
  dense('d3', 16, 'relu'),
  drop('drop5'),
  bn('bn5', 1),
  dense('d4', 3, 'sigmoid'),
];

/** The model's input: 40 one-second steps of 5 channels (VO2, VCO2, VE, PetO2, PetCO2); 3 outputs. */
export const OXYNET_INPUT = { window: 40, channels: 5, classes: 3 } as const;

/** A checked layer, as recorded in conversion.json. */
export interface CheckedLayer {
  path: string;
  name: string;
  class_name: string;
  input_shape: number[];
  /** The config values the builder uses (epsilon is read, not assumed). */
  config: Record<string, unknown>;
}

function sameValue(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    const ints = kerasInts(actual);
    return ints !== null && ints.length === expected.length && ints.every((v, i) => v === expected[i]);
  }
  return expected === actual;
}

/** Checks every Keras layer against OXYNET_LAYERS, in forward order with chained input shapes; throws on any mismatch. */
export function checkArchitecture(nodes: readonly KerasNode[]): CheckedLayer[] {
  const model = nodes.find((n) => n.node_path === 'root');
  if (!model) throw new Error('keras_metadata.pb has no root model');
  const modelShape = model.metadata.build_input_shape?.items.slice(1);
  if (!sameValue([OXYNET_INPUT.window, OXYNET_INPUT.channels], modelShape)) throw new Error(`the model's input shape is [${modelShape?.join(', ')}], not [40, 5]`);
  const layers = nodes.filter((n) => n.identifier === '_tf_keras_layer' && /^root\.[^.]+$/.test(n.node_path));
  const unknown = layers.map((n) => n.node_path.slice(5)).filter((p) => !OXYNET_LAYERS.some((s) => s.path === p));
  if (unknown.length) throw new Error(`keras_metadata.pb has layers the graph builder does not know: ${unknown.join(', ')}`);

  const checked: CheckedLayer[] = [];
  let shape: number[] = [OXYNET_INPUT.window, OXYNET_INPUT.channels];
  for (const spec of OXYNET_LAYERS) {
    const node = layers.find((n) => n.node_path === `root.${spec.path}`);
    if (!node) throw new Error(`keras_metadata.pb has no layer root.${spec.path}`);
    const { class_name, config, build_input_shape } = node.metadata;
    const where = `layer ${spec.path} (${node.metadata.name})`;
    if (class_name !== spec.class_name) throw new Error(`${where} is a ${class_name}, the builder assumes ${spec.class_name}`);
    for (const [key, expected] of Object.entries(spec.config)) {
      if (!sameValue(expected, config[key])) throw new Error(`${where}: ${key} is ${JSON.stringify(config[key])}, the builder assumes ${JSON.stringify(expected)}`);
    }
    const inputShape = build_input_shape?.items.slice(1) ?? null;
    if (!sameValue(shape, inputShape)) throw new Error(`${where} was built for input [${inputShape?.join(', ')}], the builder feeds it [${shape.join(', ')}]`);
    const used: Record<string, unknown> = {};
    for (const [key, expected] of Object.entries(spec.config)) used[key] = Array.isArray(expected) ? kerasInts(config[key]) : config[key];
    if (class_name === 'BatchNormalization') {
      const epsilon = config.epsilon;
      if (typeof epsilon !== 'number' || !(epsilon > 0)) throw new Error(`${where}: epsilon ${JSON.stringify(epsilon)} is not a positive number`);
      used.epsilon = epsilon;
    }
    checked.push({ path: spec.path, name: node.metadata.name, class_name, input_shape: shape, config: used });
    if (class_name === 'Conv1D') shape = [shape[0], config.filters as number];
    else if (class_name === 'MaxPooling1D') shape = [samePooling(shape[0], kerasInts(config.pool_size)![0]).length, shape[1]];
    else if (class_name === 'Flatten') shape = [shape[0] * shape[1]];
    else if (class_name === 'Dense') shape = [config.units as number];
  }
  if (!sameValue([OXYNET_INPUT.classes], shape)) throw new Error(`the last layer gives [${shape.join(', ')}], not [${OXYNET_INPUT.classes}]`);
  return checked;
}

/** The shapes each layer's variables must have, given its checked input shape and config. */
function expectedVariables(layer: CheckedLayer): Record<string, number[]> {
  const last = layer.input_shape[layer.input_shape.length - 1];
  const c = layer.config;
  if (layer.class_name === 'Conv1D') return { kernel: [kerasInts(c.kernel_size)![0], last, c.filters as number], bias: [c.filters as number] };
  if (layer.class_name === 'Dense') return { kernel: [last, c.units as number], bias: [c.units as number] };
  if (layer.class_name === 'BatchNormalization') return { gamma: [last], beta: [last], moving_mean: [last], moving_variance: [last] };
  return {};
}

/** One checkpoint tensor as recorded in conversion.json. */
export interface TensorRecord {
  key: string;
  path: string;
  full_name: string;
  dtype: 'float32';
  shape: number[];
  offset: number;
  size: number;
  crc32c: string;
  crc_ok: boolean;
}

/**
 * Reads the weights: each layer's variables are found through the checkpoint's object graph (by
 * the layer's attribute path), checked for dtype, shape and crc32c, and laid out for cnnToOnnx.
 */
export function readParameters(bundle: TensorBundle, layers: readonly CheckedLayer[]): { params: CnnParameters; tensors: TensorRecord[] } {
  const variables = layerVariables(
    bundle.scalarString(OBJECT_GRAPH_KEY),
    layers.map((l) => l.path),
  );
  const byPath = new Map<string, LayerVariable>(variables.map((v) => [v.path, v]));
  const tensor = (layer: CheckedLayer, attribute: string, shape: number[]): Float32Array => {
    const v = byPath.get(`${layer.path}.${attribute}`);
    if (!v) throw new Error(`the checkpoint has no ${layer.path}.${attribute}`);
    const e = bundle.entry(v.checkpoint_key);
    if (e.dtype !== DT_FLOAT) throw new Error(`${v.full_name} has dtype ${e.dtype}, not float32`);
    if (!sameValue(shape, e.shape)) throw new Error(`${v.full_name} has shape [${e.shape.join(', ')}], the layer config implies [${shape.join(', ')}]`);
    return bundle.floats(v.checkpoint_key);
  };
  for (const layer of layers) {
    const owned = variables
      .filter((v) => v.layer === layer.path)
      .map((v) => v.attribute)
      .sort();
    const expected = Object.keys(expectedVariables(layer)).sort();
    if (owned.join() !== expected.join()) throw new Error(`layer ${layer.path} owns [${owned.join(', ')}], the builder expects [${expected.join(', ')}]`);
  }

  const read = (layer: CheckedLayer) => {
    const shapes = expectedVariables(layer);
    return Object.fromEntries(Object.entries(shapes).map(([name, shape]) => [name, tensor(layer, name, shape)]));
  };
  const batchNorm = (layer: CheckedLayer): BatchNorm => {
    const v = read(layer);
    return { gamma: v.gamma, beta: v.beta, mean: v.moving_mean, variance: v.moving_variance, epsilon: layer.config.epsilon as number };
  };

  const convs: ConvBlock[] = [];
  const dense: DenseBlock[] = [];
  for (let i = 0; i < layers.length; i++) {
    const layer = layers[i];
    const nextWeighted = () => layers.slice(i + 1).find((l) => l.class_name === 'BatchNormalization' || l.class_name === 'Dense' || l.class_name === 'Conv1D');
    if (layer.class_name === 'Conv1D') {
      const [k, cin, cout] = expectedVariables(layer).kernel;
      const v = read(layer);
      const poolLayer = layers[i + 1];
      const bnLayer = nextWeighted();
      if (poolLayer?.class_name !== 'MaxPooling1D' || bnLayer?.class_name !== 'BatchNormalization') throw new Error(`conv ${layer.path} is not followed by a pool and a batch normalisation`);
      convs.push({
        weight: kerasConvToOnnx(v.kernel, k, cin, cout),
        bias: v.bias,
        in_channels: cin,
        out_channels: cout,
        kernel: k,
        pool: kerasInts(poolLayer.config.pool_size)![0],
        bn: batchNorm(bnLayer),
      });
    } else if (layer.class_name === 'Dense') {
      const [inputs, outputs] = expectedVariables(layer).kernel;
      const v = read(layer);
      const after = nextWeighted();
      dense.push({
        weight: v.kernel,
        bias: v.bias,
        inputs,
        outputs,
        activation: layer.config.activation as 'relu' | 'sigmoid',
        bn: after?.class_name === 'BatchNormalization' ? batchNorm(after) : null,
      });
    }
  }

  // In data-file order, which is the variables' numbering (index keys sort as text: 0, 1, 10, ...).
  const tensors = [...variables]
    .sort((a, b) => bundle.entry(a.checkpoint_key).offset - bundle.entry(b.checkpoint_key).offset)
    .map((v): TensorRecord => {
      const e = bundle.entry(v.checkpoint_key);
      return { key: e.key, path: v.path, full_name: v.full_name, dtype: 'float32', shape: e.shape, offset: e.offset, size: e.size, crc32c: e.crc32c.toString(16).padStart(8, '0'), crc_ok: e.crc_ok };
    });
  return { params: { window: OXYNET_INPUT.window, channels: OXYNET_INPUT.channels, convs, dense }, tensors };
}

/** Keras Conv1D kernel [kernel, in, out] to ONNX Conv weight [out, in, kernel]. */
export function kerasConvToOnnx(kernel: Float32Array, k: number, cin: number, cout: number): Float32Array {
  const out = new Float32Array(kernel.length);
  for (let o = 0; o < cout; o++) for (let c = 0; c < cin; c++) for (let j = 0; j < k; j++) out[(o * cin + c) * k + j] = kernel[(j * cin + c) * cout + o];
  return out;
}
