/**
 * Writes a small ONNX model (a chain of Gemm / Relu / Softmax over one float input) without a
 * protobuf library: the handful of onnx.proto messages it needs are encoded by hand. Field
 * numbers are those of onnx/onnx.proto (ModelProto, GraphProto, NodeProto, TensorProto,
 * ValueInfoProto, TypeProto, TensorShapeProto, AttributeProto, OperatorSetIdProto).
 */

/** Protocol-buffer wire encoding of the few field kinds ONNX needs. */
class ProtoWriter {
  private readonly parts: Buffer[] = [];

  /** Varint field (wire type 0). */
  varint(field: number, value: number | bigint): this {
    this.parts.push(encodeVarint((BigInt(field) << 3n) | 0n), encodeVarint(BigInt(value)));
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

/** ONNX TensorProto.DataType.FLOAT. */
const FLOAT = 1;

/** A dense layer `y = x W + b` with W stored [in, out] row-major. */
export interface DenseLayer {
  weights: Float32Array;
  bias: Float32Array;
  inputs: number;
  outputs: number;
  /** Activation after the layer; the last layer's softmax turns logits into probabilities. */
  activation: 'relu' | 'softmax';
}

function tensor(name: string, dims: number[], data: Float32Array): ProtoWriter {
  const t = new ProtoWriter();
  for (const d of dims) t.varint(1, d);
  t.varint(2, FLOAT);
  t.bytes(8, name);
  t.bytes(9, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  return t;
}

function valueInfo(name: string, dims: (number | string)[]): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of dims) {
    const dim = new ProtoWriter();
    if (typeof d === 'number') dim.varint(1, d);
    else dim.bytes(2, d);
    shape.bytes(1, dim);
  }
  const tensorType = new ProtoWriter().varint(1, FLOAT).bytes(2, shape);
  const type = new ProtoWriter().bytes(1, tensorType);
  return new ProtoWriter().bytes(1, name).bytes(2, type);
}

function node(op: string, inputs: string[], outputs: string[], name: string, attrs: ProtoWriter[] = []): ProtoWriter {
  const n = new ProtoWriter();
  for (const i of inputs) n.bytes(1, i);
  for (const o of outputs) n.bytes(2, o);
  n.bytes(3, name);
  n.bytes(4, op);
  for (const a of attrs) n.bytes(5, a);
  return n;
}

/** AttributeProto of type INT (AttributeType.INT = 2). */
function intAttr(name: string, value: number): ProtoWriter {
  return new ProtoWriter().bytes(1, name).varint(3, value).varint(20, 2);
}

/**
 * Encodes an MLP as an ONNX model: input `features` [N, F] float, output `probabilities` [N, C].
 * IR version 8, opset 17 (both run by onnxruntime 1.x).
 */
export function mlpToOnnx(layers: DenseLayer[], meta: { producer: string; doc: string }): Buffer {
  const graph = new ProtoWriter();
  let current = 'features';
  layers.forEach((layer, i) => {
    const gemmOut = `dense${i}`;
    graph.bytes(1, node('Gemm', [current, `W${i}`, `b${i}`], [gemmOut], `gemm${i}`));
    const actOut = i === layers.length - 1 ? 'probabilities' : `act${i}`;
    if (layer.activation === 'relu') graph.bytes(1, node('Relu', [gemmOut], [actOut], `relu${i}`));
    else graph.bytes(1, node('Softmax', [gemmOut], [actOut], `softmax${i}`, [intAttr('axis', 1)]));
    current = actOut;
  });
  graph.bytes(2, 'gandalf');
  layers.forEach((layer, i) => {
    graph.bytes(5, tensor(`W${i}`, [layer.inputs, layer.outputs], layer.weights));
    graph.bytes(5, tensor(`b${i}`, [layer.outputs], layer.bias));
  });
  graph.bytes(11, valueInfo('features', ['N', layers[0].inputs]));
  graph.bytes(12, valueInfo('probabilities', ['N', layers[layers.length - 1].outputs]));

  const opset = new ProtoWriter().bytes(1, '').varint(2, 17);
  return new ProtoWriter()
    .varint(1, 8)
    .bytes(2, meta.producer)
    .bytes(6, meta.doc)
    .bytes(7, graph)
    .bytes(8, opset)
    .finish();
}
