/**
 * Discovers the plugins: one folder per format under formats/ and per analysis under analyses/,
 * each with an index.ts whose default export is the plugin. Metadata is checked at load, duplicates
 * refused, and the registry frozen, so a broken plugin fails at start-up, not on first use.
 */
import { existsSync, readdirSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnalysisPlugin } from './analyses/analysis-plugin.js';
import { resolveWith } from './plugin-kit/resolve-hooks.mjs';
import type { FormatPlugin } from './formats/format-plugin.js';
import { CHANNEL_NAMES } from './recording/recording.js';

/** The project root (the folder holding formats/ and analyses/): dist/ when running the build. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Plugins are TypeScript in the source tree and JavaScript in the build (scripts/build.mjs). */
const MODULE_EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

export interface Plugins {
  formats: readonly FormatPlugin[];
  analyses: readonly AnalysisPlugin[];
}

export class PluginError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'PluginError';
  }
}

const ANALYSIS_NAMES = ['vt', 'eov', 'substrate'];

/**
 * Loads and validates every plugin under the given root (default: the project), plus format
 * plugins from npm packages (FORMAT_PLUGINS): each is resolved from the service's own
 * node_modules, else from the working directory's (`cwd`, default process.cwd()); a name starting
 * with `.` or `/` is a path to the plugin's entry file, relative to the working directory.
 */
export async function loadPlugins(options: { root?: string; packages?: string[]; cwd?: string } = {}): Promise<Plugins> {
  registerResolveHooks();
  const root = options.root ?? PROJECT_ROOT;
  const formats = await loadFolder<FormatPlugin>(join(root, 'formats'));
  const analyses = await loadFolder<AnalysisPlugin>(join(root, 'analyses'));
  for (const name of options.packages ?? []) {
    const mod = (await importPackage(name, options.cwd ?? process.cwd())) as { default?: FormatPlugin };
    if (!mod.default) throw new PluginError('PLUGIN_NO_DEFAULT_EXPORT', `package ${name} has no default export`);
    formats.push(mod.default);
  }
  formats.forEach(checkFormatPlugin);
  analyses.forEach(checkAnalysis);
  refuseDuplicates(
    formats.map((f) => f.meta.id),
    'format',
  );
  refuseDuplicates(
    analyses.map((a) => a.name),
    'analysis',
  );
  return Object.freeze({ formats: Object.freeze(formats), analyses: Object.freeze(analyses) });
}

let hooksRegistered = false;

/**
 * Once per thread: `cpet-analysis-service` and `cpet-plugin-kit` resolve to this service wherever
 * the plugin importing them lives, and a package can be resolved from another folder
 * (src/plugin-kit/resolve-hooks.mjs). In-thread synchronous hooks (`module.registerHooks`, Node
 * 22.15 and later) where Node has them, since `module.register` is deprecated from Node 26; on Node 20
 * the hooks thread of `module.register`.
 */
function registerResolveHooks(): void {
  if (hooksRegistered) return;
  hooksRegistered = true;
  const hooks = new URL('./plugin-kit/resolve-hooks.mjs', import.meta.url);
  const data = { selfParentUrl: pathToFileURL(join(PROJECT_ROOT, 'package.json')).href };
  if (typeof nodeModule.registerHooks === 'function') {
    nodeModule.registerHooks({ resolve: (specifier, context, nextResolve) => resolveWith(data.selfParentUrl, specifier, context, nextResolve) });
  } else {
    nodeModule.register(hooks, { data });
  }
}

/** A FORMAT_PLUGINS entry, from the service's node_modules or else from the working directory. */
async function importPackage(name: string, cwd: string): Promise<unknown> {
  const isPath = name.startsWith('.') || isAbsolute(name);
  if (!isPath) {
    try {
      return await importTypeScriptToo(name);
    } catch (err) {
      if (!isMissing(err, name)) throw err;
    }
  }
  const fromCwd = `cpet-plugin-from:${pathToFileURL(join(resolve(cwd), 'package.json')).href}#${name}`;
  try {
    return await importTypeScriptToo(fromCwd);
  } catch (err) {
    if (!isMissing(err, name)) throw err;
    throw new PluginError(
      'PLUGIN_NOT_FOUND',
      isPath
        ? `format plugin file ${resolve(cwd, name)} does not exist`
        : `format plugin package ${name} is installed neither in the service (${PROJECT_ROOT}) nor in the working directory (${resolve(cwd)})`,
    );
  }
}

