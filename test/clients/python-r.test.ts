/**
 * The Python and R clients against a live service: their README examples run as written, every
 * operation of the public contract has a function in both, and the export reads back in pandas and
 * R's read.csv with the rows, columns and values of the stored recording (one fixture per vendor
 * format family), the same as `cpet export` writes.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { main } from '../../src/cli/main.js';
import { exportTable } from '../../src/export/table.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { listOperations } from '../../src/openapi/walk.js';
import { loadApiDocument, withoutWebOnly } from '../../src/openapi/document.js';
import { builtInFixtureCases, type FixtureCase } from '../../src/plugin-kit/fixtures.js';
import { loadPlugins, PROJECT_ROOT } from '../../src/plugins.js';
import { startHarness, type Harness } from '../server/harness.js';

const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const PY_DIR = join(PROJECT_ROOT, 'clients', 'python');
const R_CLIENT = join(PROJECT_ROOT, 'clients', 'r', 'R', 'client.R');

/** Operations of the API the Python and R clients do without, and why. */
const CLIENTS_LEAVE_OUT: Readonly<Record<string, string>> = {
  uploadCpetMultipart: 'upload() sends the same file as content or content_base64',
  postTicketUpload: 'a ticket URL is posted by the machine without a key (its curl line), not by a client holding one',
  getMetrics: "Prometheus scrapes it inside the operator's network",
};

function codeBlock(readme: string, lang: string): string {
  const m = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(readFileSync(readme, 'utf8'));
  if (!m) throw new Error(`${readme} has no ${lang} example`);
  return m[1];
}

/** Asynchronous, so the service in this process keeps answering while the client runs. */
async function run(cmd: string, args: string[], env: Record<string, string>): Promise<string> {
  try {
    return (await promisify(execFile)(cmd, args, { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 180_000 })).stdout;
  } catch (err) {
    throw new Error(`${cmd} failed: ${(err as { stderr?: string }).stderr ?? (err as Error).message}`);
  }
}

/** One fixture per format family (the first case of each format). */
function families(): FixtureCase[] {
  const seen = new Set<string>();
  return builtInFixtureCases().filter((c) => !seen.has(c.format) && seen.add(c.format));
}

const READ_PY = `
import json, sys, math
import pandas as pd
df = pd.read_csv(sys.argv[1], comment="#")
out = {"nrow": len(df), "columns": list(df.columns), "values": {c: [None if (isinstance(v, float) and math.isnan(v)) else v for v in df[c].tolist()] for c in df.columns if c not in ("phase", "flags")}}
print(json.dumps(out))
`;
const READ_R = `
args <- commandArgs(trailingOnly = TRUE)
df <- read.csv(args[1], comment.char = "#", check.names = FALSE)
vals <- df[, setdiff(names(df), c("phase", "flags")), drop = FALSE]
cat(jsonlite::toJSON(list(nrow = nrow(df), columns = names(df), values = vals), dataframe = "columns", digits = NA, na = "null", auto_unbox = TRUE))
`;

