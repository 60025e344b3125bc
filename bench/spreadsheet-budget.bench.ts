/**
 * The spreadsheet budget (issue 20, item 3): how long a workbook of a few hundred KB whose sheet
 * inflates to 40, 80 or 115 MB of tiny cells takes to be refused through the public parse path
 * (detection, then the budget check before any parser), against the 2-s goal.
 * `npx tsx bench/run.ts spreadsheet`
 */
import { ServiceError } from '../src/errors.js';
import { readUpload } from '../src/formats/read-upload.js';
import { loadPlugins } from '../src/plugins.js';
import { tinyCellsXlsx } from '../src/synthetic/hostile-workbook.js';
import { atMost, medianMs, type BenchRow } from './harness.js';

/** What the issue asks of a refusal: within 2 s for any workbook under the upload limit. */
const REFUSAL_GOAL_MS = 2_000;

export default async function bench(): Promise<{ title: string; rows: BenchRow[] }> {
  const { formats } = await loadPlugins();
  const rows: BenchRow[] = [];
  for (const inflatedMb of [40, 80, 115]) {
    const bytes = tinyCellsXlsx(inflatedMb);
    const refuse = async (): Promise<void> => {
      try {
        await readUpload('export.xlsx', bytes, formats);
      } catch (err) {
        if (err instanceof ServiceError && err.code === 'FILE_TOO_LARGE') return;
        throw err;
      }
      throw new Error(`a workbook inflating to ${inflatedMb} MB was read instead of refused`);
    };
    const ms = await medianMs(refuse, 5);
    rows.push({ name: `refuse a ${Math.round(bytes.length / 1024)} KB xlsx inflating to ${inflatedMb} MB`, median_ms: ms, runs: 5, goal: atMost(ms, REFUSAL_GOAL_MS, 'ms') });
  }
  return { title: 'Spreadsheet budget: hostile workbooks refused before parsing', rows };
}
