/**
 * `cpet export <files or folders...>`: each export read and written back as the normalised CSV (or
 * JSON) the service's GET /v1/cpet/{id}/export gives: the same domain code (src/export), so the
 * two agree byte for byte except the provenance lines. In process; no server, no store.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ANALYSIS_VERSION } from '../analyses/run.js';
import { exportCsvChunks, exportJsonChunks } from '../export/csv.js';
import { exportTable } from '../export/table.js';
import { readUpload } from '../formats/read-upload.js';
import { loadPlugins } from '../plugins.js';
import { resamplingOf, type ExportQuery } from '../server/handlers/export.js';
import { ServiceError } from '../errors.js';
import { parseCommand, UsageError } from './args.js';
import { expandInputs } from './analyze/inputs.js';
import { formatPackages, type CliIO } from './io.js';

export const EXPORT_USAGE = `Write each CPET export as the normalised table: one row per breath or sample, canonical units in
the column names, the phase and flags of each row, header lines starting with # (read with
comment.char = "#" in R, comment="#" in pandas).

Usage:
  cpet export <files or folders...> [options]

Options:
  --out <dir>              where tables go (default ./cpet-export): <name>.csv (or .json) per file
  --json                   JSON columns instead of CSV
  --resample 1s            interpolate onto a 1-s grid
  --averaging <kind>       time_bins, rolling_time, rolling_breaths or low_pass, with
  --window-s <s> --breaths <n> --alignment centred|trailing --statistic mean|median
  --cutoff-hz <hz> --order <n>
  -h, --help               this text`;

const num = (text: string | undefined, option: string): number | undefined => {
  if (text === undefined) return undefined;
  const v = Number(text);
  if (!Number.isFinite(v)) throw new UsageError(`--${option} must be a number, not "${text}"`);
  return v;
};

export async function exportCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      out: { type: 'string' },
      json: { type: 'boolean' },
      resample: { type: 'string' },
      averaging: { type: 'string' },
      'window-s': { type: 'string' },
      breaths: { type: 'string' },
      alignment: { type: 'string' },
      statistic: { type: 'string' },
      'cutoff-hz': { type: 'string' },
      order: { type: 'string' },
    },
    true,
  );
  if (values.help) {
    io.stdout.write(`${EXPORT_USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('name at least one file or folder');
  if (values.resample !== undefined && values.resample !== '1s' && values.resample !== 'none') throw new UsageError(`--resample takes 1s or none, not "${values.resample}"`);
  const query: ExportQuery = {
    resample: values.resample as ExportQuery['resample'],
    averaging: values.averaging,
    window_s: num(values['window-s'], 'window-s'),
    breaths: num(values.breaths, 'breaths'),
    alignment: values.alignment,
    statistic: values.statistic,
    cutoff_hz: num(values['cutoff-hz'], 'cutoff-hz'),
    order: num(values.order, 'order'),
  };
  let resampling: ReturnType<typeof resamplingOf>;
  try {
    resampling = resamplingOf(query);
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const errors = (err.context.errors as { loc: (string | number)[]; msg: string }[]) ?? [];
    throw new UsageError(errors.map((e) => `--${String(e.loc[e.loc.length - 1]).replace(/_/g, '-')} ${e.msg}`).join('; ') || err.message);
  }
  const plugins = await loadPlugins({ packages: formatPackages(io.env) });
  const outDir = resolve(io.cwd, values.out ?? 'cpet-export');
  const inputs = expandInputs(positionals, outDir, io.cwd);
  let failed = 0;
  for (const input of inputs) {
    const target = join(outDir, `${input.name}.${values.json ? 'json' : 'csv'}`);
    try {
      const { recording } = await readUpload(input.display, readFileSync(input.path), plugins.formats);
      const table = exportTable(recording, resampling, { source_file: input.display, analysis_version: ANALYSIS_VERSION });
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, [...(values.json ? exportJsonChunks(table) : exportCsvChunks(table))].join(''));
      io.stdout.write(`${input.display} -> ${target} (${table.t_s.length} rows)\n`);
    } catch (err) {
      failed++;
      io.stderr.write(`${input.display}: ${(err as Error).message}\n`);
    }
  }
  io.stdout.write(`${inputs.length - failed} written, ${failed} failed\n`);
  return failed ? 1 : 0;
}
