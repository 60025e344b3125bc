/**
 * `cpet mcp` as an agent meets it: started on stdio by the official SDK's client, over a live
 * service on the loopback interface, through the whole lifecycle. Started as the README's
 * absolute-path configuration does: `node <service>/src/cli/cpet.mjs mcp` from an unrelated folder,
 * with the service's URL and key in the environment.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'chai';
import { deriveTools, EXPOSED_OPERATIONS, inline, LEFT_OUT_OPERATIONS } from '../../src/mcp/tools.js';
import { listOperations, loadApiDocument } from '../../src/openapi/document.js';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { startHarness, type Harness } from '../server/harness.js';

const CPET = join(PROJECT_ROOT, 'src', 'cli', 'cpet.mjs');
const XLSX = join(PROJECT_ROOT, 'formats', 'cosmed-xlsx', 'fixtures', 'pft-suite-en-breath-by-breath', 'input.xlsx');

interface TextResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

describe('cpet mcp', function () {
  this.timeout(120_000);
  const doc = loadApiDocument();
  let harness: Harness;
  let client: Client;
  let elsewhere = '';

  /** Calls a tool and answers its JSON (the first text item) with whether it was an error. */
  async function callTool(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; json: Record<string, unknown>; notes: string[] }> {
    const result = (await client.callTool({ name, arguments: args })) as TextResult;
    const [first, ...rest] = result.content;
    return { isError: result.isError === true, json: JSON.parse(first.text) as Record<string, unknown>, notes: rest.map((c) => c.text) };
  }

  before(async () => {
    harness = await startHarness({ store: 'sqlite' });
    const key = await harness.key();
    const { url } = await harness.listen();
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
    elsewhere = mkdtempSync(join(tmpdir(), 'cpet-mcp-agent-'));
    client = new Client({ name: 'cpet-test-agent', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CPET, 'mcp'], cwd: elsewhere, env: { ...env, CPET_URL: url, CPET_API_KEY: key }, stderr: 'ignore' }));
  });

  after(async () => {
    await client?.close();
    await harness.close();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('places every operation of the contract: offered as a tool, or left out with a reason', () => {
    const ids = listOperations(doc).map((e) => e.operation.operationId);
    const placed = [...EXPOSED_OPERATIONS, ...Object.keys(LEFT_OUT_OPERATIONS)];
    expect([...ids].sort()).to.deep.equal([...placed].sort());
    expect(EXPOSED_OPERATIONS.filter((id) => id in LEFT_OUT_OPERATIONS)).to.deep.equal([]);
  });

  it('lists one tool per offered operation, none of the web application (domain curves, alternative engine)', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(
      ['analyzeCpet', 'computeMetrics', 'deleteCpet', 'getCapabilities', 'getCpet', 'getCpetSeries', 'getSample', 'listFormats', 'listMetrics', 'uploadCpetContent', 'uploadCpetFile'].sort(),
    );
    for (const tool of deriveTools(doc)) expect(tool.path, tool.name).to.not.match(/^\/v1\/web\//);
    for (const tool of tools) expect(tool.name).to.not.match(/web|domain/i);
  });

  it('takes its input schemas from the YAML, so they cannot drift from the contract', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const schemas = doc.components?.schemas ?? {};
    const analyze = byName.get('analyzeCpet')?.inputSchema as unknown as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
    for (const field of ['analyses', 'model', 'model_version', 'medications']) {
      expect(analyze.properties[field], field).to.deep.equal(inline(doc, schemas.AnalyzeRequest.properties?.[field] ?? {}));
    }
    expect(analyze.required).to.deep.equal(['cpet_id']);
    expect(analyze.additionalProperties).to.equal(false);
    const content = byName.get('uploadCpetContent')?.inputSchema as unknown as { oneOf: unknown[]; required: string[] };
    expect(content.oneOf, 'exactly one of content and content_base64').to.deep.equal(inline(doc, { oneOf: schemas.ContentUploadRequest.oneOf }).oneOf);
    const series = byName.get('getCpetSeries')?.inputSchema as unknown as { properties: Record<string, { maximum?: number }> };
    expect(series.properties.max_points.maximum).to.equal(5000);
    expect(byName.get('uploadCpetFile')?.inputSchema.required).to.deep.equal(['path']);
    expect(byName.get('deleteCpet')?.annotations).to.include({ destructiveHint: true, readOnlyHint: false });
    expect(byName.get('getCpet')?.annotations).to.include({ readOnlyHint: true });
  });

  it('carries in its descriptions the notes that must accompany the numbers', async () => {
    const { tools } = await client.listTools();
    const analyze = tools.find((t) => t.name === 'analyzeCpet')?.description ?? '';
    expect(analyze)
      .to.match(/not a diagnosis/)
      .and.match(/beta/)
      .and.match(/upper bound/)
      .and.match(/corroborate a threshold model and never override it/)
      .and.match(/web application only/);
    expect(tools.find((t) => t.name === 'computeMetrics')?.description)
      .to.match(/not a diagnosis/)
      .and.match(/corroborate/);
    expect(tools.find((t) => t.name === 'getCpetSeries')?.description).to.match(/never for computing/);
    expect(client.getInstructions()).to.match(/not a diagnosis/);
  });

  it('runs the lifecycle: sample, upload, summary, series, analyze with its notes, compute, delete', async () => {
    const sample = await callTool('getSample', {});
    const uploaded = await callTool('uploadCpetContent', { filename: sample.json.filename, content: sample.json.content });
    expect(uploaded.isError).to.equal(false);
    const id = uploaded.json.cpet_id as string;
    expect((await callTool('getCpet', { cpet_id: id })).json.cpet_id).to.equal(id);
    const series = await callTool('getCpetSeries', { cpet_id: id, channels: 'VE,PetCO2', max_points: 50 });
    expect(Object.keys(series.json.series as object)).to.deep.equal(['VE', 'PetCO2']);
    const analyzed = await callTool('analyzeCpet', { cpet_id: id, analyses: ['vt', 'substrate'] });
    const results = analyzed.json.results as { analysis: string; status: string; notes: string[] }[];
    expect(results.map((r) => r.analysis)).to.deep.equal(['vt', 'substrate']);
    expect(analyzed.notes.join(' ')).to.match(/not a diagnosis/);
    const computed = await callTool('computeMetrics', { cpet_id: id, metrics: ['vo2max'] });
    expect((computed.json.metrics as Record<string, { status: string }>).vo2max.status).to.equal('ok');
    expect((await callTool('deleteCpet', { cpet_id: id })).json).to.deep.include({ deleted: true });
    const gone = await callTool('getCpet', { cpet_id: id });
    expect(gone.isError).to.equal(true);
    expect(gone.json).to.include({ status: 404, error: 'CPET_NOT_FOUND' });
  });

  it('uploads a binary export by its path', async () => {
    const uploaded = await callTool('uploadCpetFile', { path: XLSX, retain_hours: 1 });
    expect(uploaded.json.source).to.include({ format: 'cosmed-xlsx', filename: 'input.xlsx' });
    expect(uploaded.json.retention).to.include({ retain_hours: 1 });
  });

  it('does not reach the alternative engine: naming it answers MODEL_NOT_FOUND inside the result', async () => {
    const sample = await callTool('getSample', {});
    const { json } = await callTool('uploadCpetContent', { filename: sample.json.filename, content: sample.json.content });
    const analyzed = await callTool('analyzeCpet', { cpet_id: json.cpet_id, analyses: ['vt'], model: 'wasserman' });
    const [vt] = analyzed.json.results as { status: string; error: string }[];
    expect(vt).to.include({ status: 'not_analysable', error: 'MODEL_NOT_FOUND' });
  });

  it('refuses arguments its schema refuses before calling the service, naming the problem', async () => {
    const rejection = async (name: string, args: Record<string, unknown>): Promise<string> => {
      try {
        await client.callTool({ name, arguments: args });
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error(`${name} accepted ${JSON.stringify(args)}`);
    };
    expect(await rejection('analyzeCpet', { analyses: ['vt'] })).to.match(/Invalid arguments for analyzeCpet: .*cpet_id/);
    expect(await rejection('uploadCpetContent', { filename: 'a.json', content: '{}', content_base64: 'e30=' })).to.match(/Invalid arguments for uploadCpetContent/);
    expect(await rejection('getCpet', { cpet_id: 'x', colour: 'red' })).to.match(/colour/);
  });
});
