// `npm start` (and `npm run keys`): runs the built service from dist/, building it first when dist/
// is missing or older than the sources (scripts/build.mjs), so `npm ci && npm start` stays the one
// command and production runs plain Node with no devDependency. The first argument names the entry
// under dist/ (default src/main); the rest are the entry's own arguments. Where there are no sources
// (a container image holding dist/ alone) dist/ is run as it is.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDist, DIST, fingerprint, ROOT, STAMP } from './build.mjs';

const entry = process.argv[2] ?? 'src/main';
process.argv.splice(2, 1);
if (existsSync(join(ROOT, 'src'))) {
  const stamp = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : null;
  if (stamp !== fingerprint()) {
    process.stderr.write(stamp ? 'dist/ is older than the sources: rebuilding\n' : 'dist/ is missing: building\n');
    await buildDist({ quiet: true });
  }
}
await import(pathToFileURL(join(DIST, `${entry}.js`)).href);
