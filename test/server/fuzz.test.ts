/**
 * Fuzzed uploads (issue 14, item 6): 5,000 malformed files per run from a seeded generator (random
 * bytes, truncations, bit flips, line shuffles and deletions of every fixture, zip and XML bombs,
 * 10^6 columns, NaN/Infinity/negative/duplicate times, wrong extensions, deep JSON) through the
 * JSON, multipart and ticket upload routes of the built server. Zero 5xx, every refusal in the
 * error shape its operation documents, the server's resident memory bounded, earlier records intact.
 * The same seed gives the same files; FUZZ_SEED picks another.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { builtInFixtureCases } from '../../src/plugin-kit/fixtures.js';
import { createRng } from '../../src/synthetic/random.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { expectMatchesSpec } from './harness.js';
import { ensureBuilt, startServer, type ServerProcess } from './processes.js';

const UPLOADS = 5_000;
const CONCURRENCY = 8;
const MB = 1024 * 1024;
/** The server's resident memory may not pass this during the run (two workers, 25 MB uploads in flight). */
const MAX_RSS_BYTES = 1_500 * MB;

/** The project's seeded generator, so a failing file can be made again from its seed. */
function rng(seed: number): () => number {
  const r = createRng(seed);
  return () => r.next();
}

interface Seed {
  filename: string;
  bytes: Buffer;
}

function fixtures(): Seed[] {
  const out: Seed[] = builtInFixtureCases().map((f) => ({ filename: `${f.name}.${f.extension}`, bytes: readFileSync(f.input) }));
  const sample = generateSample(false);
  out.push({ filename: sample.filename, bytes: Buffer.from(sample.content) });
  return out;
}

function zipOf(entries: Record<string, Uint8Array>, big?: { name: string; mb: number }): Buffer {
  const parts: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    parts.push(data);
  });
  for (const [name, data] of Object.entries(entries)) {
    const e = new ZipPassThrough(name);
    zip.add(e);
    e.push(data, true);
  }
  if (big) {
    const e = new ZipDeflate(big.name, { level: 9 });
    zip.add(e);
    const chunk = Buffer.alloc(MB, '<row r="1"><c><v>0</v></c></row>');
    for (let i = 0; i < big.mb; i++) e.push(chunk, i === big.mb - 1);
  }
  zip.end();
  return Buffer.concat(parts);
}

const ZIP_BOMB = zipOf({ '[Content_Types].xml': Buffer.from('<Types/>'), 'xl/workbook.xml': Buffer.from('<workbook/>') }, { name: 'xl/worksheets/sheet1.xml', mb: 130 });

