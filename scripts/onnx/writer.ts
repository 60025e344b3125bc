/**
 * Writes ONNX models without a protobuf library: the handful of onnx.proto messages a small
 * float graph needs are encoded by hand. Field numbers are those of onnx/onnx.proto (ModelProto,
 * GraphProto, NodeProto, TensorProto, ValueInfoProto, TypeProto, TensorShapeProto,
 * AttributeProto, OperatorSetIdProto). Used by the gandalf trainer (scripts/train) and by the
 * converter of outside weights (scripts/oxynet).
 */

/** Protocol-buffer wire encoding of the few field kinds ONNX needs. */
class ProtoWriter {
  private readonly parts: Buffer[] = [];

  /** Varint field (wire type 0); a negative value is written as its 64-bit two's complement. */
  varint(field: number, value: number | bigint): this {
    this.parts.push(encodeVarint((BigInt(field) << 3n) | 0n), encodeVarint(BigInt.asUintN(64, BigInt(value))));
    return this;
  }

  /** 32-bit float field (wire type 5), little-endian. */
  float32(field: number, value: number): this {
    const payload = Buffer.alloc(4);
    payload.writeFloatLE(value);
    this.parts.push(encodeVarint((BigInt(field) << 3n) | 5n), payload);
    return this;
  }

  /** Length-delimited field (wire type 2): bytes, strings or nested messages. */
  bytes(field: number, value: Buffer | string | ProtoWriter): this {
    const payload = typeof value === 'string' ? Buffer.from(value, 'utf8') : value instanceof ProtoWriter ? value.finish() : value;
    this.parts.push(encodeVarint((BigInt(field) << 3n) | 2n), encodeVarint(BigInt(payload.length)), payload);
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function encodeVarint(value: bigint): Buffer {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

/** ONNX TensorProto.DataType values used here. */
const DATA_TYPE = { FLOAT: 1, INT64: 7 } as const;
/** ONNX AttributeProto.AttributeType values used here. */
const ATTRIBUTE_TYPE = { FLOAT: 1, INT: 2, INTS: 7 } as const;

/** A node attribute: one int, a list of ints, or one float. */
export type AttributeValue = { int: number } | { ints: readonly number[] } | { float: number };

/** A tensor dimension: a fixed size or a symbolic name (e.g. the batch `N`). */
export type Dim = number | string;

/** Model-level metadata. IR version 8 and opset 17 (both run by onnxruntime 1.x) unless given. */
export interface ModelMeta {
  producer: string;
  doc: string;
  irVersion?: number;
  opset?: number;
}

function attribute(name: string, value: AttributeValue): ProtoWriter {
  const a = new ProtoWriter().bytes(1, name);
  if ('int' in value) return a.varint(3, value.int).varint(20, ATTRIBUTE_TYPE.INT);
  if ('float' in value) return a.float32(2, value.float).varint(20, ATTRIBUTE_TYPE.FLOAT);
  for (const v of value.ints) a.varint(8, v);
  return a.varint(20, ATTRIBUTE_TYPE.INTS);
}

function valueInfo(name: string, dims: readonly Dim[]): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of dims) {
    const dim = new ProtoWriter();
    if (typeof d === 'number') dim.varint(1, d);
    else dim.bytes(2, d);
    shape.bytes(1, dim);
  }
  const tensorType = new ProtoWriter().varint(1, DATA_TYPE.FLOAT).bytes(2, shape);
  const type = new ProtoWriter().bytes(1, tensorType);
  return new ProtoWriter().bytes(1, name).bytes(2, type);
}

/**
 * Builds one ONNX graph in call order: nodes, initializers, inputs and outputs are written in the
 * order they were added, so the same calls give the same bytes.
 */
export class OnnxGraphBuilder {
  private readonly nodes: ProtoWriter[] = [];
  private readonly initializers: ProtoWriter[] = [];
  private readonly inputs: ProtoWriter[] = [];
  private readonly outputs: ProtoWriter[] = [];

  constructor(private readonly name: string) {}

  /** Adds a node; attributes are written in the key order of `attributes`. */
  node(op: string, inputs: readonly string[], outputs: readonly string[], name: string, attributes: Record<string, AttributeValue> = {}): this {
    const n = new ProtoWriter();
    for (const i of inputs) n.bytes(1, i);
    for (const o of outputs) n.bytes(2, o);
    n.bytes(3, name);
    n.bytes(4, op);
    for (const [key, value] of Object.entries(attributes)) n.bytes(5, attribute(key, value));
    this.nodes.push(n);
    return this;
  }

