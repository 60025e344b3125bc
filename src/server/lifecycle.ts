/**
 * The HTTP server around the app and its orderly end. On shutdown it stops accepting connections,
 * lets every request in flight finish (each answer then closes its connection), waits at most the
 * drain timeout before cutting what is left, closes the worker pool (running tasks finish) and only
 * then the store, so no request loses its worker or its store mid-way.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ServiceError } from '../errors.js';
import type { Service } from './app.js';

/** Node's default: request headers beyond 16 KB are refused with 431. */
const MAX_HEADER_BYTES = 16 * 1024;
/** A client must send its headers within this long (slowloris), and a whole request within REQUEST_TIMEOUT_MS. */
const HEADERS_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 300_000;
/** Longer than a typical balancer's idle timeout, so the balancer closes idle connections first. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface Running {
  server: Server;
  /** The port actually bound (useful with port 0). */
  port: number;
  /** Drains and closes everything; resolves when the service is closed. Safe to call twice. */
  shutdown(reason: string): Promise<void>;
}

/** An error answer written straight to the socket, for requests the HTTP parser refused before express saw them. */
function rawError(err: ServiceError): string {
  const body = JSON.stringify(err.toBody());
  return [
    `HTTP/1.1 ${err.status} ${err.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Listens on `port`/`host` and returns the handle whose `shutdown` ends everything in order. */
export async function serve(service: Service, port: number, host: string): Promise<Running> {
  const { deps } = service;
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS }, service.app);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  let inFlight = 0;
  let drained: (() => void) | null = null;
  server.on('request', (_req: IncomingMessage, res) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0 && drained) drained();
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const refused =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new ServiceError('REQUEST_HEADERS_TOO_LARGE', `The request headers exceed ${MAX_HEADER_BYTES / 1024} KB.`, { max_header_bytes: MAX_HEADER_BYTES })
        : new ServiceError('MALFORMED_REQUEST', 'The HTTP request could not be parsed.', { reason: String(err.code ?? 'unparsable') });
    if (err.code === 'ECONNRESET' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return socket.destroy();
    socket.end(rawError(refused));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;

  let closing: Promise<void> | null = null;
  const shutdown = (reason: string): Promise<void> => {
    closing ??= (async () => {
      deps.lifecycle.draining = true;
      deps.logger.info({ reason, in_flight: inFlight, drain_timeout_ms: deps.operations.drainTimeoutMs }, 'shutting down: draining requests');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        const timedOut = await Promise.race([
          new Promise<boolean>((resolve) => {
            drained = () => resolve(false);
          }),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(true), deps.operations.drainTimeoutMs).unref()),
        ]);
        if (timedOut) deps.logger.warn({ in_flight: inFlight }, 'drain timeout: closing the connections still open');
      }
      server.closeAllConnections();
      await closed;
      await service.close();
      deps.logger.info({ reason }, 'closed');
    })();
    return closing;
  };
  return { server, port: bound, shutdown };
}
