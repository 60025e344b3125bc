/**
 * Writes the golden findings (test/fixtures/findings/<subject>.json) of every subject that has no file
 * yet: a new model version adds its own file and leaves every other untouched.
 *   npx tsx test/findings/regenerate.ts               # only missing files
 *   npx tsx test/findings/regenerate.ts vt/gandalf@v1.3.0 eov   # rewrite these (a deliberate change of what they compute)
 * Rewriting a published version's file is a change of what that version computes, which the project does not allow:
 * make a new version instead.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { findingsOf, goldenPath, goldenRecordings, goldenSubjects } from './golden.js';

const named = process.argv.slice(2);
const subjects = await goldenSubjects();
const unknown = named.filter((n) => !subjects.some((s) => s.id === n));
if (unknown.length) {
  console.error(`no subject named ${unknown.join(', ')}; subjects: ${subjects.map((s) => s.id).join(', ')}`);
  process.exit(2);
}
const recordings = await goldenRecordings();
for (const s of subjects) {
  const path = goldenPath(s.id);
  if (named.length ? !named.includes(s.id) : existsSync(path)) continue;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(await findingsOf(s, recordings), null, 1)}\n`);
  console.log(`wrote ${relative(PROJECT_ROOT, path)}`);
}
