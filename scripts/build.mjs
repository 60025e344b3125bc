// `npm run build`: compiles the service into dist/, a mirror of the project root that runs on plain
// Node with the production dependencies only (no tsx). Each TypeScript file of src/, the plugin
// kit's entry (packages/plugin-kit/src/), formats/, analyses/, web/*.ts and scripts/keys.ts becomes
// one JavaScript file at the same relative path (esbuild transforms file by file; `npm run typecheck` is the type check), and what the service
// reads at run time is copied beside it: the OpenAPI document, the model cards and weights, the web
// page's sources (bundled at start, as from the source tree), the worker entry and package.json.
// Plain JavaScript, so it runs before anything is compiled. dist/.build-stamp fingerprints the
// inputs; scripts/start.mjs rebuilds when it no longer matches.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');
export const STAMP = join(DIST, '.build-stamp');

/** Compiled: every .ts under these folders (tests, fixtures and declaration files excepted). */
const COMPILED_TREES = ['src', 'packages/plugin-kit/src', 'formats', 'analyses'];
const COMPILED_FILES = ['scripts/keys.ts', 'web/build.ts'];
/** Copied as they are. */
const COPIED = ['openapi', 'models', 'web/page', 'web/client', 'clients/typescript/src', 'src/workers/worker.mjs', 'src/plugin-kit/resolve-hooks.mjs', 'package.json'];
const SKIPPED_DIRS = new Set(['fixtures', 'node_modules', 'test']);

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(path, out);
    } else out.push(path);
  }
  return out;
}

function sources() {
  const compiled = [
    ...COMPILED_TREES.flatMap((d) => walk(join(ROOT, d), [])).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.test.ts')),
    ...COMPILED_FILES.map((f) => join(ROOT, f)),
  ];
  const copied = COPIED.flatMap((p) => {
    const path = join(ROOT, p);
    return statSync(path).isDirectory() ? walk(path, []) : [path];
  });
  return { compiled, copied };
}

/** A digest of every input's path, size and modification time: equal digests, same build. */
export function fingerprint() {
  const { compiled, copied } = sources();
  const hash = createHash('sha256');
  for (const file of [...new Set([...compiled, ...copied, join(ROOT, 'package-lock.json')])].sort()) {
    if (!existsSync(file)) continue;
    const st = statSync(file);
    hash.update(`${relative(ROOT, file).split(sep).join('/')}\0${st.size}\0${st.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/**
 * The package's subpath exports (the plugin kit) name TypeScript sources; in dist/ they name the
 * compiled modules, so a plugin importing `cpet-analysis-service/plugin` reaches the built kit. The
 * build ships no declarations, so dist/'s exports carry no `types` (it would name a missing file).
 */
function pointExportsAtBuild(packageJson) {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8'));
  const compiled = (value) =>
    typeof value === 'string'
      ? value.replace(/\.ts$/, '.js')
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([k]) => k !== 'types')
              .map(([k, v]) => [k, compiled(v)]),
          )
        : value;
  pkg.exports = compiled(pkg.exports);
  writeFileSync(packageJson, `${JSON.stringify(pkg, null, 2)}\n`);
}

/** Builds dist/ from scratch (a removed source file leaves nothing behind). */
export async function buildDist({ quiet = false } = {}) {
  const started = Date.now();
  const { compiled } = sources();
  rmSync(DIST, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: compiled,
    outdir: DIST,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const p of COPIED) {
    const from = join(ROOT, p);
    const to = join(DIST, p);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to, { recursive: true, filter: (src) => !SKIPPED_DIRS.has(src.split(sep).at(-1)) });
  }
  pointExportsAtBuild(join(DIST, 'package.json'));
  writeFileSync(STAMP, `${fingerprint()}\n`);
  if (!quiet) console.log(`built dist/ (${compiled.length} modules) in ${Date.now() - started} ms`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildDist();
}
