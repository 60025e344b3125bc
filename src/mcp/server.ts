/**
 * The MCP server (the official TypeScript SDK's low-level Server, so each tool's input schema is
 * the JSON Schema derived from the contract, not a hand-written copy): it lists the tools, checks a
 * call's arguments against the tool's schema, and sends the call to the service through the client
 * package. An answer is the service's JSON; an API error is a tool error carrying the error body.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { call, CpetApiError, type CpetClient } from '../../clients/typescript/src/node.js';
import type { ApiDocument } from '../openapi/types.js';
import { INSTRUCTIONS, NOTES_BY_OPERATION } from './reading-notes.js';
import { deriveTools, UPLOAD_BY_PATH, type ToolSpec } from './tools.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

export interface McpOptions {
  /** The API document the tools are derived from. */
  document: ApiDocument;
  /** The service, with the key. */
  client: CpetClient;
  version: string;
}

type Loose = (path: string, init: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

export function createMcpServer({ document, client, version }: McpOptions): Server {
  const tools = deriveTools(document);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>(tools.map((t) => [t.name, ajv.compile(t.inputSchema)]));
  const server = new Server({ name: 'cpet-analysis-service', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema as { type: 'object' }, annotations: t.annotations })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool ${request.params.name}; the tools are ${tools.map((t) => t.name).join(', ')}.`);
    const args = request.params.arguments ?? {};
    const validate = validators.get(tool.name) as ValidateFunction;
    if (!validate(args)) {
      const problems = (validate.errors ?? []).map(
        (e) =>
          `${e.instancePath || '(arguments)'} ${e.message ?? e.keyword}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''}`,
      );
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${problems.join('; ')}`);
    }
    try {
      const answer = await send(client, tool, args);
      const notes = NOTES_BY_OPERATION[tool.operationId] ?? [];
      return { content: [{ type: 'text', text: JSON.stringify(answer, null, 2) }, ...notes.map((note) => ({ type: 'text' as const, text: note }))] };
    } catch (err) {
      if (err instanceof CpetApiError) return { isError: true, content: [{ type: 'text', text: JSON.stringify({ status: err.status, ...err.body }, null, 2) }] };
      return { isError: true, content: [{ type: 'text', text: `The service could not be reached or failed: ${(err as Error).message}` }] };
    }
  });
  return server;
}

/** Sends one tool call to its operation: path and query parameters from their fields, the rest as the body. */
async function send(client: CpetClient, tool: ToolSpec, args: Record<string, unknown>): Promise<unknown> {
  if (tool.name === UPLOAD_BY_PATH.tool) return client.uploadFile(String(args.path), { retainHours: args.retain_hours as number | undefined });
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (tool.pathParameters.includes(name)) path[name] = value;
    else if (tool.queryParameters.includes(name)) query[name] = value;
    else body[name] = value;
  }
  // The route and method come from the document at run time, so the typed per-route signatures of
  // openapi-fetch cannot be named here; the arguments were checked against the route's schema above.
  const method = (client.api as unknown as Record<string, Loose>)[tool.method.toUpperCase()];
  const hasBody = tool.method !== 'get' && tool.method !== 'delete';
  return call(() => method(tool.path, { params: { path, query }, ...(hasBody ? { body } : {}) }));
}

/** Serves the tools over a transport (stdio for `cpet mcp`). */
export async function serve(options: McpOptions, transport: Transport): Promise<Server> {
  const server = createMcpServer(options);
  await server.connect(transport);
  return server;
}
