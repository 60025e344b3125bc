/**
 * The app factory: express in front, openapi-backend routing every request by operationId against
 * openapi/cpet-api.yaml and validating it with ajv (JSON Schema 2020-12), thin handlers behind.
 * `createService` opens the store, loads the plugins and starts the worker pool; listening and the
 * orderly shutdown live in lifecycle.ts, so tests drive the app through supertest without a port.
 * Middleware order: request id and access line, security headers, CORS, the gate (caller and size
 * before any body is read, then the operation's body parser), openapi-backend, the error shape.
 */
import express, { type Request, type Response } from 'express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Context, type Handler } from 'openapi-backend';
import { readFileSync } from 'node:fs';
import { operationsOf, type Config } from '../config.js';
import { ServiceError } from '../errors.js';
import { createMetricRegistry } from '../metrics/registry.js';
import { loadApiDocument, llmsFullText, llmsText, withFormatIds } from '../openapi/document.js';
import { loadPlugins } from '../plugins.js';
import { openStore, type Store } from '../store/store.js';
import { createTaskRunner } from '../workers/pool.js';
import { boundedString } from './bounded-echo.js';
import type { ServiceDeps } from './deps.js';
import type { AnyReply, OperationId, Reply, StreamBody } from './reply.js';
import { errorMiddleware, issuesFromAjv, sendError, validationError } from './errors.js';
import { admission, closeOnUnreadBody, gate } from './gate.js';
import { analyze, compute } from './handlers/analysis.js';
import { capabilities, health, listFormats, listMetrics, metricsText, ready, sample } from './handlers/catalog.js';
import { exportCpet } from './handlers/export.js';
import { deleteCpet, getCpet, getSeries } from './handlers/records.js';
import { createTickets, postTicket, uploadContent, uploadMultipart, type AdmittedTicket } from './handlers/uploads.js';
import { createWebSession, endWebSession, getWebDomains, listWebModels } from './handlers/web.js';
import { drainRefusal } from './lifecycle.js';
import { indexOperations } from './operation-index.js';
import { createLogger, type Logger } from './logger.js';
import { requestLog } from './request-log.js';
import { cors, securityHeaders } from './security-headers.js';
import { createTelemetry, type Telemetry } from './telemetry.js';
import { webPage, type WebPage } from './web-page.js';
import type { ApiKeyRecord } from '../store/keys.js';
import { webBundle, type WebBundle } from '../../web/build.js';

export interface Service {
  app: express.Express;
  deps: ServiceDeps;
  /** Ends the worker threads (letting running tasks finish), then the store. */
  close(): Promise<void>;
}

/** Opens everything the service needs and builds the express app. */
export async function createService(config: Config, options: { store?: Store; namespace?: string; logger?: Logger } = {}): Promise<Service> {
  const ops = operationsOf(config);
  const logger = options.logger ?? createLogger(ops.logLevel);
  const telemetry = createTelemetry();
  const store = options.store ?? (await openStore({ dataDir: config.dataDir, redisUrl: config.redisUrl, namespace: options.namespace, now: config.now, commandTimeoutMs: ops.storeTimeoutMs }));
  const plugins = await loadPlugins({ packages: config.formatPackages });
  const metrics = createMetricRegistry(plugins.analyses.flatMap((a) => a.metrics ?? []));
  // Format plugins from npm packages join the document's format-id enum.
  const document = withFormatIds(
    loadApiDocument(),
    plugins.formats.map((f) => f.meta.id),
  );
  const runner = createTaskRunner({
    workers: config.workers,
    taskTimeoutMs: ops.taskTimeoutMs,
    workerMemoryMb: ops.workerMemoryMb,
    queueLimit: ops.workerQueueLimit,
    packages: config.formatPackages,
    warmUp: { rounds: ops.warmUpRounds, budget_ms: ops.warmUpBudgetMs },
  });
  telemetry.watchWorkers(() => runner.load());
  const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const deps: ServiceDeps = {
    config,
    operations: ops,
    logger,
    telemetry,
    lifecycle: { draining: false },
    store: countStoreErrors(store, telemetry),
    runner,
    plugins,
    metrics,
    document: document as unknown as Record<string, unknown>,
    llms: { short: llmsText(document), full: llmsFullText(document) },
    version,
    startedAtMs: Date.now(),
  };
  const app = await buildApp(deps, await webBundle());
  return {
    app,
    deps,
    close: async () => {
      await runner.close();
      if (!options.store) await store.close();
    },
  };
}

