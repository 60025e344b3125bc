/**
 * `cpet mcp`: the service's operations as MCP tools on stdio, for AI agents. It talks to a running
 * service (`npm start`, or any URL) with an API key; standard output carries the protocol only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createCpetClient } from '../../clients/typescript/src/node.js';
import { serve } from '../mcp/server.js';
import { loadApiDocument } from '../openapi/document.js';
import { LOCAL_KEY_FILE } from '../store/bootstrap-key.js';
import { parseCommand, UsageError } from './args.js';
import type { CliIO } from './io.js';

export const MCP_USAGE = `Serve the CPET analysis service's operations as MCP tools on stdio (for AI agents).

Usage:
  cpet mcp [--url <url>] [--key <key>]

Options:
  --url <url>    the service (default: CPET_URL, else http://127.0.0.1:8080, where npm start listens)
  --key <key>    API key (default: CPET_API_KEY, else the local key npm start saved in DATA_DIR)
  -h, --help     this text

An agent's configuration runs it as: {"command": "npx", "args": ["cpet", "mcp"], "env": {"CPET_URL": "...", "CPET_API_KEY": "..."}}.
The tools are the API's operations (capabilities, formats, metrics, sample, upload by path or content,
summary, series, analyze, compute, delete); the web application's domain curves and alternative
threshold engine are not among them.`;

export async function mcpCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommand(args, { url: { type: 'string' }, key: { type: 'string' } });
  if (values.help) {
    io.stdout.write(`${MCP_USAGE}\n`);
    return 0;
  }
  const url = values.url ?? io.env.CPET_URL ?? 'http://127.0.0.1:8080';
  const keyFile = join(resolve(io.cwd, io.env.DATA_DIR || './data'), LOCAL_KEY_FILE);
  const key = values.key ?? io.env.CPET_API_KEY ?? (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : undefined);
  if (!key) throw new UsageError(`no API key: --key <key>, CPET_API_KEY, or a local key in ${keyFile} (npm start writes one)`);
  const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const server = await serve({ document: loadApiDocument(), client: createCpetClient({ baseUrl: url, apiKey: key }), version }, new StdioServerTransport());
  io.stderr.write(`cpet mcp: serving the tools of ${url} on stdio\n`);
  // The agent ends the session by closing our standard input.
  await new Promise<void>((done) => {
    server.onclose = () => done();
    process.stdin.once('end', () => void server.close());
  });
  return 0;
}
