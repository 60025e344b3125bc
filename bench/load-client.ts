/**
 * A closed-loop HTTP load client, run as its own process by http.bench.ts so that its work never
 * shares the server's event loop: `connections` keep-alive connections each send the same request
 * again as soon as the last answer arrived, `count` times each or for `duration_ms`; it prints one
 * JSON line with every answer's send time and latency. Only loopback addresses are accepted.
 * `node --import tsx bench/load-client.ts '<json options>'`
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** A file whose bytes are the body (a multipart upload). */
  body_file?: string;
  connections: number;
  /** Requests per connection; when absent, requests go on for `duration_ms`. */
  count?: number;
  duration_ms?: number;
}

export interface LoadResult {
  /** Epoch ms when the run started, to place answers beside another process's clock. */
  started_at: number;
  /** Per answer: ms since the run started when the request was sent, latency ms, status. */
  answers: [number, number, number][];
  duration_ms: number;
  errors: number;
}

async function run(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error(`load is sent to loopback only, not ${url.hostname}`);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const answers: LoadResult['answers'] = [];
  const body = options.body_file ? readFileSync(options.body_file) : options.body;
  let errors = 0;
  const startedAt = Date.now();
  const started = performance.now();
  const once = () =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      const req = request(url, { method: options.method, headers: options.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          answers.push([sent - started, performance.now() - sent, res.statusCode ?? 0]);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const loop = async () => {
    if (options.count !== undefined) for (let i = 0; i < options.count; i++) await once();
    else while (performance.now() - started < (options.duration_ms ?? 0)) await once();
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  agent.destroy();
  return { started_at: startedAt, answers, duration_ms: performance.now() - started, errors };
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
process.stdout.write(`${JSON.stringify(await run(options))}\n`);