describe('Python and R clients on a live service', function () {
  this.timeout(600_000);
  let h: Harness;
  let url: string;
  let key: string;
  let dir: string;

  before(async () => {
    h = await startHarness({ store: 'sqlite' });
    url = (await h.listen()).url;
    key = await h.key();
    dir = mkdtempSync(join(tmpdir(), 'cpet-clients-'));
  });
  after(async () => h?.close());

  it('every operation of the API has a function in the Python client and in the R client, or a reason it has none', () => {
    const ops = listOperations(withoutWebOnly(loadApiDocument()))
      .map((e) => e.operation.operationId as string)
      .filter((op) => !(op in CLIENTS_LEAVE_OUT));
    const py = readFileSync(join(PY_DIR, 'cpet_client', 'client.py'), 'utf8');
    const r = readFileSync(R_CLIENT, 'utf8');
    const pyMap = Object.fromEntries([...py.matchAll(/^\s+"(\w+)": "(\w+)",?$/gm)].map((m) => [m[1], m[2]]));
    const rMap = Object.fromEntries([...r.matchAll(/(\w+) = "(cpet_\w+)"/g)].map((m) => [m[1], m[2]]));
    for (const op of ops) {
      expect(pyMap, `Python client: OPERATIONS names ${op}`).to.have.property(op);
      expect(py, `Python client: def ${pyMap[op]}`).to.match(new RegExp(`def ${pyMap[op]}\\(`));
      expect(rMap, `R client: cpet_operations names ${op}`).to.have.property(op);
      expect(r, `R client: ${rMap[op]} <- function`).to.match(new RegExp(`^${rMap[op]} <- function`, 'm'));
    }
  });

  it('runs the Python README example', async () => {
    const script = join(dir, 'readme.py');
    writeFileSync(script, codeBlock(join(PY_DIR, 'README.md'), 'python'));
    const out = await run(PYTHON, [script], { PYTHONPATH: PY_DIR, CPET_URL: url, CPET_API_KEY: key });
    expect(out).to.match(/422 VALIDATION_ERROR/);
  });

  it('runs the R README example', async () => {
    const script = join(dir, 'readme.R');
    writeFileSync(script, `source(${JSON.stringify(R_CLIENT)})\n${codeBlock(join(PROJECT_ROOT, 'clients', 'r', 'README.md'), 'r')}`);
    const out = await run('Rscript', [script], { CPET_URL: url, CPET_API_KEY: key });
    expect(out).to.match(/VALIDATION_ERROR/);
  });

  it('the route and cpet export give one CSV that pandas and read.csv read back as the stored recording, per vendor format family', async () => {
    const { formats } = await loadPlugins();
    const read = join(dir, 'read.py');
    const readR = join(dir, 'read.R');
    writeFileSync(read, READ_PY);
    writeFileSync(readR, READ_R);
    for (const c of families()) {
      const bytes = readFileSync(c.input);
      const rec = (await readUpload(`input.${c.extension}`, bytes, formats)).recording;
      const expected = exportTable(rec, { kind: 'none' });
      const binary = ['xlsx', 'xls', 'zip'].includes(c.extension) || bytes.includes(0);
      const up = await request(h.service.app)
        .post('/v1/cpet/content')
        .set('X-API-Key', key)
        .send(binary ? { filename: `input.${c.extension}`, content_base64: bytes.toString('base64') } : { filename: `input.${c.extension}`, content: bytes.toString('utf8') });
      if (up.status !== 200) continue;
      const res = await request(h.service.app)
        .get(`/v1/cpet/${up.body.cpet_id}/export`)
        .set('X-API-Key', key)
        .buffer(true)
        .parse((r, cb) => {
          let text = '';
          r.on('data', (d: Buffer) => (text += d.toString('utf8')));
          r.on('end', () => cb(null, text));
        });
      expect(res.status, c.format).to.equal(200);
      const routeCsv = res.body as string;
      const file = join(dir, `${c.format}.csv`);
      writeFileSync(file, routeCsv);
      const columns = ['t_s', ...expected.columns.map((col) => col.name), 'phase', 'flags'];
      for (const [name, text] of [
        ['pandas', await run(PYTHON, [read, file], {})],
        ['read.csv', await run('Rscript', [readR, file], {})],
      ] as const) {
        const got = JSON.parse(text) as { nrow: number; columns: string[]; values: Record<string, (number | null)[]> };
        const where = `${c.format}/${c.name} via ${name}`;
        expect(got.nrow, where).to.equal(rec.t_s.length);
        expect(got.columns, where).to.deep.equal(columns);
        expect(got.values.t_s, where).to.deep.equal(expected.t_s);
        expected.columns.forEach((col, k) => {
          expect(got.values[col.name], `${where}: ${col.name}`).to.deep.equal(expected.values[k]);
        });
      }
      // cpet export writes the same table: only the provenance lines (cpet_id, file name, time) differ.
      const out = join(dir, `cli-${c.format}`);
      const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: PROJECT_ROOT };
      expect(await main(['export', c.input, '--out', out], io)).to.equal(0);
      const cliCsv = readFileSync(join(out, readdirSync(out)[0]), 'utf8');
      const body = (t: string) =>
        t
          .split('\n')
          .filter((l) => !/^# (cpet_id|source_file|exported_at):/.test(l))
          .join('\n');
      expect(body(cliCsv), c.format).to.equal(body(routeCsv));
    }
  });
});
