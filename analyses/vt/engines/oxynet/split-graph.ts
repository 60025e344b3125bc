/**
 * The Oxynet graph (scripts/oxynet/cnn-graph.ts, 2-D layout) cut in two where its convolutions end:
 * the convolution blocks with the transpose to time-major ('trunk': windows [N, T, 5] to features
 * [N, T / 4, 64]) and the dense blocks ('dense': features [N, 10, 64] to the outputs [N, 3]). Both
 * keep the published file's own nodes and weights, byte for byte: the cut copies protobuf fields and
 * writes only the new graphs' names, inputs and outputs (ONNX's protobuf encoding: onnx/onnx.proto,
 * ModelProto field 7 the graph; GraphProto fields 1 node, 2 name, 5 initializer, 11 input, 12 output).
 */

/** A field of a protobuf message: its number and where it sits (whole field, and its payload). */
interface Field {
  no: number;
  start: number;
  end: number;
  dataStart: number;
  dataEnd: number;
}

function readVarint(b: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  let i = at;
  for (;;) {
    const byte = b[i++];
    if (byte === undefined) throw new Error('the ONNX file ends inside a varint');
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, i];
    scale *= 128;
  }
}

/** The fields of the message in b[from, to). */
function fieldsOf(b: Uint8Array, from = 0, to = b.length): Field[] {
  const out: Field[] = [];
  let i = from;
  while (i < to) {
    const start = i;
    const [key, next] = readVarint(b, i);
    const wire = key & 7;
    let dataStart = next;
    if (wire === 0) i = readVarint(b, next)[1];
    else if (wire === 1) i = next + 8;
    else if (wire === 5) i = next + 4;
    else if (wire === 2) {
      const [length, payload] = readVarint(b, next);
      dataStart = payload;
      i = payload + length;
    } else throw new Error(`the ONNX file holds protobuf wire type ${wire}, which the graph does not use`);
    out.push({ no: Math.floor(key / 8), start, end: i, dataStart, dataEnd: i });
  }
  if (i !== to) throw new Error('a protobuf message of the ONNX file overruns its length');
  return out;
}

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 128) {
    out.push((v % 128) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A length-delimited field. */
function bytesField(no: number, payload: Uint8Array): Uint8Array {
  return concat([Uint8Array.from([...varint(no * 8 + 2), ...varint(payload.length)]), payload]);
}

function intField(no: number, value: number): Uint8Array {
  return Uint8Array.from([...varint(no * 8), ...varint(value)]);
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** A float32 ValueInfoProto; a string dimension is symbolic. */
function floatValueInfo(name: string, dims: (string | number)[]): Uint8Array {
  const shape = concat(dims.map((d) => bytesField(1, typeof d === 'number' ? intField(1, d) : bytesField(2, utf8(d)))));
  // TypeProto.tensor_type (1): elem_type (1) = FLOAT, shape (2).
  return concat([bytesField(1, utf8(name)), bytesField(2, bytesField(1, concat([intField(1, 1), bytesField(2, shape)])))]);
}

/** The node that starts the dense part (cnn-graph.ts): the flatten of the time-major features. */
const FIRST_DENSE_NODE = 'flatten';
/** The node only the 2-D layout has (the squeeze back from [N, C, 1, T]); the 1-D layout is not cut. */
const TWO_D_NODE = 'to_1d';
/** The tensor between the two parts: the last convolution block's output, time-major. */
export const FEATURES_NAME = 'features_ntc';
/** Channels and time steps of the features a 40-s window gives. */
export const FEATURE_CHANNELS = 64;
export const FEATURE_STEPS = 10;

/** The two parts of an Oxynet ONNX file in the 2-D layout; throws when the file is not that graph. */
export function splitOxynetGraph(model: Uint8Array): { trunk: Uint8Array; dense: Uint8Array } {
  const top = fieldsOf(model);
  const graphField = top.find((f) => f.no === 7);
  if (!graphField) throw new Error('the ONNX file holds no graph');
  const graph = fieldsOf(model, graphField.dataStart, graphField.dataEnd);
  const text = (f: Field) => new TextDecoder().decode(model.subarray(f.dataStart, f.dataEnd));
  const nodes = graph.filter((f) => f.no === 1);
  const nodeName = (f: Field) => {
    const name = fieldsOf(model, f.dataStart, f.dataEnd).find((x) => x.no === 3);
    return name ? text(name) : '';
  };
  const nodeInputs = (f: Field) =>
    fieldsOf(model, f.dataStart, f.dataEnd)
      .filter((x) => x.no === 1)
      .map(text);
  const initializerName = (f: Field) => {
    const name = fieldsOf(model, f.dataStart, f.dataEnd).find((x) => x.no === 8);
    return name ? text(name) : '';
  };
  const cut = nodes.findIndex((f) => nodeName(f) === FIRST_DENSE_NODE);
  const twoD = nodes.some((f) => nodeName(f) === TWO_D_NODE);
  if (!twoD || cut <= 0 || !nodeInputs(nodes[cut]).includes(FEATURES_NAME))
    throw new Error(`the graph has no node ${TWO_D_NODE}, or no ${FIRST_DENSE_NODE} reading ${FEATURES_NAME}: not the 2-D layout`);
  const initializers = graph.filter((f) => f.no === 5);
  const output = graph.find((f) => f.no === 12);
  if (!output) throw new Error('the graph names no output');
  const raw = (f: Field) => model.subarray(f.start, f.end);
  const part = (name: string, selected: Field[], input: Uint8Array, out: Uint8Array): Uint8Array => {
    const used = new Set(selected.flatMap(nodeInputs));
    const body = concat([...selected.map(raw), bytesField(2, utf8(name)), ...initializers.filter((f) => used.has(initializerName(f))).map(raw), bytesField(11, input), bytesField(12, out)]);
    // The model's other fields (IR version, opset, producer) in their order, the graph in its place.
    return concat([...top.filter((f) => f.no < 7).map(raw), bytesField(7, body), ...top.filter((f) => f.no > 7).map(raw)]);
  };
  return {
    trunk: part('oxynet_trunk', nodes.slice(0, cut), floatValueInfo('windows', ['N', 'T', 5]), floatValueInfo(FEATURES_NAME, ['N', 'W', FEATURE_CHANNELS])),
    dense: part('oxynet_dense', nodes.slice(cut), floatValueInfo(FEATURES_NAME, ['N', FEATURE_STEPS, FEATURE_CHANNELS]), model.subarray(output.dataStart, output.dataEnd)),
  };
}
