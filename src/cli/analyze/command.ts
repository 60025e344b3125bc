/**
 * `cpet analyze <files or folders...>`: a folder of exports in, one JSON per file and a summary CSV
 * out, in process or on a service; exit code 1 when any file failed, with a table of the failures.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { list, parseCommand, UsageError, wholeNumber } from '../args.js';
import type { CliIO } from '../io.js';
import { formatPackages } from '../io.js';
import { runBatch } from './batch.js';
import type { AnalyzeChoices, Engine } from './engine.js';
import { expandInputs } from './inputs.js';
import { createLocalEngine } from './local-engine.js';
import type { FileOutcome } from './outcome.js';
import { Progress } from './progress.js';
import { createRemoteEngine } from './remote-engine.js';
import { summaryCsv } from './summary-csv.js';

export const ANALYZE_USAGE = `Analyse CPET exports: one JSON per file and a summary CSV.

Usage:
  cpet analyze <files or folders...> [options]

  A folder is searched recursively and every file in it is tried (hidden files and the output
  folder aside): the content decides the format, not the extension, and a file no format reads is
  listed with the failures. Without --url the files are analysed in this process (no server, no
  store); with --url they are uploaded to that service, analysed there, and deleted again.

Options:
  --out <dir>              where results go (default ./cpet-results): <name>.json per file, summary.csv
  --url <url>              analyse on the service at this URL instead of in process
  --key <key>              API key for --url (default: the CPET_API_KEY environment variable)
  --keep                   with --url, keep each recording on the service (default: delete it)
  --jobs <n>               files analysed at once (default: the number of cores, here ${availableParallelism()})
  --analyses <list>        comma-separated, any of vt, eov, substrate (default: every one, or every one
                           the key allows)
  --model <name>           threshold model (default: the service's default)
  --model-version <v>      threshold model version (default: latest)
  -h, --help               this text

Environment: CPET_API_KEY; FORMAT_PLUGINS (extra format plugins, in process, as the server reads it).
Exit codes: 0 every file analysed, 1 some file failed (listed at the end), 2 wrong usage.
The numbers are research output, not a diagnosis; each JSON carries the notes that go with them.`;

export async function analyzeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      out: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      keep: { type: 'boolean' },
      jobs: { type: 'string' },
      analyses: { type: 'string' },
      model: { type: 'string' },
      'model-version': { type: 'string' },
    },
    true,
  );
  if (values.help) {
    io.stdout.write(`${ANALYZE_USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('analyze needs at least one file or folder');
  const choices: AnalyzeChoices = {
    analyses: list(values.analyses),
    model: values.model,
    model_version: values['model-version'],
    jobs: wholeNumber(values.jobs, 'jobs', 1) ?? availableParallelism(),
  };
  const key = values.key ?? io.env.CPET_API_KEY;
  if (values.url && !key) throw new UsageError('--url needs an API key: --key <key> or the CPET_API_KEY environment variable');
  if (values.keep && !values.url) throw new UsageError('--keep applies to --url only: in process nothing is stored');
  const outDir = resolve(io.cwd, values.out ?? 'cpet-results');

  const engine: Engine = values.url
    ? await createRemoteEngine(choices, { url: values.url, apiKey: key as string, keep: values.keep ?? false })
    : await createLocalEngine(choices, formatPackages(io.env));
  try {
    const files = expandInputs(positionals, outDir, io.cwd);
    mkdirSync(outDir, { recursive: true });
    const progress = new Progress(files.length, io.stderr);
    const outcomes = await runBatch(files, engine, choices.jobs, (outcome, file) => {
      const path = join(outDir, `${file.name}.json`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${JSON.stringify(outcome, null, 2)}\n`);
      progress.tick(outcome);
    });
    progress.finish();
    writeFileSync(join(outDir, 'summary.csv'), summaryCsv(outcomes));
    const failures = outcomes.filter((o) => o.status === 'failed');
    io.stdout.write(
      `${outcomes.length} file${outcomes.length === 1 ? '' : 's'} analysed ${engine.where}: ${outcomes.length - failures.length} ok, ${failures.length} failed. Results in ${outDir} (one JSON per file, summary.csv).\n`,
    );
    if (failures.length === 0) return 0;
    io.stderr.write(`\n${failureTable(failures)}\n`);
    return 1;
  } finally {
    await engine.close();
  }
}

/** The failed files with their code and message, aligned. */
function failureTable(failures: readonly FileOutcome[]): string {
  const rows = [['FILE', 'ERROR', 'MESSAGE'], ...failures.map((f) => [f.file, f.error?.error ?? '', f.error?.message ?? ''])];
  const widths = [0, 1].map((c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2]}`.trimEnd()).join('\n');
}
