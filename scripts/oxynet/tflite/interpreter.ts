/**
 * A small reference interpreter for float32 TFLite graphs: runs the model's explicit operator
 * list in order, in TypeScript, with TFLite's NHWC conventions (CONV_2D filters OHWI,
 * FULLY_CONNECTED weights [out, in]). It exists to check the ONNX port of the Oxynet CNN against a
 * graph written by TensorFlow's own converter, so it favours plainness over speed: sums run in
 * float64 and are stored as float32 like TFLite's tensors. Operators it does not know are refused.
 */
import { ACTIVATION, PADDING, TENSOR_TYPE, type TfliteModel, type TfliteOperator } from './model.js';

export interface Tensor {
  shape: number[];
  data: Float32Array | Int32Array;
}

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

function constant(model: TfliteModel, index: number): Tensor | null {
  const t = model.tensors[index];
  const bytes = model.buffers[t.buffer];
  if (!bytes || bytes.length === 0) return null;
  const copy = Uint8Array.from(bytes).buffer;
  if (t.type === TENSOR_TYPE.FLOAT32) return { shape: t.shape, data: new Float32Array(copy) };
  if (t.type === TENSOR_TYPE.INT32) return { shape: t.shape, data: new Int32Array(copy) };
  throw new Error(`tensor ${t.name} has type ${t.type}; only float32 and int32 constants are read`);
}

function activate(x: Float32Array, activation: number): Float32Array {
  if (activation === ACTIVATION.NONE) return x;
  if (activation === ACTIVATION.RELU) return x.map((v) => Math.max(v, 0));
  if (activation === ACTIVATION.RELU6) return x.map((v) => Math.min(Math.max(v, 0), 6));
  if (activation === ACTIVATION.RELU_N1_TO_1) return x.map((v) => Math.min(Math.max(v, -1), 1));
  if (activation === ACTIVATION.TANH) return x.map(Math.tanh);
  throw new Error(`fused activation ${activation} is not supported`);
}

/** Output size and leading pad of one spatial axis under TFLite SAME or VALID padding. */
function window(input: number, filter: number, stride: number, dilation: number, padding: number): { out: number; before: number } {
  const effective = (filter - 1) * dilation + 1;
  if (padding === PADDING.VALID) return { out: Math.floor((input - effective) / stride) + 1, before: 0 };
  const out = Math.ceil(input / stride);
  const total = Math.max((out - 1) * stride + effective - input, 0);
  return { out, before: Math.floor(total / 2) };
}

function conv2d(x: Tensor, f: Tensor, bias: Tensor | null, o: Extract<TfliteOperator['options'], { kind: 'conv2d' }>): Tensor {
  const [n, h, w, cin] = x.shape;
  const [cout, kh, kw, fin] = f.shape;
  if (fin !== cin) throw new Error(`CONV_2D filter has ${fin} input channels for ${cin}`);
  const rows = window(h, kh, o.stride_h, o.dilation_h, o.padding);
  const cols = window(w, kw, o.stride_w, o.dilation_w, o.padding);
  const out = new Float32Array(n * rows.out * cols.out * cout);
  for (let b = 0; b < n; b++)
    for (let y = 0; y < rows.out; y++)
      for (let xo = 0; xo < cols.out; xo++)
        for (let oc = 0; oc < cout; oc++) {
          let s = bias ? bias.data[oc] : 0;
          for (let i = 0; i < kh; i++) {
            const yi = y * o.stride_h + i * o.dilation_h - rows.before;
            if (yi < 0 || yi >= h) continue;
            for (let j = 0; j < kw; j++) {
              const xi = xo * o.stride_w + j * o.dilation_w - cols.before;
              if (xi < 0 || xi >= w) continue;
              for (let c = 0; c < cin; c++) s += x.data[((b * h + yi) * w + xi) * cin + c] * f.data[((oc * kh + i) * kw + j) * cin + c];
            }
          }
          out[((b * rows.out + y) * cols.out + xo) * cout + oc] = s;
        }
  return { shape: [n, rows.out, cols.out, cout], data: activate(out, o.activation) };
}

function maxPool2d(x: Tensor, o: Extract<TfliteOperator['options'], { kind: 'pool2d' }>): Tensor {
  const [n, h, w, c] = x.shape;
  const rows = window(h, o.filter_h, o.stride_h, 1, o.padding);
  const cols = window(w, o.filter_w, o.stride_w, 1, o.padding);
  const out = new Float32Array(n * rows.out * cols.out * c);
  for (let b = 0; b < n; b++)
    for (let y = 0; y < rows.out; y++)
      for (let xo = 0; xo < cols.out; xo++)
        for (let ch = 0; ch < c; ch++) {
          // Padded positions take no part in the max (TFLite's SAME pooling).
          let m = -Infinity;
          for (let i = 0; i < o.filter_h; i++) {
            const yi = y * o.stride_h + i - rows.before;
            if (yi < 0 || yi >= h) continue;
            for (let j = 0; j < o.filter_w; j++) {
              const xi = xo * o.stride_w + j - cols.before;
              if (xi >= 0 && xi < w) m = Math.max(m, x.data[((b * h + yi) * w + xi) * c + ch]);
            }
          }
          out[((b * rows.out + y) * cols.out + xo) * c + ch] = m;
        }
  return { shape: [n, rows.out, cols.out, c], data: activate(out, o.activation) };
}

