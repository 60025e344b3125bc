/**
 * `npm run bench`: runs every bench/*.bench.ts in turn. Each file's default export is an async
 * function returning its title and rows.
 */
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printRows, type BenchRow } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
// Shared machines are noisy: the load average says how much else ran beside the benchmarks.
console.log(`node ${process.version}, ${new Date().toISOString()}, ${cpus().length} cores, load average ${load()}`);
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<{ title: string; rows: BenchRow[] }> };
  const { title, rows } = await mod.default();
  printRows(title, rows);
}
console.log(`\nload average at the end: ${load()}`);
