/**
 * The web application's own routes (x-web-only, under /v1/web): its session, the models it serves,
 * the per-second domain curves and analyze with the web application's models (spec section 1:
 * neither the curves nor the alternative threshold engine is reachable through the API).
 */
import type { Request } from 'express';
import { TIER_RANK } from '../../analyses/analysis-plugin.js';
import type { components } from '../../generated/api.js';
import { ServiceError } from '../../errors.js';
import type { ApiKeyRecord } from '../../store/keys.js';
import { unwrap } from '../../workers/tasks.js';
import type { ServiceDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { endSession, refuseCrossSite, sessionCookie, startSession, WEB_SESSION_TTL_MS } from '../web-session.js';
import { payloadOf } from '../stored-record.js';
import { loadRecord } from './ingest.js';

type WebSession = components['schemas']['WebSession'];
type WebModels = components['schemas']['WebModels'];
type DomainsResponse = components['schemas']['DomainsResponse'];
type DomainsRefusal = components['schemas']['DomainsNotAnalysable']['error'];

function secure(deps: ServiceDeps, req: Request): boolean {
  return req.secure || (deps.config.publicBaseUrl?.startsWith('https:') ?? false);
}

/** POST /v1/web/session: the key (already authenticated) buys a session cookie and its CSRF token. */
export async function createWebSession(deps: ServiceDeps, key: ApiKeyRecord, req: Request): Promise<Reply<'createWebSession'>> {
  refuseCrossSite(req.headers, deps.config.publicBaseUrl);
  const session = await startSession(deps.store, key, deps.config.now());
  const body: WebSession = {
    csrf_token: session.csrf_token,
    expires_at: new Date(session.expires_at_ms).toISOString(),
    key: { id: key.id, name: key.name, tier: key.tier, products: key.products },
  };
  return { json: body, headers: { 'Set-Cookie': sessionCookie(session.id, WEB_SESSION_TTL_MS / 1000, secure(deps, req)), 'Cache-Control': 'no-store' } };
}

/** DELETE /v1/web/session. */
export async function endWebSession(deps: ServiceDeps, req: Request): Promise<Reply<'endWebSession'>> {
  await endSession(deps.store, req.headers);
  return { json: { ended: true }, headers: { 'Set-Cookie': sessionCookie('', 0, secure(deps, req)) } };
}

/** GET /v1/web/models: every model served to the web application, and whether this key reaches it. */
export function listWebModels(deps: ServiceDeps, key: ApiKeyRecord): Reply<'listWebModels'> {
  const body: WebModels = {
    models: deps.plugins.analyses
      .flatMap((a) => a.listModels?.('web') ?? [])
      .map((m) => ({ ...m, reachable: TIER_RANK[m.tier] <= TIER_RANK[key.tier] && (key.allowed_models === null || key.allowed_models.includes(m.name)) })),
  };
  return { json: body };
}

/** GET /v1/web/cpet/{cpet_id}/domains: per-second moderate/heavy/severe probabilities. */
export async function getWebDomains(deps: ServiceDeps, key: ApiKeyRecord, cpetId: string, query: { model?: string; model_version?: string }): Promise<Reply<'getWebDomains'>> {
  if (!key.products.includes('vt'))
    throw new ServiceError('PRODUCT_NOT_ENABLED', 'Domain curves come from the threshold model: this key lacks the vt product.', { product: 'vt', products: key.products });
  const record = await loadRecord(deps, key.id, cpetId);
  const curves = unwrap(
    await deps.runner.run(
      {
        kind: 'domains',
        recording: payloadOf(record),
        model: query.model ?? null,
        model_version: query.model_version ?? null,
        key: { tier: key.tier, allowed_models: key.allowed_models },
        packages: deps.config.formatPackages,
      },
      key.id,
    ),
    'domains',
  );
  const body: DomainsResponse =
    curves.status === 'ok'
      ? { cpet_id: cpetId, status: 'ok', model: curves.model.name, model_version: curves.model.version, t_s: curves.t_s, moderate: curves.moderate, heavy: curves.heavy, severe: curves.severe }
      : {
          cpet_id: cpetId,
          status: 'not_analysable',
          model: curves.model.name,
          model_version: curves.model.version,
          error: curves.error as DomainsRefusal,
          message: curves.message,
          context: curves.context,
        };
  return { json: body };
}
