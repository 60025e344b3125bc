// Builds the kit's package into dist/: one ES module bundling the kit and the service sources it
// re-exports (esbuild; its npm imports stay imports, each a dependency in package.json), and the
// type declarations of the same sources (tsc) behind dist/index.d.ts. Run by `npm pack` and
// `npm publish` through `prepare`, from a checkout of the service (the sources live in its src/).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = join(HERE, 'dist');
const pkg = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'));
// The plugin loader imports tsx only to load a plugin package shipped as TypeScript, which nothing
// the kit exports does; the kit does not carry tsx for it.
const UNDECLARED_OK = new Set(['tsx']);

rmSync(DIST, { recursive: true, force: true });
const result = await build({
  absWorkingDir: HERE,
  entryPoints: ['src/index.ts'],
  outfile: join(DIST, 'index.js'),
  bundle: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  metafile: true,
  logLevel: 'warning',
});

const packageName = (path) => (path.startsWith('@') ? path.split('/').slice(0, 2) : path.split('/').slice(0, 1)).join('/');
const imported = new Set(
  Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && !i.path.startsWith('node:'))
    .map((i) => packageName(i.path)),
);
const undeclared = [...imported].filter((name) => !(name in pkg.dependencies) && !UNDECLARED_OK.has(name));
if (undeclared.length > 0) throw new Error(`the kit imports ${undeclared.join(', ')}: add each to packages/plugin-kit/package.json's dependencies`);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(HERE, 'tsconfig.json')], { stdio: 'inherit' });
// tsc mirrors the sources' layout from the repository root; the entry re-exports it.
writeFileSync(join(DIST, 'index.d.ts'), "export * from './types/packages/plugin-kit/src/index.js';\n");