  /** A float32 initializer stored as raw little-endian bytes; `data` must hold the product of `dims` values. */
  floatInitializer(name: string, dims: readonly number[], data: Float32Array): this {
    checkSize(name, dims, data.length);
    const t = new ProtoWriter();
    for (const d of dims) t.varint(1, d);
    t.varint(2, DATA_TYPE.FLOAT);
    t.bytes(8, name);
    t.bytes(9, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    this.initializers.push(t);
    return this;
  }

  /** An int64 initializer (e.g. a Reshape target shape) stored as raw little-endian bytes. */
  int64Initializer(name: string, dims: readonly number[], data: readonly number[]): this {
    checkSize(name, dims, data.length);
    const raw = Buffer.alloc(8 * data.length);
    data.forEach((v, i) => {
      raw.writeBigInt64LE(BigInt(v), 8 * i);
    });
    const t = new ProtoWriter();
    for (const d of dims) t.varint(1, d);
    t.varint(2, DATA_TYPE.INT64);
    t.bytes(8, name);
    t.bytes(9, raw);
    this.initializers.push(t);
    return this;
  }

  /** A float32 graph input. */
  input(name: string, dims: readonly Dim[]): this {
    this.inputs.push(valueInfo(name, dims));
    return this;
  }

  /** A float32 graph output. */
  output(name: string, dims: readonly Dim[]): this {
    this.outputs.push(valueInfo(name, dims));
    return this;
  }

  /** The serialised ModelProto holding this graph and one opset import of the default domain. */
  toModel(meta: ModelMeta): Buffer {
    const graph = new ProtoWriter();
    for (const n of this.nodes) graph.bytes(1, n);
    graph.bytes(2, this.name);
    for (const t of this.initializers) graph.bytes(5, t);
    for (const i of this.inputs) graph.bytes(11, i);
    for (const o of this.outputs) graph.bytes(12, o);
    const opset = new ProtoWriter().bytes(1, '').varint(2, meta.opset ?? 17);
    return new ProtoWriter()
      .varint(1, meta.irVersion ?? 8)
      .bytes(2, meta.producer)
      .bytes(6, meta.doc)
      .bytes(7, graph)
      .bytes(8, opset)
      .finish();
  }
}

function checkSize(name: string, dims: readonly number[], length: number): void {
  const expected = dims.reduce((a, b) => a * b, 1);
  if (expected !== length) throw new Error(`initializer ${name}: dims [${dims.join(', ')}] need ${expected} values, got ${length}`);
}

/** A dense layer `y = x W + b` with W stored [in, out] row-major. */
export interface DenseLayer {
  weights: Float32Array;
  bias: Float32Array;
  inputs: number;
  outputs: number;
  /** Activation after the layer; the last layer's softmax turns logits into probabilities. */
  activation: 'relu' | 'softmax';
}

/** Encodes an MLP as an ONNX model: input `features` [N, F] float, output `probabilities` [N, C]. */
export function mlpToOnnx(layers: DenseLayer[], meta: { producer: string; doc: string }): Buffer {
  const graph = new OnnxGraphBuilder('gandalf');
  let current = 'features';
  layers.forEach((layer, i) => {
    const gemmOut = `dense${i}`;
    graph.node('Gemm', [current, `W${i}`, `b${i}`], [gemmOut], `gemm${i}`);
    const actOut = i === layers.length - 1 ? 'probabilities' : `act${i}`;
    if (layer.activation === 'relu') graph.node('Relu', [gemmOut], [actOut], `relu${i}`);
    else graph.node('Softmax', [gemmOut], [actOut], `softmax${i}`, { axis: { int: 1 } });
    current = actOut;
  });
  layers.forEach((layer, i) => {
    graph.floatInitializer(`W${i}`, [layer.inputs, layer.outputs], layer.weights);
    graph.floatInitializer(`b${i}`, [layer.outputs], layer.bias);
  });
  graph.input('features', ['N', layers[0].inputs]);
  graph.output('probabilities', ['N', layers[layers.length - 1].outputs]);
  return graph.toModel(meta);
}
