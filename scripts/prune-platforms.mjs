// Removes the native binaries that onnxruntime-node ships for other operating systems and
// processors (macOS, Windows, the other Linux architecture: about 220 MB) from an installed
// node_modules, keeping only the one this Node loads. The production image runs it after
// `npm ci --omit=dev`; nothing else needs it.
//   node scripts/prune-platforms.mjs [node_modules folder, default ./node_modules]
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const modules = resolve(process.argv[2] ?? 'node_modules');
const bin = join(modules, 'onnxruntime-node', 'bin');
if (!existsSync(bin)) {
  console.error(`no onnxruntime-node binaries under ${bin}`);
  process.exit(1);
}
const removed = [];
// bin/napi-v<N>/<platform>/<arch>/: the layout onnxruntime-node's own loader (dist/binding.js) reads.
for (const napi of readdirSync(bin)) {
  if (!existsSync(join(bin, napi, process.platform, process.arch))) {
    console.error(`onnxruntime-node has no ${napi} binary for ${process.platform}/${process.arch}: nothing removed`);
    process.exit(1);
  }
  for (const platform of readdirSync(join(bin, napi))) {
    for (const arch of readdirSync(join(bin, napi, platform))) {
      if (platform === process.platform && arch === process.arch) continue;
      rmSync(join(bin, napi, platform, arch), { recursive: true, force: true });
      removed.push(`${napi}/${platform}/${arch}`);
    }
    if (readdirSync(join(bin, napi, platform)).length === 0) rmSync(join(bin, napi, platform), { recursive: true });
  }
}
console.log(`onnxruntime-node: kept ${process.platform}/${process.arch}, removed ${removed.join(', ') || 'nothing'}`);
