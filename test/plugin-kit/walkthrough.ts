/** docs/plugins.md's code blocks, for the tests that build its plugin. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../src/plugins.js';

/** The walkthrough's files: every fenced block whose info string names `file=<path>`. */
export function walkthroughFiles(): Map<string, string> {
  const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'plugins.md'), 'utf8');
  const files = new Map<string, string>();
  for (const m of doc.matchAll(/^```\w+ file=(\S+)\n([\s\S]*?)^```$/gm)) files.set(m[1], m[2]);
  return files;
}

/** Writes a file, making its folder. */
export function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** The walkthrough's plugin as an npm package named `name` under `<dir>/node_modules`. */
export function installWalkthroughPackage(dir: string, name: string): void {
  const files = walkthroughFiles();
  const pkg = join(dir, 'node_modules', name);
  write(join(pkg, 'package.json'), files.get('package.json') as string);
  for (const file of ['meta.ts', 'detect.ts', 'parse.ts', 'index.ts']) write(join(pkg, file), files.get(`formats/acme-cart-csv/${file}`) as string);
}
