/**
 * `npm run convert:oxynet`: converts scripts/oxynet/input/ into models/oxynet-cnn/<version>/model.onnx
 * and conversion.json for every published conversion (convert.ts CONVERSIONS), and writes the static
 * part of the two cards built on each (cards.ts), keeping the evaluation an earlier
 * `npm run evaluate -- --write` recorded in them. Re-running it rewrites the same bytes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelCard } from '../../analyses/vt/card.js';
import { mergeCard, oxynetCards } from './cards.js';
import { CONVERSIONS, convertOxynet, MODEL_NAME, serializeConversion } from './convert.js';

const here = dirname(fileURLToPath(import.meta.url));
const models = resolve(here, '../../models');
for (const { version } of CONVERSIONS) {
  const out = join(models, MODEL_NAME, version);
  const { onnx, conversion } = convertOxynet(join(here, 'input'), version);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'model.onnx'), onnx);
  writeFileSync(join(out, 'conversion.json'), serializeConversion(conversion));
  console.log(`wrote ${join(out, 'model.onnx')} (${onnx.length} bytes, sha256 ${conversion.onnx.sha256}) and conversion.json`);
  for (const card of oxynetCards(conversion)) {
    const dir = join(models, card.name, card.version);
    const path = join(dir, 'card.json');
    const existing = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ModelCard) : null;
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, `${JSON.stringify(mergeCard(existing, card), null, 2)}\n`);
    console.log(`wrote ${path}`);
  }
}
