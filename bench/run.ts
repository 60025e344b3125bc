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
const answered: BenchRow[] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<{ title: string; rows: BenchRow[] }> };
  const { title, rows } = await mod.default();
  printRows(title, rows);
  answered.push(...rows.filter((r) => r.goal?.issue_row));
}
// Issue 23's table, every row as this run measured it: the README's performance table is this block.
if (answered.length) {
  console.log('\n## issue 23 goals, this run (ratio = figure / goal)\n');
  console.log('| goal | measured on | figure | goal | ratio | met |');
  console.log('|---|---|---|---|---|---|');
  for (const r of answered) {
    const g = r.goal!;
    const figure = r.extra?.figure ?? `${r.median_ms.toFixed(1)} ms`;
    console.log(`| ${g.issue_row} | ${r.name} | ${figure} | ${g.text} | ${g.ratio.toFixed(2)} | ${g.met ? 'yes' : 'no'} |`);
  }
}
console.log(`\nload average at the end: ${load()}`);
