/**
 * The HTTP server around the app and its orderly end. On shutdown it stops accepting connections but
 * cuts none: a request already in flight finishes, one that arrives afterwards on a connection the
 * server had accepted (read or not yet read, fresh or kept alive) is answered 503 with Retry-After
 * (drainRefusal), every answer closes its connection, and a connection that stays silent is closed
 * only after IDLE_GRACE_MS. At most the drain timeout later whatever is left is cut; then the worker
 * pool closes (running tasks finish) and only then the store, so no request loses either mid-way.
 * (Node's own http close() would end idle connections at once, among them those accepted whose
 * request was not read yet: their clients saw ECONNRESET instead of an answer.)
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { serviceUnavailable, ServiceError } from '../errors.js';
import type { Service } from './app.js';
import type { ServiceDeps } from './deps.js';
import { sendError } from './errors.js';

/** Node's default: request headers beyond 16 KB are refused with 431. */
const MAX_HEADER_BYTES = 16 * 1024;
/** A client must send its headers within this long (slowloris), and a whole request within REQUEST_TIMEOUT_MS. */
const HEADERS_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 300_000;
/** Longer than a typical balancer's idle timeout, so the balancer closes idle connections first. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/**
 * After SIGTERM the listener stays open until no connection has come for ACCEPT_QUIET_MS (at most
 * ACCEPT_GRACE_MAX_MS): connections the kernel had already completed wait in its accept queue, and
 * closing the listener would reset them; accepted, they are answered 503 like any other.
 */
const ACCEPT_QUIET_MS = 200;
const ACCEPT_GRACE_MAX_MS = 2_000;
/** A connection with no request this long after the drain started (or after its last answer) is closed. */
const IDLE_GRACE_MS = 1_000;
/** How often the drain looks for connections to close. */
const DRAIN_TICK_MS = 100;
/** A refused request's body is read and dropped up to this size, so closing after the answer does not reset the connection under the client. */
const REFUSED_BODY_READ_BYTES = 64 * 1024 * 1024;
/** What a client is told to wait before retrying (another instance usually answers at once). */
const DRAIN_RETRY_AFTER_S = 1;

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
  /** Every open connection, with the time its last answer ended (null while a request is on it). */
  const idleSince = new Map<Socket, number | null>();
  let lastConnectionMs = 0;
  server.on('connection', (socket: Socket) => {
    lastConnectionMs = Date.now();
    idleSince.set(socket, lastConnectionMs);
    socket.on('close', () => idleSince.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res) => {
    inFlight++;
    idleSince.set(req.socket, null);
    res.on('close', () => {
      inFlight--;
      if (idleSince.has(req.socket)) idleSince.set(req.socket, Date.now());
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
      const startedMs = Date.now();
      deps.lifecycle.draining = true;
      deps.logger.info({ reason, in_flight: inFlight, connections: idleSince.size, drain_timeout_ms: deps.operations.drainTimeoutMs }, 'shutting down: draining requests');
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, DRAIN_TICK_MS / 2));
        // Looked at after the event loop's poll phase, where libuv accepts everything queued.
        await new Promise((resolve) => setImmediate(resolve));
        const now = Date.now();
        if (now - Math.max(lastConnectionMs, startedMs) >= ACCEPT_QUIET_MS || now - startedMs >= ACCEPT_GRACE_MAX_MS) break;
      }
      // net's close, not http's: stop listening, keep every accepted connection (see the header).
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      const deadline = startedMs + deps.operations.drainTimeoutMs;
      while (idleSince.size > 0 && Date.now() < deadline) {
        const now = Date.now();
        for (const [socket, since] of idleSince) {
          if (since !== null && now - Math.max(since, startedMs) >= IDLE_GRACE_MS) socket.destroy();
        }
        await new Promise((resolve) => setTimeout(resolve, DRAIN_TICK_MS));
      }
      if (idleSince.size > 0) deps.logger.warn({ in_flight: inFlight, connections: idleSince.size }, 'drain timeout: closing the connections still open');
      server.closeAllConnections();
      await closed;
      await service.close();
      deps.logger.info({ reason }, 'closed');
    })();
    return closing;
  };
  return { server, port: bound, shutdown };
}

/**
 * While draining, a request that arrives (on a connection accepted before the listener closed) is
 * answered 503 SERVICE_UNAVAILABLE with Retry-After and Connection: close, after its body is read
 * and dropped: closing a socket with unread bytes would reset it before the client read the answer.
 * /health and /ready still answer (alive; not ready), and every answer closes its connection so
 * keep-alive clients reconnect elsewhere.
 */
export function drainRefusal(deps: ServiceDeps) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!deps.lifecycle.draining) {
      next();
      return;
    }
    res.setHeader('Connection', 'close');
    if (req.method === 'GET' && (req.path === '/health' || req.path === '/ready')) {
      next();
      return;
    }
    const refuse = (): void => {
      if (!res.headersSent) sendError(res, serviceUnavailable('The service is shutting down; retry on another instance.', 'shutting_down', DRAIN_RETRY_AFTER_S));
    };
    let read = 0;
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > REFUSED_BODY_READ_BYTES) {
        refuse();
        req.socket.destroy();
      }
    });
    req.on('end', refuse);
    req.on('error', () => undefined);
    req.resume();
  };
}
