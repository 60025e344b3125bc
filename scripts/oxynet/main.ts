/**
 * `npm run convert:oxynet`: converts scripts/oxynet/input/ into models/oxynet-cnn/v1.0.0/model.onnx
 * and conversion.json (the lead writes card.json). Re-running it rewrites the same bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertOxynet, MODEL_NAME, MODEL_VERSION, serializeConversion } from './convert.js';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, '../../models', MODEL_NAME, MODEL_VERSION);
const { onnx, conversion } = convertOxynet(join(here, 'input'));
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'model.onnx'), onnx);
writeFileSync(join(out, 'conversion.json'), serializeConversion(conversion));
console.log(`wrote ${join(out, 'model.onnx')} (${onnx.length} bytes, sha256 ${conversion.onnx.sha256}) and conversion.json`);
