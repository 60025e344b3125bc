/**
 * The files a run reads: each argument is a file or a folder, searched recursively. Every file is
 * tried, whatever its name: the content decides the format (a ZAN export has no extension), and a
 * file no format reads is reported as failed, never skipped in silence. Only hidden entries
 * (`.DS_Store`, `.git`) and the output folder are left out. Each file gets an output name: its path
 * from the folder all inputs share.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../args.js';

export interface InputFile {
  /** Absolute path. */
  path: string;
  /** The path as shown (relative to the working directory when under it). */
  display: string;
  /** The output name, without `.json`: the path from the inputs' common folder. */
  name: string;
}

export function expandInputs(args: readonly string[], outDir: string, cwd = process.cwd()): InputFile[] {
  const out = resolve(cwd, outDir);
  const paths: string[] = [];
  for (const arg of args) {
    const path = resolve(cwd, arg);
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(path);
    } catch {
      throw new UsageError(`${arg}: no such file or folder`);
    }
    if (stats.isDirectory()) paths.push(...walk(path, out));
    else paths.push(path);
  }
  const unique = [...new Set(paths)];
  if (unique.length === 0) throw new UsageError('no file to analyse: the folders hold no file (hidden files and the output folder are left out)');
  const base = commonFolder(unique);
  return unique.map((path) => {
    const fromCwd = relative(cwd, path);
    return { path, display: fromCwd.startsWith('..') || isAbsolute(fromCwd) ? path : fromCwd, name: relative(base, path) };
  });
}

function walk(dir: string, outDir: string): string[] {
  if (dir === outDir) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...walk(path, outDir));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** The deepest folder holding every path. */
function commonFolder(paths: readonly string[]): string {
  const parts = paths.map((p) => dirname(p).split(sep));
  const first = parts[0];
  let n = first.length;
  for (const p of parts) {
    let i = 0;
    while (i < n && i < p.length && p[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n).join(sep) || sep;
}
