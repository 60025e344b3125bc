/** `cpet formats`: the formats this build reads (its plugins, FORMAT_PLUGINS included), or a service's. */
import { formatInfo } from '../formats/format-plugin.js';
import { createCpetClient, type FormatInfo } from '../../clients/typescript/src/node.js';
import { loadPlugins } from '../plugins.js';
import { parseCommand, UsageError } from './args.js';
import { formatPackages, type CliIO } from './io.js';

export const FORMATS_USAGE = `List the file formats the service reads.

Usage:
  cpet formats [--url <url> --key <key>] [--json]

Options:
  --url <url>    the formats of the service at this URL (default: this build's, FORMAT_PLUGINS included)
  --key <key>    API key for --url (default: the CPET_API_KEY environment variable)
  --json         every field of every format, as JSON
  -h, --help     this text`;

export async function formatsCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommand(args, { url: { type: 'string' }, key: { type: 'string' }, json: { type: 'boolean' } });
  if (values.help) {
    io.stdout.write(`${FORMATS_USAGE}\n`);
    return 0;
  }
  let formats: FormatInfo[];
  if (values.url) {
    const key = values.key ?? io.env.CPET_API_KEY;
    if (!key) throw new UsageError('--url needs an API key: --key <key> or the CPET_API_KEY environment variable');
    formats = (await createCpetClient({ baseUrl: values.url, apiKey: key }).formats()).formats;
  } else {
    const plugins = await loadPlugins({ packages: formatPackages(io.env) });
    formats = plugins.formats.map((f) => formatInfo(f.meta));
  }
  if (values.json) {
    io.stdout.write(`${JSON.stringify(formats, null, 2)}\n`);
    return 0;
  }
  const rows = [['ID', 'EXTENSIONS', 'EXAMPLE FILES', 'WHAT IT IS'], ...formats.map((f) => [f.id, f.extensions.join(','), String(f.example_files), f.label])];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length)));
  io.stdout.write(`${rows.map((r) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padEnd(widths[2])}  ${r[3]}`).join('\n')}\n`);
  return 0;
}
