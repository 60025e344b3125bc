/**
 * The web application's own routes under /v1/web (openapi/cpet-api.yaml, tag "Web application"):
 * the domain curves and the alternative threshold engine, which the API does not serve. The key buys
 * a session once (an HttpOnly cookie the browser keeps); its CSRF token stays in this closure only and
 * goes with every request. A session that lapsed is started again once, from the same key.
 */
import type { Client } from 'openapi-fetch';
import { call, CpetApiError } from '../../clients/typescript/src/index.js';
import type { AnalyzeRequest, AnalyzeResponse, DomainsResponse, paths, WebModel, WebSession } from './types.js';

export interface WebRoutes {
  /** Every threshold model served to the web application, with `surfaces` and `reachable`. */
  models(): Promise<WebModel[]>;
  /** Per-second moderate, heavy and severe probabilities of a threshold model (default: the server's). */
  domains(cpetId: string, query?: { model?: string; model_version?: string }): Promise<DomainsResponse>;
  /** analyze with the models served to the web application (e.g. the alternative engine). */
  analyze(cpetId: string, body: AnalyzeRequest): Promise<AnalyzeResponse>;
  /** Ends the session (the next call starts a new one). */
  end(): Promise<void>;
}

/** `keyed` sends X-API-Key (for starting a session only); `plain` sends no key. */
export function createWebRoutes(keyed: Client<paths>, plain: Client<paths>): WebRoutes {
  let session: Promise<WebSession> | null = null;

  function start(): Promise<WebSession> {
    session ??= call(() => keyed.POST('/v1/web/session')).catch((err: unknown) => {
      session = null;
      throw err;
    });
    return session;
  }

  async function withSession<T>(fn: (csrf: string) => Promise<T>): Promise<T> {
    const current = await start();
    try {
      return await fn(current.csrf_token);
    } catch (err) {
      if (!(err instanceof CpetApiError && err.code === 'WEB_SESSION_REQUIRED')) throw err;
      session = null;
      return fn((await start()).csrf_token);
    }
  }

  const header = (csrf: string) => ({ 'X-CSRF-Token': csrf });
  return {
    models: () => withSession(async (csrf) => (await call(() => plain.GET('/v1/web/models', { params: { header: header(csrf) } }))).models),
    domains: (cpetId, query = {}) => withSession((csrf) => call(() => plain.GET('/v1/web/cpet/{cpet_id}/domains', { params: { path: { cpet_id: cpetId }, query, header: header(csrf) } }))),
    analyze: (cpetId, body) => withSession((csrf) => call(() => plain.POST('/v1/web/cpet/{cpet_id}/analyze', { params: { path: { cpet_id: cpetId }, header: header(csrf) }, body }))),
    async end() {
      if (!session) return;
      const current = await session.catch(() => null);
      session = null;
      if (current) await call(() => plain.DELETE('/v1/web/session', { params: { header: header(current.csrf_token) } }));
    },
  };
}
