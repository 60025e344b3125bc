/**
 * The `cpet` command line: batch analysis in process or on a service, the formats, the sample,
 * the operator's key commands, and an MCP server. `main` answers the exit code: 0 done, 1 failed,
 * 2 wrong usage (with a pointer to --help).
 */
import { readFileSync } from 'node:fs';
import { analyzeCommand } from './analyze/command.js';
import { UsageError } from './args.js';
import { exportCommand } from './export.js';
import { formatsCommand } from './formats.js';
import { processIO, type CliIO } from './io.js';
import { runKeys } from './keys.js';
import { mcpCommand } from './mcp.js';
import { sampleCommand } from './sample.js';

const USAGE = `cpet: analyse cardiopulmonary exercise test (CPET) exports.

Usage:
  cpet <command> [options]

Commands:
  analyze <files or folders...>   one JSON per file and a summary CSV, in process or on a service (--url)
  export <files or folders...>    the normalised recording as CSV (or JSON) per file, for R, Python, spreadsheets
  formats                         the file formats read (this build's, or a service's with --url)
  sample                          write the synthetic sample recording to try the others on
  keys create|list|revoke         manage API keys (operator; the server's store: DATA_DIR, REDIS_URL)
  mcp                             an MCP server on stdio over a service, for AI agents

Run "cpet <command> --help" for a command's options. Research software: not a diagnosis.`;

type Command = (args: string[], io: CliIO) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  analyze: analyzeCommand,
  export: exportCommand,
  formats: formatsCommand,
  sample: sampleCommand,
  keys: (args) => runKeys(args, 'cpet keys'),
  mcp: mcpCommand,
};

function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  const known = Object.hasOwn(COMMANDS, name);
  try {
    if (!known) throw new UsageError(`unknown command "${name}"`);
    return await COMMANDS[name](args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`cpet ${known ? `${name}: ` : ''}${err.message}\nRun "cpet ${known ? `${name} ` : ''}--help" for usage.\n`);
      return 2;
    }
    io.stderr.write(`cpet ${name}: ${(err as Error).message ?? String(err)}\n`);
    return 1;
  }
}