/** Elementwise ADD or MUL with numpy-style broadcasting. */
function binary(a: Tensor, b: Tensor, op: (x: number, y: number) => number, activation: number): Tensor {
  const rank = Math.max(a.shape.length, b.shape.length);
  const pad = (s: number[]) => [...Array<number>(rank - s.length).fill(1), ...s];
  const sa = pad(a.shape);
  const sb = pad(b.shape);
  const shape = sa.map((d, i) => {
    if (d !== sb[i] && d !== 1 && sb[i] !== 1) throw new Error(`shapes [${a.shape}] and [${b.shape}] do not broadcast`);
    return Math.max(d, sb[i]);
  });
  const strides = (s: number[]) => s.map((d, i) => (d === 1 ? 0 : size(s.slice(i + 1))));
  const [ta, tb] = [strides(sa), strides(sb)];
  const out = new Float32Array(size(shape));
  const index = new Array<number>(rank).fill(0);
  for (let k = 0; k < out.length; k++) {
    let ia = 0;
    let ib = 0;
    for (let d = 0; d < rank; d++) {
      ia += index[d] * ta[d];
      ib += index[d] * tb[d];
    }
    out[k] = op(a.data[ia], b.data[ib]);
    for (let d = rank - 1; d >= 0 && ++index[d] === shape[d]; d--) index[d] = 0;
  }
  return { shape, data: activate(out, activation) };
}

function fullyConnected(x: Tensor, w: Tensor, bias: Tensor | null, activation: number): Tensor {
  const [units, inputs] = w.shape;
  const batch = x.data.length / inputs;
  if (!Number.isInteger(batch)) throw new Error(`FULLY_CONNECTED input of ${x.data.length} values is not a multiple of ${inputs}`);
  const out = new Float32Array(batch * units);
  for (let b = 0; b < batch; b++)
    for (let u = 0; u < units; u++) {
      let s = bias ? bias.data[u] : 0;
      for (let i = 0; i < inputs; i++) s += x.data[b * inputs + i] * w.data[u * inputs + i];
      out[b * units + u] = s;
    }
  return { shape: [batch, units], data: activate(out, activation) };
}

function pad(x: Tensor, paddings: Tensor): Tensor {
  const rank = x.shape.length;
  const before = Array.from({ length: rank }, (_, d) => paddings.data[2 * d]);
  const shape = x.shape.map((s, d) => s + paddings.data[2 * d] + paddings.data[2 * d + 1]);
  const out = new Float32Array(size(shape));
  const index = new Array<number>(rank).fill(0);
  for (let k = 0; k < x.data.length; k++) {
    let target = 0;
    for (let d = 0; d < rank; d++) target = target * shape[d] + index[d] + before[d];
    out[target] = x.data[k];
    for (let d = rank - 1; d >= 0 && ++index[d] === x.shape[d]; d--) index[d] = 0;
  }
  return { shape, data: out };
}

function reshape(x: Tensor, target: readonly number[]): Tensor {
  const known = target.filter((d) => d !== -1).reduce((a, b) => a * b, 1);
  const shape = target.map((d) => (d === -1 ? x.data.length / known : d));
  if (size(shape) !== x.data.length) throw new Error(`cannot reshape [${x.shape}] to [${target}]`);
  return { shape, data: x.data };
}

/** Runs the model on one input tensor (any batch size: the graph's -1 dimensions follow it); returns its single output. */
export function runTflite(model: TfliteModel, input: Tensor): Tensor {
  if (model.inputs.length !== 1 || model.outputs.length !== 1) throw new Error('only single-input, single-output models are run');
  const values = new Map<number, Tensor>([[model.inputs[0], input]]);
  const get = (index: number): Tensor => {
    const v = values.get(index) ?? constant(model, index);
    if (!v) throw new Error(`tensor ${model.tensors[index].name} is read before it is written`);
    return v;
  };
  const optional = (index: number | undefined) => (index === undefined || index < 0 ? null : get(index));
  for (const op of model.operators) {
    const [a, b, c] = op.inputs;
    const o = op.options;
    let out: Tensor;
    if (op.op === 'CONV_2D' && o.kind === 'conv2d') out = conv2d(get(a), get(b), optional(c), o);
    else if (op.op === 'MAX_POOL_2D' && o.kind === 'pool2d') out = maxPool2d(get(a), o);
    else if (op.op === 'ADD') out = binary(get(a), get(b), (x, y) => x + y, o.kind === 'add' ? o.activation : ACTIVATION.NONE);
    else if (op.op === 'MUL') out = binary(get(a), get(b), (x, y) => x * y, o.kind === 'mul' ? o.activation : ACTIVATION.NONE);
    else if (op.op === 'FULLY_CONNECTED' && o.kind === 'fully_connected') {
      if (o.weights_format !== 0 || o.keep_num_dims) throw new Error('FULLY_CONNECTED with shuffled weights or kept dims is not supported');
      out = fullyConnected(get(a), get(b), optional(c), o.activation);
    } else if (op.op === 'LOGISTIC') out = { shape: get(a).shape, data: (get(a).data as Float32Array).map((v) => 1 / (1 + Math.exp(-v))) };
    else if (op.op === 'PAD') out = pad(get(a), get(b));
    else if (op.op === 'RESHAPE') out = reshape(get(a), b !== undefined && b >= 0 ? Array.from(get(b).data) : o.kind === 'reshape' ? o.new_shape : []);
    else if (op.op === 'EXPAND_DIMS') {
      const x = get(a);
      const axis = get(b).data[0];
      const at = axis < 0 ? axis + x.shape.length + 1 : axis;
      out = { shape: [...x.shape.slice(0, at), 1, ...x.shape.slice(at)], data: x.data };
    } else throw new Error(`operator ${op.op} is not supported by this interpreter`);
    values.set(op.outputs[0], out);
  }
  return get(model.outputs[0]);
}
