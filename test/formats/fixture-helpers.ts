/**
 * Shared by the format tests: the real plugin registry, every fixture under formats/*\/fixtures,
 * reading a fixture through the public upload path, and the expected.json snapshots (the plugin
 * kit's checks: written only with UPDATE=1; a missing snapshot fails).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { builtInFixtureCases, checkFixture, type FixtureCase } from '../../src/plugin-kit/fixtures.js';
import type { FormatPlugin } from '../../src/formats/format-plugin.js';
import { readUpload, type ReadResult } from '../../src/formats/read-upload.js';
import { loadPlugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';

export type Fixture = FixtureCase;

let cached: Promise<readonly FormatPlugin[]> | undefined;

/** Every format plugin, discovered as the server discovers them. */
export function formatPlugins(): Promise<readonly FormatPlugin[]> {
  cached ??= loadPlugins().then((p) => p.formats);
  return cached;
}

/** Every fixture case of every format (or of one format), found at run time. */
export function listFixtures(format?: string): Fixture[] {
  return builtInFixtureCases().filter((f) => !format || f.format === format);
}

/** Reads a fixture (or given bytes under a given name) through readUpload with every plugin. */
export async function readFixture(fixture: Fixture, bytes?: Buffer, filename?: string): Promise<ReadResult> {
  return readUpload(filename ?? basename(fixture.input), bytes ?? readFileSync(fixture.input), await formatPlugins());
}

/** Compares a fixture's parse with its expected.json (the plugin kit's checkFixture); UPDATE=1 rewrites it. */
export async function checkSnapshot(fixture: Fixture): Promise<ReadResult> {
  const plugins = await formatPlugins();
  const plugin = plugins.find((p) => p.meta.id === fixture.format);
  if (!plugin) throw new Error(`no format plugin ${fixture.format}`);
  return checkFixture(plugin, fixture, { plugins });
}

/** Values of a channel at the first and last sample. */
export function ends(rec: Recording, name: keyof Recording['channels']): [number | null, number | null] {
  const v = rec.channels[name]?.values ?? [];
  return [v[0] ?? null, v[v.length - 1] ?? null];
}