/** The store with every failed operation counted in cpet_store_errors_total. */
function countStoreErrors(store: Store, telemetry: Telemetry): Store {
  const wrap = <T extends object>(target: T, prefix: string): T => {
    const out = { ...target } as Record<string, unknown>;
    for (const [name, value] of Object.entries(target)) {
      if (typeof value !== 'function') continue;
      out[name] = async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (err) {
          telemetry.storeError(`${prefix}${name}`);
          throw err;
        }
      };
    }
    return out as T;
  };
  return { ...wrap(store, ''), kind: store.kind, keys: wrap(store.keys, 'keys.') };
}

/**
 * A keyed operation: the security handler has authenticated the key (from X-API-Key, or for the web
 * application's routes from its session) and counted it against its rate limit.
 */
/** The ticket the gate admitted before the body was read. */
function admittedTicket(req: Request): AdmittedTicket {
  const ticket = req.res ? admission(req.res).ticket : undefined;
  if (!ticket) throw new ServiceError('INTERNAL_ERROR', 'The ticket post reached its handler without passing the gate.', {});
  return ticket;
}

/** A handler's reply is typed by the operation it is registered for, so the tables below tie each operationId to its contract. */
type KeyedHandler<Op extends OperationId> = (deps: ServiceDeps, key: ApiKeyRecord, c: Context, req: Request) => Promise<Reply<Op>> | Reply<Op>;
type PublicHandler<Op extends OperationId> = (deps: ServiceDeps, c: Context, req: Request) => Promise<Reply<Op>> | Reply<Op>;
type KeyedTable = { [Op in OperationId]?: KeyedHandler<Op> };
type PublicTable = { [Op in OperationId]?: PublicHandler<Op> };

const path = (c: Context, name: string): string => String((c.request.params as Record<string, string>)[name]);

const KEYED: KeyedTable = {
  getCapabilities: (d, k) => capabilities(d, k),
  uploadCpetMultipart: (d, k, _c, req) => uploadMultipart(d, k, req),
  uploadCpetContent: (d, k, c) => uploadContent(d, k, c.request.requestBody),
  createUploadTickets: (d, k, c, req) => createTickets(d, k, c.request.requestBody ?? {}, req),
  getCpet: (d, k, c) => getCpet(d, k, path(c, 'cpet_id')),
  deleteCpet: (d, k, c) => deleteCpet(d, k, path(c, 'cpet_id')),
  getCpetSeries: (d, k, c) => getSeries(d, k, path(c, 'cpet_id'), c.request.query as never),
  exportCpet: (d, k, c) => exportCpet(d, k, path(c, 'cpet_id'), c.request.query as never),
  analyzeCpet: (d, k, c) => analyze(d, k, path(c, 'cpet_id'), c.request.requestBody ?? {}),
  listMetrics: (d) => listMetrics(d),
  computeMetrics: (d, k, c) => compute(d, k, path(c, 'cpet_id'), c.request.requestBody),
  listFormats: (d) => listFormats(d),
  createWebSession: (d, k, _c, req) => createWebSession(d, k, req),
};

/** The web application's routes: the key comes from the session cookie, never from X-API-Key. */
const SESSION: KeyedTable = {
  endWebSession: (d, _k, _c, req) => endWebSession(d, req),
  listWebModels: (d, k) => listWebModels(d, k),
  getWebDomains: (d, k, c) => getWebDomains(d, k, path(c, 'cpet_id'), c.request.query as never),
  analyzeWeb: (d, k, c) => analyze(d, k, path(c, 'cpet_id'), c.request.requestBody ?? {}, 'web'),
};

