/**
 * Findings unchanged (issue 23): every installed model version, eov, substrate and every metric,
 * recomputed on every real fixture and the synthetic tests, serialise to exactly the bytes recorded
 * in test/fixtures/findings/ before the speed work. A model version without a file fails here until
 * `npx tsx test/findings/regenerate.ts` writes it (test/fixtures/findings/README.md).
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { findingsOf, goldenPath, goldenRecordings, goldenSubjects, type GoldenRecording, type Subject } from './golden.js';

/** The Node major that wrote the golden files; another V8 may round a libm call (Math.exp, Math.pow) differently. */
const GOLDEN_NODE_MAJOR = 20;
const sameRuntime = Number(process.versions.node.split('.')[0]) === GOLDEN_NODE_MAJOR;

/** Equal, numbers within 1e-9 relative: what another runtime's last-bit libm differences may move. */
function nearlyEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => nearlyEqual(v, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => nearlyEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

describe('findings unchanged by speed work (golden files)', function () {
  this.timeout(600_000);
  let subjects: Subject[] = [];
  let recordings: GoldenRecording[] = [];

  before(async () => {
    subjects = await goldenSubjects();
    recordings = await goldenRecordings();
  });

  it('has a golden file for every subject the installed code computes', () => {
    const missing = subjects.filter((s) => !existsSync(goldenPath(s.id))).map((s) => s.id);
    expect(missing, 'write them with: npx tsx test/findings/regenerate.ts').to.deep.equal([]);
  });

  it('recomputes every subject to the same bytes', async () => {
    const changed: string[] = [];
    for (const s of subjects) {
      if (!existsSync(goldenPath(s.id))) continue;
      const golden = JSON.parse(readFileSync(goldenPath(s.id), 'utf8')) as Record<string, unknown>;
      const now = await findingsOf(s, recordings);
      // Byte for byte on the compact serialisation (so a reformatted golden file reads the same) on the
      // runtime that wrote the files; on another Node major, numbers to 1e-9 relative.
      for (const label of new Set([...Object.keys(golden), ...Object.keys(now)])) {
        const same = sameRuntime
          ? JSON.stringify(golden[label]) === JSON.stringify(now[label])
          : nearlyEqual(JSON.parse(JSON.stringify(golden[label] ?? null)), JSON.parse(JSON.stringify(now[label] ?? null)));
        if (!same) changed.push(`${s.id} on ${label}`);
      }
    }
    expect(changed).to.deep.equal([]);
  });
});
