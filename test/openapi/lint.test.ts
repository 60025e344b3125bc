import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { API_DOCUMENT_PATH, loadApiDocument, withFormatIds, withoutWebOnly } from '../../src/openapi/document.js';
import { loadPlugins } from '../../src/plugins.js';
import { PROJECT_ROOT } from '../../src/plugins.js';

const run = promisify(execFile);
const REDOCLY = join(PROJECT_ROOT, 'node_modules', '.bin', 'redocly');
const CONFIG = join(PROJECT_ROOT, 'redocly.yaml');
/** The warnings redocly.yaml explains; any other fails the first test. */
const JUSTIFIED_WARNINGS = ['no-illogical-composition-keywords at #/components/schemas/ContentUploadRequest/oneOf'];

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/** Runs `redocly lint --format=json` with the project's config; a non-zero exit still prints the report. */
async function lint(file: string): Promise<{ totals: { errors: number; warnings: number }; problems: LintProblem[] }> {
  const args = ['lint', file, '--format=json', `--config=${CONFIG}`];
  const output = await run(REDOCLY, args, { cwd: PROJECT_ROOT, maxBuffer: 16 * 1024 * 1024 }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  return JSON.parse(output.stdout);
}

function describeErrors(problems: LintProblem[]): string {
  return problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)
    .join('\n');
}

describe('openapi lint', () => {
  it('the hand-written document lints with zero errors and only the warning redocly.yaml justifies', async () => {
    const report = await lint(API_DOCUMENT_PATH);
    expect(report.totals.errors, describeErrors(report.problems)).to.equal(0);
    expect(report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}`)).to.deep.equal(JUSTIFIED_WARNINGS);
  });

  for (const [name, served] of [
    [
      'the document served at /v1/openapi.json (format ids filled in)',
      async () =>
        withFormatIds(
          loadApiDocument(),
          (await loadPlugins()).formats.map((f) => f.meta.id),
        ),
    ],
    ['the document without the web application (llms texts, clients)', async () => withoutWebOnly(loadApiDocument())],
  ] as const) {
    it(`${name} lints with zero errors, unused components included`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cpet-openapi-'));
      try {
        const file = join(dir, 'served.json');
        writeFileSync(file, JSON.stringify(await served()));
        const report = await lint(file);
        expect(report.totals.errors, describeErrors(report.problems)).to.equal(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('an example that breaks its schema is reported as an error, so the examples are really checked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpet-openapi-'));
    try {
      const doc = loadApiDocument();
      const summary = doc.components?.examples?.UploadSummary as { value: { source: { bytes: unknown } } };
      summary.value.source.bytes = 'many';
      const file = join(dir, 'broken.json');
      writeFileSync(file, JSON.stringify(doc));
      const report = await lint(file);
      expect(report.problems.some((p) => p.severity === 'error' && p.ruleId === 'no-invalid-media-type-examples')).to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
