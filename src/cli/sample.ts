/** `cpet sample`: writes the synthetic sample (GET /v1/sample's file), to try the other commands on. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCpetClient, type SampleResponse } from '../../clients/typescript/src/node.js';
import { generateSample } from '../synthetic/sample.js';
import { parseCommand } from './args.js';
import type { CliIO } from './io.js';

export const SAMPLE_USAGE = `Write the synthetic sample recording (a seeded generator's incremental test, not a person).

Usage:
  cpet sample [--oscillating] [--out <file> | --stdout] [--url <url>]

Options:
  --oscillating   with an exercise oscillatory ventilation pattern
  --out <file>    where to write it (default: its own name, in the working directory)
  --stdout        write the file's content to standard output instead
  --url <url>     fetch it from the service at this URL (public route, no key) instead of generating it
  -h, --help      this text

Then: cpet analyze <the file>.`;

export async function sampleCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommand(args, { oscillating: { type: 'boolean' }, out: { type: 'string' }, stdout: { type: 'boolean' }, url: { type: 'string' } });
  if (values.help) {
    io.stdout.write(`${SAMPLE_USAGE}\n`);
    return 0;
  }
  const oscillating = values.oscillating ?? false;
  const sample: SampleResponse = values.url ? await createCpetClient({ baseUrl: values.url }).sample(oscillating) : generateSample(oscillating);
  if (values.stdout) {
    io.stdout.write(sample.content);
    return 0;
  }
  const path = resolve(io.cwd, values.out ?? sample.filename);
  writeFileSync(path, sample.content);
  const { vt1, vt2, vo2peak_ml_min } = sample.expected;
  const at = (p: typeof vt1) => (p ? `${p.time_s} s, ${p.vo2_ml_min} mL/min` : 'none placed');
  io.stdout.write(`Wrote ${path}\n${sample.note}\nThe generator placed VT1 at ${at(vt1)}, VT2 at ${at(vt2)}; VO2peak ${vo2peak_ml_min} mL/min.\n`);
  return 0;
}
