/**
 * Findings unchanged (issue 23): every installed model version, eov, substrate and every metric,
 * recomputed on every real fixture and the synthetic tests, serialise to exactly the bytes recorded
 * in test/fixtures/findings/ before the speed work. A model version without a file fails here until
 * `npx tsx test/findings/regenerate.ts` writes it (test/fixtures/findings/README.md).
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { findingsOf, goldenPath, goldenRecordings, goldenSubjects, type GoldenRecording, type Subject } from './golden.js';

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
      // Byte for byte on the compact serialisation, so a reformatted golden file reads the same.
      for (const label of new Set([...Object.keys(golden), ...Object.keys(now)])) {
        if (JSON.stringify(golden[label]) !== JSON.stringify(now[label])) changed.push(`${s.id} on ${label}`);
      }
    }
    expect(changed).to.deep.equal([]);
  });
});
