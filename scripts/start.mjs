// `npm start` (and `npm run keys`): runs the built service from dist/, building it first when dist/
// is missing or older than the sources (scripts/build.mjs), so `npm ci && npm start` stays the one
// command and production runs plain Node with no devDependency. The first argument names the entry
// under dist/ (default src/main); the rest are the entry's own arguments. Where there are no sources
// (a container image holding dist/ alone) dist/ is run as it is.
// Under `npm start` a supervisor that signals only npm's pid ends npm (npm 11 does not pass SIGTERM
// on to its script), which left this process serving, orphaned, on the port. So while npm is the
// parent, its going away counts as SIGTERM: the service drains and exits as if signalled itself.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDist, DIST, fingerprint, ROOT, STAMP } from './build.mjs';

/** How often the parent is looked at (a drain takes seconds; this adds at most this much). */
const PARENT_POLL_MS = 250;

if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, PARENT_POLL_MS);
  watch.unref();
}

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