const PUBLIC: PublicTable = {
  postTicketUpload: (d, _c, req) => postTicket(d, admittedTicket(req), req),
  getSample: (_d, c) => sample(String((c.request.query as Record<string, unknown>).oscillating) === 'true'),
  getHealth: (d) => health(d),
  getReady: (d) => ready(d),
  getMetrics: (d) => metricsText(d),
  getOpenApi: (d) => ({ json: d.document }),
  getLlmsTxt: (d) => ({ text: d.llms.short, contentType: 'text/plain; charset=utf-8' }),
  getLlmsFullTxt: (d) => ({ text: d.llms.full, contentType: 'text/plain; charset=utf-8' }),
};

/** The web application's page and assets, public, from the bundle the app is built with. */
const PAGE: { [Op in OperationId]?: (web: WebPage, c: Context) => Reply<Op> } = {
  getWebPage: (web) => web.page(),
  getWebAsset: (web, c) => web.asset(path(c, 'name')),
};

/** Every operationId of the document has exactly one handler (checked at start-up, strict mode). */
export const OPERATION_IDS = [...Object.keys(KEYED), ...Object.keys(SESSION), ...Object.keys(PUBLIC), ...Object.keys(PAGE)] as OperationId[];

function write(res: Response, reply: AnyReply): void | Promise<void> {
  res.status(reply.status ?? 200);
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if ('stream' in reply) return stream(res, reply.contentType, reply.stream);
  if ('text' in reply) {
    res.type(reply.contentType).send(reply.text);
  } else {
    res.json(reply.json);
  }
}

/** Writes chunks as the socket drains, so a long body never sits whole in memory; tells `done` whether it all went out. */
async function stream(res: Response, contentType: string, body: StreamBody): Promise<void> {
  res.type(contentType);
  let delivered = false;
  try {
    for (const chunk of body.chunks) {
      if (res.destroyed) break;
      if (!res.write(chunk))
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.on('drain', go);
          res.on('close', go);
        });
    }
    if (!res.destroyed) {
      await new Promise<void>((resolve) => res.end(resolve));
      delivered = true;
    }
  } finally {
    await body.done(delivered);
  }
}

/**
 * Routes outside /v1 (the page, its assets, the health and readiness probes, the llms texts) answer HEAD
 * as GET (what a monitor or a link checker sends); openapi-backend routes HEAD to nothing. Node's
 * response already knows the request was HEAD and sends no body. /v1 routes keep their declared
 * methods: a HEAD there must not run a handler that bills.
 */
function headAsGetOutsideApi(req: Request, _res: Response, next: () => void): void {
  if (req.method === 'HEAD' && !req.path.startsWith('/v1/')) req.method = 'GET';
  next();
}

