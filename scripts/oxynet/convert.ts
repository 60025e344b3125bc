/**
 * Converts pyoxynet's real-data-trained Oxynet CNN (Zignoli et al., Eur J Sport Sci 2022; MIT)
 * from its TensorFlow checkpoint into an ONNX model, with a record of what was read. Pure: reads
 * the input folder, returns bytes; `main.ts` writes them. The same inputs give the same bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkArchitecture, readParameters, type CheckedLayer, type TensorRecord } from './architecture.js';
import { TensorBundle } from './checkpoint/bundle.js';
import { cnnToOnnx, INPUT_NAME, OUTPUT_NAME, type ConvLayout } from './cnn-graph.js';
import { readKerasMetadata } from './keras-metadata.js';

export const UPSTREAM = {
  repository: 'https://github.com/andreazignoli/pyoxynet',
  commit: 'ba2fca8cd668ff5f42035873591dd2c8d8f6aa4c',
  licence: 'MIT',
  attribution: 'A. Zignoli et al., Oxynet: "Oxynet: a collective intelligence that detects ventilatory thresholds in cardiopulmonary exercise tests", European Journal of Sport Science, 2022',
} as const;

/** The files the conversion reads, with their upstream paths. */
export const SOURCES = [
  { file: 'variables.index', upstream_path: 'pyoxynet/pyoxynet/regressor/variables.index' },
  { file: 'variables.data-00000-of-00001', upstream_path: 'pyoxynet/pyoxynet/regressor/variables.data-00000-of-00001' },
  { file: 'keras_metadata.pb', upstream_path: 'pyoxynet/pyoxynet/regressor/keras_metadata.pb' },
] as const;

export const MODEL_NAME = 'oxynet-cnn';
export const CONVERTER_COMMAND = 'npm run convert:oxynet';

/**
 * Every published conversion of the same weights, oldest first. v1.1.0 changes only the graph's
 * layout (cnn-graph.ts: ONNX Runtime's faster 2-D kernels); v1.0.0 is rebuilt byte for byte.
 */
export const CONVERSIONS = [
  { version: 'v1.0.0', layout: 'conv1d' },
  { version: 'v1.1.0', layout: 'conv2d' },
] as const satisfies readonly { version: string; layout: ConvLayout }[];

export type ConversionVersion = (typeof CONVERSIONS)[number]['version'];

/** The channels of the input windows, in order; each min-max scaled per test. */
export const INPUT_CHANNELS = ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'] as const;

export interface ConversionRecord {
  model: { name: string; version: string };
  upstream: typeof UPSTREAM;
  sources: { file: string; upstream_path: string; bytes: number; sha256: string }[];
  architecture: CheckedLayer[];
  tensors: TensorRecord[];
  onnx: {
    file: string;
    bytes: number;
    sha256: string;
    ir_version: number;
    opset: number;
    layout: ConvLayout;
    input: { name: string; shape: (string | number)[]; channels: readonly string[]; scaling: string };
    output: { name: string; shape: (string | number)[]; columns: string };
    inference: string;
  };
  command: string;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Runs the conversion on the files of `inputDir`; throws (refuses) on any checksum or architecture mismatch. */
export function convertOxynet(inputDir: string, version: ConversionVersion): { onnx: Buffer; conversion: ConversionRecord } {
  const { layout } = CONVERSIONS.find((c) => c.version === version)!;
  const files = Object.fromEntries(SOURCES.map((s) => [s.file, readFileSync(join(inputDir, s.file))])) as Record<(typeof SOURCES)[number]['file'], Buffer>;
  const bundle = new TensorBundle(files['variables.index'], files['variables.data-00000-of-00001']);
  const bad = bundle.entries.filter((e) => !e.crc_ok).map((e) => e.key);
  if (bad.length) throw new Error(`checkpoint tensors fail their crc32c: ${bad.join(', ')}`);
  const layers = checkArchitecture(readKerasMetadata(files['keras_metadata.pb']));
  const { params, tensors } = readParameters(bundle, layers);
  const irVersion = 8;
  const opset = 17;
  const onnx = cnnToOnnx(
    params,
    {
      producer: 'cpet-analysis-service scripts/oxynet',
      doc: `Oxynet CNN (${UPSTREAM.attribution}); weights from ${UPSTREAM.repository} at ${UPSTREAM.commit} (${UPSTREAM.licence}), converted by ${CONVERTER_COMMAND}.`,
      irVersion,
      opset,
    },
    layout,
  );
  return {
    onnx,
    conversion: {
      model: { name: MODEL_NAME, version },
      upstream: UPSTREAM,
      sources: SOURCES.map((s) => ({ ...s, bytes: files[s.file].length, sha256: sha256(files[s.file]) })),
      architecture: layers,
      tensors,
      onnx: {
        file: 'model.onnx',
        bytes: onnx.length,
        sha256: sha256(onnx),
        ir_version: irVersion,
        opset,
        layout,
        input: { name: INPUT_NAME, shape: ['N', params.window, params.channels], channels: INPUT_CHANNELS, scaling: 'min-max per channel over the whole resampled test' },
        output: {
          name: OUTPUT_NAME,
          shape: ['N', params.dense.at(-1)!.outputs],
          columns: "sigmoid outputs in the model's own column order (not moderate, heavy, severe); assign them by the app's rule",
        },
        inference: "dropout off; batch normalisation with the moving statistics and each layer's epsilon",
      },
      command: CONVERTER_COMMAND,
    },
  };
}

/** conversion.json as written to disk. */
export function serializeConversion(record: ConversionRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
