/**
 * `npx tsx scripts/train/export-shift-branches.ts [model@version] [tests] [--seed-base=<seed>]`: why a threshold
 * moves more than 30 s when the same synthetic breaths are exported as 5/10/15/20/30-s bin means (as
 * export-shift.ts draws them): per threshold, how many of those moves kept the evidence that placed it
 * (`placed_by`, the fits' breaks moving) and how many switched it (the decision rule taking another branch: VT1's
 * landmarks all agreeing or not, a landmark entering or leaving the undecided zone, VT2 from the gases, the curves
 * or the end of the test).
 */
import { createVtPlugin } from '../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR } from '../../analyses/vt/registry.js';
import type { Recording } from '../../src/recording/recording.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { heldOutCohort } from './cohorts.js';

const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const [name, version] = (positional[0] ?? 'gandalf@latest').split('@');
const N = Number(positional[1] ?? 48);
const seedBase = Number(flags.find((f) => f.startsWith('--seed-base='))?.split('=')[1] ?? 9_990_000);
/** A move larger than this is counted, s (twice the 15-s goal). */
const LARGE_S = 30;

const plugin = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
const key = { tier: 'research' as const, allowed_models: null };
type Placed = { time_s: number | null; placed_by: string };

async function placed(rec: Recording): Promise<Record<'vt1' | 'vt2', Placed> | null> {
  const out = await plugin.run(rec, { model: name, ...(version !== 'latest' ? { model_version: version } : {}), key, surface: 'web' });
  if (out.status !== 'ok') return null;
  const f = out.findings as { vt1_time_s: number | null; vt2_time_s: number | null; evidence?: Record<'vt1' | 'vt2', { placed_by: string }> };
  return { vt1: { time_s: f.vt1_time_s, placed_by: f.evidence?.vt1.placed_by ?? '' }, vt2: { time_s: f.vt2_time_s, placed_by: f.evidence?.vt2.placed_by ?? '' } };
}

const tests = heldOutCohort(Math.ceil(N / 12))
  .slice(0, N)
  .map((o, i) => ({ ...o, seed: seedBase + i }));
const tally: Record<string, number> = {};
let pairs = 0;
for (const o of tests) {
  const original = await placed(generateTest({ ...o, sampling: { kind: 'breath' } }).recording);
  for (const window_s of [5, 10, 15, 20, 30]) {
    const exported = await placed(generateTest({ ...o, sampling: { kind: 'averaged', window_s } }).recording);
    if (!original || !exported) continue;
    for (const k of ['vt1', 'vt2'] as const) {
      const [a, b] = [original[k], exported[k]];
      if (a.time_s === null || b.time_s === null) continue;
      pairs++;
      if (Math.abs(b.time_s - a.time_s) <= LARGE_S) continue;
      const cause = a.placed_by === b.placed_by ? `${k}: same evidence (${a.placed_by})` : `${k}: ${a.placed_by} -> ${b.placed_by}`;
      tally[cause] = (tally[cause] ?? 0) + 1;
    }
  }
}
console.log(`${name} ${version}, ${tests.length} tests from seed ${seedBase}, ${pairs} threshold pairs; moves over ${LARGE_S} s by cause:`);
for (const [cause, n] of Object.entries(tally).sort((x, y) => y[1] - x[1])) console.log(`  ${n}  ${cause}`);
