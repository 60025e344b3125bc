/**
 * Reads a TFLite model (FlatBuffer, file identifier "TFL3") with flatbuffer.ts: its tensors,
 * buffers, operator codes and operators with their builtin options. Field indices follow the
 * table definitions of TensorFlow Lite's schema (tensorflow/lite/schema/schema.fbs): only the
 * fields and options this project's interpreter needs are read, each by its position there.
 */
import { type FlatTable, rootTable } from './flatbuffer.js';

/** BuiltinOperator values of the operators read here (schema.fbs enum BuiltinOperator). */
export const BUILTIN = {
  ADD: 0,
  CONV_2D: 3,
  FULLY_CONNECTED: 9,
  LOGISTIC: 14,
  MAX_POOL_2D: 17,
  MUL: 18,
  RELU: 19,
  RESHAPE: 22,
  PAD: 34,
  SQUEEZE: 43,
  EXPAND_DIMS: 70,
} as const;
export type BuiltinName = keyof typeof BUILTIN;

/** TensorType values (schema.fbs enum TensorType). */
export const TENSOR_TYPE = { FLOAT32: 0, INT32: 2 } as const;
/** ActivationFunctionType values (schema.fbs). */
export const ACTIVATION = { NONE: 0, RELU: 1, RELU_N1_TO_1: 2, RELU6: 3, TANH: 4 } as const;
/** Padding values (schema.fbs). */
export const PADDING = { SAME: 0, VALID: 1 } as const;

/** BuiltinOptions union member index of each options table read here (schema.fbs union BuiltinOptions). */
const OPTIONS = { Conv2DOptions: 1, Pool2DOptions: 5, FullyConnectedOptions: 8, AddOptions: 11, ReshapeOptions: 17, MulOptions: 21, PadOptions: 22, SqueezeOptions: 30 } as const;

export interface TfliteTensor {
  name: string;
  shape: number[];
  /** shape_signature when present (-1 marks a dynamic dimension, e.g. the batch). */
  shape_signature: number[] | null;
  type: number;
  buffer: number;
}

export type OperatorOptions =
  | { kind: 'conv2d'; padding: number; stride_w: number; stride_h: number; activation: number; dilation_w: number; dilation_h: number }
  | { kind: 'pool2d'; padding: number; stride_w: number; stride_h: number; filter_w: number; filter_h: number; activation: number }
  | { kind: 'fully_connected'; activation: number; weights_format: number; keep_num_dims: boolean }
  | { kind: 'add' | 'mul'; activation: number }
  | { kind: 'reshape'; new_shape: number[] }
  | { kind: 'squeeze'; squeeze_dims: number[] }
  | { kind: 'none'; union_type: number };

export interface TfliteOperator {
  /** The builtin code (e.g. 3 for CONV_2D), resolved through the operator code table. */
  code: number;
  /** Its name when this reader knows it, else `BUILTIN_<code>`. */
  op: string;
  inputs: number[];
  outputs: number[];
  options: OperatorOptions;
}

export interface TfliteModel {
  version: number;
  description: string | null;
  tensors: TfliteTensor[];
  /** Each buffer's bytes (views into the file; empty for activations). */
  buffers: Uint8Array[];
  inputs: number[];
  outputs: number[];
  operators: TfliteOperator[];
}

function readOptions(op: FlatTable): OperatorOptions {
  const type = op.uint8(3);
  const t = op.table(4);
  if (!t) return { kind: 'none', union_type: type };
  switch (type) {
    case OPTIONS.Conv2DOptions:
      return { kind: 'conv2d', padding: t.int8(0), stride_w: t.int32(1), stride_h: t.int32(2), activation: t.int8(3), dilation_w: t.int32(4, 1), dilation_h: t.int32(5, 1) };
    case OPTIONS.Pool2DOptions:
      return { kind: 'pool2d', padding: t.int8(0), stride_w: t.int32(1), stride_h: t.int32(2), filter_w: t.int32(3), filter_h: t.int32(4), activation: t.int8(5) };
    case OPTIONS.FullyConnectedOptions:
      return { kind: 'fully_connected', activation: t.int8(0), weights_format: t.int8(1), keep_num_dims: t.bool(2) };
    case OPTIONS.AddOptions:
      return { kind: 'add', activation: t.int8(0) };
    case OPTIONS.MulOptions:
      return { kind: 'mul', activation: t.int8(0) };
    case OPTIONS.ReshapeOptions:
      return { kind: 'reshape', new_shape: t.int32Vector(0) };
    case OPTIONS.SqueezeOptions:
      return { kind: 'squeeze', squeeze_dims: t.int32Vector(0) };
    default:
      return { kind: 'none', union_type: type };
  }
}

/** Reads the model's first subgraph (TFLite models converted from Keras have one). */
export function readTflite(bytes: Uint8Array): TfliteModel {
  const model = rootTable(bytes, 'TFL3');
  // OperatorCode: 0 deprecated_builtin_code (int8), 3 builtin_code (int32); the larger of the two is the code.
  const codes = model.tableVector(1).map((c) => Math.max(c.int8(0), c.int32(3)));
  const subgraphs = model.tableVector(2);
  if (subgraphs.length !== 1) throw new Error(`the model has ${subgraphs.length} subgraphs; one is read`);
  const sg = subgraphs[0];
  const buffers = model.tableVector(4).map((b) => {
    if (b.has(1) || b.has(2)) throw new Error('buffers stored outside the FlatBuffer (offset/size) are not read');
    return b.byteVector(0);
  });
  const tensors = sg.tableVector(0).map(
    (t): TfliteTensor => ({
      shape: t.int32Vector(0),
      type: t.int8(1),
      buffer: t.uint32(2),
      name: t.string(3) ?? '',
      shape_signature: t.has(7) ? t.int32Vector(7) : null,
    }),
  );
  const names = new Map<number, string>(Object.entries(BUILTIN).map(([k, v]) => [v, k]));
  const operators = sg.tableVector(3).map((op): TfliteOperator => {
    const index = op.uint32(0);
    if (index >= codes.length) throw new Error(`operator uses opcode ${index} of ${codes.length}`);
    const code = codes[index];
    return { code, op: names.get(code) ?? `BUILTIN_${code}`, inputs: op.int32Vector(1), outputs: op.int32Vector(2), options: readOptions(op) };
  });
  return { version: model.uint32(0), description: model.string(3), tensors, buffers, inputs: sg.int32Vector(1), outputs: sg.int32Vector(2), operators };
}