/** Builds the express app around an initialised openapi-backend, with the web application at `/`. */
export async function buildApp(deps: ServiceDeps, page: WebBundle): Promise<express.Express> {
  const api = new OpenAPIBackend({
    definition: structuredClone(deps.document) as never,
    strict: true,
    quick: true,
    validate: true,
    coerceTypes: true,
    customizeAjv: (_original, ajvOpts) => {
      // openapi-backend's default ajv is draft-07 and would silently ignore 2020-12 keywords.
      const ajv = new Ajv2020({ ...ajvOpts, strict: false, allErrors: true });
      addFormats.default(ajv);
      return ajv as never;
    },
  });

  const handlers: Record<string, Handler> = {};
  for (const [id, fn] of Object.entries(KEYED) as [string, KeyedHandler<OperationId>][]) {
    handlers[id] = async (c: Context, req: Request, res: Response) => write(res, await fn(deps, c.security?.ApiKey as ApiKeyRecord, c, req));
  }
  for (const [id, fn] of Object.entries(SESSION) as [string, KeyedHandler<OperationId>][]) {
    handlers[id] = async (c: Context, req: Request, res: Response) => write(res, await fn(deps, c.security?.WebSession as ApiKeyRecord, c, req));
  }
  for (const [id, fn] of Object.entries(PUBLIC) as [string, PublicHandler<OperationId>][]) {
    handlers[id] = async (c: Context, req: Request, res: Response) => write(res, await fn(deps, c, req));
  }
  const web = webPage(page);
  for (const [id, fn] of Object.entries(PAGE) as [string, (web: WebPage, c: Context) => AnyReply][]) {
    handlers[id] = (c: Context, _req: Request, res: Response) => write(res, fn(web, c));
  }
  // The gate (gate.ts) authenticated the caller and counted its rate limit before the body was read;
  // the security handlers hand its key on, so a missing key still outranks a malformed body.
  const admitted = (req: Request): ApiKeyRecord => {
    const key = req.res ? admission(req.res).key : undefined;
    if (!key) throw new ServiceError('INTERNAL_ERROR', 'The request reached its handler without passing the gate.', {});
    return key;
  };
  api.registerSecurityHandler('ApiKey', (_c: Context, req: Request) => admitted(req));
  api.registerSecurityHandler('WebSession', (_c: Context, req: Request) => admitted(req));
  handlers.unauthorizedHandler = (c: Context, _req: Request, res: Response) => {
    const failure = Object.values(c.security ?? {})
      .map((v) => (v as { error?: unknown } | undefined)?.error)
      .find((e) => e !== undefined);
    if (failure instanceof ServiceError) return sendError(res, failure);
    throw failure ?? new Error('authentication failed without a reason');
  };
  handlers.validationFail = (c: Context, req: Request, res: Response) =>
    sendError(res, validationError(issuesFromAjv(c.validation.errors as never, { body: req.body, query: req.query, params: c.request.params })));
  handlers.notFound = (c: Context, _req: Request, res: Response) => {
    const shown = boundedString(c.request.path, 200);
    sendError(res, new ServiceError('NOT_FOUND', `No route ${c.request.method.toUpperCase()} ${shown}.`, { method: c.request.method.toUpperCase(), path: shown }));
  };
  handlers.methodNotAllowed = (c: Context, _req: Request, res: Response) => {
    const allowed = ['get', 'post', 'put', 'patch', 'delete'].filter((m) => api.router.matchOperation({ ...c.request, method: m }) !== undefined);
    const shown = boundedString(c.request.path, 200);
    sendError(
      res,
      new ServiceError('METHOD_NOT_ALLOWED', `${c.request.method.toUpperCase()} is not allowed on ${shown}.`, { method: c.request.method.toUpperCase(), allowed: allowed.map((m) => m.toUpperCase()) }),
    );
  };
  handlers.notImplemented = (c: Context, _req: Request, res: Response) => sendError(res, new ServiceError('INTERNAL_ERROR', `Operation ${c.operation?.operationId} has no handler.`, {}));
  api.register(handlers);
  await api.init();
  indexOperations(api);

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', false);
  app.use(requestLog(deps.logger, deps.telemetry));
  app.use(securityHeaders(deps.config.publicBaseUrl?.startsWith('https:') ?? false));
  app.use(cors(deps.operations.corsOrigins));
  app.use(closeOnUnreadBody);
  app.use(drainRefusal(deps));
  app.use(headAsGetOutsideApi);
  app.use(gate(api, deps));
  app.use(async (req, res, next) => {
    try {
      await api.handleRequest(
        { method: req.method, path: req.path, body: Buffer.isBuffer(req.body) ? {} : req.body, query: req.query as Record<string, string>, headers: req.headers as Record<string, string> },
        req,
        res,
      );
    } catch (err) {
      next(err);
    }
  });
  app.use(errorMiddleware(deps.logger));
  return app;
}