function billionLaughs(): Buffer {
  const entities = ['<!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
  return Buffer.from(`<?xml version="1.0"?>\n<!DOCTYPE lolz [\n${entities.join('\n')}\n]>\n<Workbook><Worksheet><Table><Row><Cell><Data>&lol9;</Data></Cell></Row></Table></Worksheet></Workbook>\n`);
}

const EXTENSIONS = ['.csv', '.txt', '.xlsx', '.xls', '.json', '.dat', '.xml', '', '.exe'];

/** One malformed upload from the generator's next draws. */
function mutate(next: () => number, seeds: Seed[]): Seed {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const base = pick(seeds);
  const ext = base.filename.slice(base.filename.lastIndexOf('.'));
  const kind = next();
  if (kind < 0.12) return { filename: `random${pick(EXTENSIONS)}`, bytes: Buffer.from(Array.from({ length: Math.floor(next() * 4096) }, () => Math.floor(next() * 256))) };
  if (kind < 0.3) return { filename: base.filename, bytes: base.bytes.subarray(0, Math.floor(next() * base.bytes.length)) };
  if (kind < 0.5) {
    const bytes = Buffer.from(base.bytes);
    const flips = 1 + Math.floor(next() * 20);
    for (let i = 0; i < flips && bytes.length > 0; i++) bytes[Math.floor(next() * bytes.length)] ^= 1 << Math.floor(next() * 8);
    return { filename: base.filename, bytes };
  }
  if (kind < 0.62) {
    const lines = base.bytes.toString('latin1').split('\n');
    for (let i = lines.length - 1; i > 0; i--) {
      if (next() < 0.3) {
        const j = Math.floor(next() * (i + 1));
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
    }
    return { filename: base.filename, bytes: Buffer.from(lines.filter(() => next() > 0.05).join('\n'), 'latin1') };
  }
  if (kind < 0.7) return { filename: base.filename.replace(/\.[^.]*$/, pick(EXTENSIONS.filter((e) => e !== ext))), bytes: base.bytes };
  if (kind < 0.8) {
    const n = 20 + Math.floor(next() * 400);
    const weird = ['NaN', 'Infinity', '-Infinity', '-5', '1e308', '', 'x', '00:00', '-0'];
    const rows = ['t,VO2,VCO2,VE'];
    for (let i = 0; i < n; i++) {
      const t = next() < 0.2 ? pick(weird) : next() < 0.2 ? String(Math.floor(i / 2)) : String(i * 2);
      rows.push([t, next() < 0.1 ? pick(weird) : String(800 + i), String(700 + i), String(20 + (i % 9))].join(','));
    }
    return { filename: pick(['times.csv', 'times.txt', 'times.json']), bytes: Buffer.from(rows.join('\n')) };
  }
  if (kind < 0.88) {
    const n = 2 + Math.floor(next() * 200);
    const times = Array.from({ length: n }, (_, i) => (next() < 0.1 ? pick(['NaN', 'Infinity', '-1e300', '1e300', '"3"', 'null', String(i)]) : String(i * 3)));
    return {
      filename: 'canonical.json',
      bytes: Buffer.from(`{"format":"cpet-canonical/1","time_s":[${times.join(',')}],"channels":{"VO2":[${times.map(() => String(Math.floor(next() * 4000))).join(',')}]}}`),
    };
  }
  if (kind < 0.94) {
    const depth = 100 + Math.floor(next() * 20_000);
    return { filename: 'deep.json', bytes: Buffer.from(`${'['.repeat(depth)}1${']'.repeat(depth)}`) };
  }
  if (kind < 0.97) return { filename: pick(['laughs.xml', 'laughs.xlsx', 'laughs.txt']), bytes: billionLaughs() };
  if (kind < 0.99) return { filename: pick(['bomb.xlsx', 'bomb.xls', 'bomb.zip']), bytes: ZIP_BOMB };
  const columns = Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',');
  return { filename: 'wide.csv', bytes: Buffer.from(`${columns}\n${'1,'.repeat(999_999)}1\n`) };
}

describe('fuzzed uploads against the built server', function () {
  this.timeout(600_000);
  let server: ServerProcess;
  let key: string;

  before(async () => {
    await ensureBuilt();
    server = await startServer({ WORKERS: '2' });
    key = readFileSync(join(server.dataDir, 'local-api-key'), 'utf8').trim();
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it(`answers ${UPLOADS} malformed uploads through all three routes with no 5xx, in the error shape, in bounded memory`, async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 14);
    const next = rng(seed);
    const seeds = fixtures();
    const sample = generateSample(false);
    const earlier = await fetch(`${server.base}/v1/cpet/content`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ filename: sample.filename, content: sample.content }),
    });
    expect(earlier.status).to.equal(200);
    const earlierSummary = (await earlier.json()) as { cpet_id: string };

    const rss = async (): Promise<number> => {
      const text = await (await fetch(`${server.base}/metrics`)).text();
      return Number(/^process_resident_memory_bytes (\d+)/m.exec(text)?.[1] ?? 0);
    };
    let tickets: string[] = [];
    const ticket = async (): Promise<string> => {
      if (tickets.length === 0) {
        const res = await fetch(`${server.base}/v1/uploads`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ count: 200 }) });
        tickets = ((await res.json()) as { tickets: { upload_url: string }[] }).tickets.map((t) => new URL(t.upload_url).pathname);
      }
      return tickets.pop() as string;
    };

    const files = Array.from({ length: UPLOADS }, () => ({ file: mutate(next, seeds), route: next() }));
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    let peakRss = 0;
    let done = 0;
    const worker = async (): Promise<void> => {
      for (;;) {
        const item = files[done++];
        if (!item) return;
        const { file, route } = item;
        let res: Response;
        let operation: string;
        if (route < 0.4) {
          operation = 'uploadCpetContent';
          const text = file.bytes.toString('utf8');
          const body = Buffer.from(text, 'utf8').equals(file.bytes)
            ? { filename: file.filename || 'x', content: text }
            : { filename: file.filename || 'x', content_base64: file.bytes.toString('base64') };
          res = await fetch(`${server.base}/v1/cpet/content`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        } else if (route < 0.8) {
          operation = 'uploadCpetMultipart';
          const form = new FormData();
          form.append('file', new Blob([file.bytes]), file.filename || 'x');
          res = await fetch(`${server.base}/v1/cpet`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
        } else {
          operation = 'postTicketUpload';
          res = await fetch(`${server.base}${await ticket()}`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream', 'X-Filename': file.filename || 'x' }, body: file.bytes });
        }
        const body = (await res.json()) as Record<string, unknown>;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) problems.push(`${res.status} ${file.filename} (${file.bytes.length} B): ${JSON.stringify(body).slice(0, 200)}`);
        else if (res.status !== 200) {
          await expectMatchesSpec(body, operation, res.status).catch((err: Error) => problems.push(`${file.filename}: ${err.message.slice(0, 300)}`));
        }
        if (done % 250 === 0) peakRss = Math.max(peakRss, await rss());
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    peakRss = Math.max(peakRss, await rss());

    console.log(`      fuzz seed ${seed}: ${UPLOADS} uploads, statuses ${JSON.stringify(Object.fromEntries(statuses))}, peak server RSS ${Math.round(peakRss / MB)} MB`);
    expect(problems.slice(0, 20)).to.deep.equal([]);
    expect([...statuses.keys()].every((s) => s < 500)).to.equal(true);
    expect(peakRss).to.be.greaterThan(0).and.lessThan(MAX_RSS_BYTES);
    const again = await fetch(`${server.base}/v1/cpet/${earlierSummary.cpet_id}`, { headers: { 'X-API-Key': key } });
    expect(again.status).to.equal(200);
    expect(await again.json()).to.deep.equal(earlierSummary);
  });
});