let typeScriptRegistered = false;

/**
 * An import that also reads a plugin package shipped as TypeScript. The built service runs plain
 * Node, so when the entry resolves to a `.ts` file tsx's loader is registered in this thread first
 * (tsx is a dependency for this and for the `cpet` command line): registering it after a failed
 * import would not help, since Node keeps the failed module in its cache.
 */
async function importTypeScriptToo(specifier: string): Promise<unknown> {
  // In the source tree tsx already reads TypeScript (and is what runs this module).
  if (MODULE_EXTENSION === '.ts') return import(specifier);
  const url = import.meta.resolve(specifier);
  if (!typeScriptRegistered && /\.[cm]?ts$/.test(new URL(url).pathname)) {
    const { register } = await import('tsx/esm/api');
    register();
    typeScriptRegistered = true;
  }
  return import(url);
}

/** Whether an import failed because `name` itself is not there (not one of its own imports). */
function isMissing(err: unknown, name: string): boolean {
  const e = err as { code?: string; message?: string };
  if (e?.code !== 'ERR_MODULE_NOT_FOUND') return false;
  const target = name.startsWith('.') || isAbsolute(name) ? (name.split('/').pop() ?? name) : name;
  return (e.message ?? '').includes(`'${target}'`) || (e.message ?? '').includes(`/${target}'`);
}

async function loadFolder<T>(dir: string): Promise<T[]> {
  if (!existsSync(dir)) return [];
  const out: T[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue;
    const index = join(dir, entry.name, `index${MODULE_EXTENSION}`);
    if (!existsSync(index)) continue;
    const mod = (await import(pathToFileURL(index).href)) as { default?: T };
    if (!mod.default) throw new PluginError('PLUGIN_NO_DEFAULT_EXPORT', `${index} has no default export`);
    out.push(mod.default);
  }
  return out;
}

/** Checks a format plugin's shape and metadata; throws PluginError saying what is missing. */
export function checkFormatPlugin(plugin: FormatPlugin): void {
  const m = plugin?.meta;
  const where = m?.id ?? '(unnamed format)';
  if (!m || typeof plugin.detect !== 'function' || typeof plugin.parse !== 'function') {
    throw new PluginError('PLUGIN_SHAPE', `${where} must export {meta, detect, parse}`);
  }
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(m.id)) throw new PluginError('PLUGIN_ID', `format id "${m.id}" must be kebab-case`);
  for (const field of ['label', 'vendor', 'software', 'detection'] as const) {
    if (typeof m[field] !== 'string' || m[field].length === 0) throw new PluginError('PLUGIN_META', `${where} needs meta.${field}`);
  }
  if (!Array.isArray(m.extensions) || !Number.isInteger(m.example_files) || m.example_files < 0) {
    throw new PluginError('PLUGIN_META', `${where} needs meta.extensions and a whole meta.example_files`);
  }
}

function checkAnalysis(plugin: AnalysisPlugin): void {
  const where = plugin?.name ?? '(unnamed analysis)';
  if (!ANALYSIS_NAMES.includes(plugin.name)) throw new PluginError('PLUGIN_ID', `analysis "${where}" is not one of ${ANALYSIS_NAMES.join(', ')}`);
  if (typeof plugin.run !== 'function') throw new PluginError('PLUGIN_SHAPE', `${where} must export run()`);
  for (const channel of plugin.requires) {
    if (!(CHANNEL_NAMES as readonly string[]).includes(channel)) throw new PluginError('PLUGIN_CHANNEL', `${where} requires unknown channel ${channel}`);
  }
}

function refuseDuplicates(ids: string[], kind: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new PluginError('PLUGIN_DUPLICATE', `two ${kind} plugins are named ${id}`);
    seen.add(id);
  }
}
