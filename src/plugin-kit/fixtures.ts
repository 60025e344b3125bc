/**
 * The checks a format plugin's tests run on its fixtures, framework-free (they throw an Error that
 * says what is wrong, so mocha, node:test or vitest report it alike). A fixture case is a folder
 * `fixtures/<case>/` holding `input.<ext>` (the file, byte for byte) and `expected.json` (the
 * Recording it must give, reviewed once and then compared exactly).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { MIN_SCORE } from '../formats/detect.js';
import { FileView } from '../formats/file-view.js';
import type { FormatPlugin } from '../formats/format-plugin.js';
import { readUpload, type ReadResult } from '../formats/read-upload.js';
import { checkFormatPlugin, loadPlugins, PROJECT_ROOT } from '../plugins.js';
import type { Recording } from '../recording/recording.js';

export interface FixtureCase {
  /** The format id: the name of the folder the case lives under. */
  format: string;
  /** The case folder's name, e.g. `german-litres-cp1252`. */
  name: string;
  dir: string;
  /** Path of `input.<ext>`. */
  input: string;
  /** The input's extension without the dot. */
  extension: string;
}

/** The fixture cases of one format folder (`<formatDir>/fixtures/<case>/input.*`), sorted by name. */
export function listFixtureCases(formatDir: string): FixtureCase[] {
  const fixtures = join(formatDir, 'fixtures');
  if (!existsSync(fixtures)) return [];
  const out: FixtureCase[] = [];
  for (const entry of readdirSync(fixtures, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = join(fixtures, entry.name);
    const input = readdirSync(dir).find((f) => f.startsWith('input.'));
    if (!input) continue;
    out.push({ format: basename(formatDir), name: entry.name, dir, input: join(dir, input), extension: input.slice('input.'.length).toLowerCase() });
  }
  return out;
}

/** Every fixture case of the formats this service ships (its formats/ folder). */
export function builtInFixtureCases(): FixtureCase[] {
  const root = serviceFormats('checkClaimsNoOtherFixture needs the cases to compare with');
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .flatMap((id) => listFixtureCases(join(root, id)));
}

/** What a snapshot holds: the detected format and the whole Recording. */
export function snapshotOf(result: ReadResult): { format: string; recording: Recording } {
  return { format: result.recording.format, recording: result.recording };
}

/** JSON with arrays of plain values kept on one line, so a snapshot stays reviewable. */
export function stringifySnapshot(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  return `${text.replace(/\[\n\s+([^[\]{}]*?)\n\s*\]/g, (_m, inner: string) => `[${inner.split(/,\n\s+/).join(', ')}]`)}\n`;
}

export interface CheckFixtureOptions {
  /** The formats the plugin competes with (default: every format this service ships, plus the plugin). */
  plugins?: readonly FormatPlugin[];
  /** Write `expected.json` instead of comparing (default: when the UPDATE environment variable is set). */
  update?: boolean;
}

/**
 * Checks one fixture case the way the service reads an upload: the plugin's metadata is valid, the
 * file is detected as the plugin's format among all the others (clearly, not as a last resort
 * unless the plugin is one), it parses within the upload limits, and the Recording equals
 * `expected.json`. A missing `expected.json` fails; write it with `update` (or UPDATE=1) and review it.
 */
export async function checkFixture(plugin: FormatPlugin, fixture: FixtureCase, options: CheckFixtureOptions = {}): Promise<ReadResult> {
  checkFormatPlugin(plugin);
  const plugins = options.plugins ?? (await competingPlugins(plugin));
  const where = `${plugin.meta.id} fixture ${fixture.name}`;
  let result: ReadResult;
  try {
    result = await readUpload(basename(fixture.input), readFileSync(fixture.input), plugins);
  } catch (err) {
    throw new Error(`${where}: the upload path refused it: ${(err as Error).message}`);
  }
  if (result.recording.format !== plugin.meta.id) throw new Error(`${where}: read as ${result.recording.format}, not ${plugin.meta.id}`);
  const expectedConfidence = plugin.meta.last_resort ? 'last_resort' : 'detected';
  if (result.detection.confidence !== expectedConfidence) throw new Error(`${where}: detection confidence ${result.detection.confidence}, expected ${expectedConfidence}`);
  const path = join(fixture.dir, 'expected.json');
  const actual = JSON.parse(JSON.stringify(snapshotOf(result))) as unknown;
  if (options.update ?? 'UPDATE' in process.env) {
    writeFileSync(path, stringifySnapshot(actual));
    return result;
  }
  if (!existsSync(path)) throw new Error(`${path} is missing: write it with UPDATE=1, then review it`);
  if (!isDeepStrictEqual(actual, JSON.parse(readFileSync(path, 'utf8')))) {
    throw new Error(`${where}: the Recording differs from ${path} (UPDATE=1 rewrites it; review the diff before committing)`);
  }
  return result;
}

/**
 * Checks that the plugin claims none of the service's own fixtures: its detector scores every other
 * format's example files below MIN_SCORE (a detector that does not, would take their files).
 */
export function checkClaimsNoOtherFixture(plugin: FormatPlugin, cases: readonly FixtureCase[] = builtInFixtureCases()): void {
  const claimed: string[] = [];
  for (const fixture of cases) {
    if (fixture.format === plugin.meta.id) continue;
    const verdict = plugin.detect(new FileView(basename(fixture.input), readFileSync(fixture.input)));
    if (verdict.score >= MIN_SCORE) claimed.push(`${fixture.format}/${fixture.name} (${verdict.score}: ${verdict.reasons.join('; ')})`);
  }
  if (claimed.length > 0) throw new Error(`${plugin.meta.id} scores ${MIN_SCORE} or more on other formats' files: ${claimed.join(', ')}`);
}

/** The service's own formats with the plugin in place of any format of the same id. */
async function competingPlugins(plugin: FormatPlugin): Promise<FormatPlugin[]> {
  serviceFormats('checkFixture needs options.plugins, the formats to compete with');
  const installed = (await loadPlugins()).formats;
  return [...installed.filter((p) => p.meta.id !== plugin.meta.id), plugin];
}

/**
 * The service's formats/ folder. The kit installed on its own (the cpet-plugin-kit package, outside
 * the service) has none, and comparing a plugin with no other format would pass vacuously.
 */
function serviceFormats(outside: string): string {
  const root = join(PROJECT_ROOT, 'formats');
  if (!existsSync(root)) throw new Error(`the service's formats are not here (${root}): outside the service, ${outside}`);
  return root;
}
