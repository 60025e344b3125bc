/**
 * Shared by the format tests: the real plugin registry, every fixture under formats/*\/fixtures,
 * reading a fixture through the public upload path, and the expected.json snapshots (written only
 * with UPDATE=1; a missing snapshot fails).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'chai';
import type { FormatPlugin } from '../../src/formats/format-plugin.js';
import { readUpload, type ReadResult } from '../../src/formats/read-upload.js';
import { loadPlugins, PROJECT_ROOT } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';

export interface Fixture {
  /** Format id (the folder under formats/). */
  format: string;
  /** Case folder name, e.g. `kpa-end-tidal`. */
  name: string;
  dir: string;
  input: string;
  /** The input's extension without the dot. */
  extension: string;
}

let cached: Promise<readonly FormatPlugin[]> | undefined;

/** Every format plugin, discovered as the server discovers them. */
export function formatPlugins(): Promise<readonly FormatPlugin[]> {
  cached ??= loadPlugins().then((p) => p.formats);
  return cached;
}

/** Every fixture case of every format (or of one format), found at run time. */
export function listFixtures(format?: string): Fixture[] {
  const root = join(PROJECT_ROOT, 'formats');
  const out: Fixture[] = [];
  for (const id of readdirSync(root).sort()) {
    if (format && id !== format) continue;
    const fixtures = join(root, id, 'fixtures');
    if (!existsSync(fixtures)) continue;
    for (const name of readdirSync(fixtures, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
      const dir = join(fixtures, name);
      const input = readdirSync(dir).find((f) => f.startsWith('input.'));
      if (!input) continue;
      out.push({ format: id, name, dir, input: join(dir, input), extension: input.slice('input.'.length).toLowerCase() });
    }
  }
  return out;
}

/** Reads a fixture (or given bytes under a given name) through readUpload with every plugin. */
export async function readFixture(fixture: Fixture, bytes?: Buffer, filename?: string): Promise<ReadResult> {
  return readUpload(filename ?? basename(fixture.input), bytes ?? readFileSync(fixture.input), await formatPlugins());
}

/** JSON with arrays of plain values kept on one line, so a snapshot stays reviewable. */
export function stringifySnapshot(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  return text.replace(/\[\n\s+([^[\]{}]*?)\n\s*\]/g, (_m, inner: string) => `[${inner.split(/,\n\s+/).join(', ')}]`) + '\n';
}

/** What a snapshot holds: the detected format and the whole Recording (runner-ups are checked by score, not snapshotted). */
export function snapshotOf(result: ReadResult): { format: string; recording: Recording } {
  return { format: result.recording.format, recording: result.recording };
}

/** Compares a fixture's parse with its expected.json; UPDATE=1 rewrites it, a missing one fails. */
export async function checkSnapshot(fixture: Fixture): Promise<ReadResult> {
  const result = await readFixture(fixture);
  const actual = JSON.parse(JSON.stringify(snapshotOf(result)));
  const path = join(fixture.dir, 'expected.json');
  if ('UPDATE' in process.env) {
    writeFileSync(path, stringifySnapshot(actual));
    return result;
  }
  if (!existsSync(path)) throw new Error(`${path} is missing; run with UPDATE=1 to write it, then review it`);
  expect(actual).to.deep.equal(JSON.parse(readFileSync(path, 'utf8')));
  return result;
}

/** Values of a channel at the first and last sample. */
export function ends(rec: Recording, name: keyof Recording['channels']): [number | null, number | null] {
  const v = rec.channels[name]?.values ?? [];
  return [v[0] ?? null, v[v.length - 1] ?? null];
}
