/**
 * What the service offers: capabilities of the calling key, the metric registry, the formats, the
 * public sample, health, the public OpenAPI document and its plain-text renderings.
 */
import { formatInfo } from '../../formats/format-plugin.js';
import { TIER_RANK, type ModelSummary } from '../../analyses/analysis-plugin.js';
import { ServiceError } from '../../errors.js';
import type { components } from '../../generated/api.js';
import { MARGIN, MIN_SCORE } from '../../formats/detect.js';
import { UPLOAD_LIMITS } from '../../formats/read-upload.js';
import { CANONICAL_RECOVERY } from '../../formats/recovery.js';
import type { ApiKeyRecord } from '../../store/keys.js';
import { TICKET_TTL_MS } from '../../store/tickets.js';
import { generateSample } from '../../synthetic/sample.js';
import { unitsUsed, usageMonth } from '../access.js';
import type { ServiceDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { RETENTION } from '../stored-record.js';
import { MAX_TICKETS_PER_REQUEST } from './uploads.js';

type Capabilities = components['schemas']['Capabilities'];

const MAX_SERIES_POINTS = 5000;

/** GET /v1/capabilities: what this key may do, its limits and its usage this month. */
export async function capabilities(deps: ServiceDeps, key: ApiKeyRecord): Promise<Reply<'getCapabilities'>> {
  const now = deps.config.now();
  const used = await unitsUsed(deps.store, key, now);
  const body: Capabilities = {
    key: { id: key.id, name: key.name, tier: key.tier, products: key.products, expires_at: key.expires_at },
    analyses: deps.plugins.analyses.map((a) => a.name).filter((n) => key.products.includes(n)),
    models: allModels(deps).map(({ surfaces: _served, ...m }) => ({
      ...m,
      reachable: TIER_RANK[m.tier] <= TIER_RANK[key.tier] && (key.allowed_models === null || key.allowed_models.includes(m.name)),
    })),
    metrics: deps.metrics.list().map((m) => m.name),
    formats: deps.plugins.formats.map((f) => f.meta.id),
    limits: {
      max_upload_bytes: UPLOAD_LIMITS.max_upload_bytes,
      max_samples: UPLOAD_LIMITS.max_samples,
      max_duration_s: UPLOAD_LIMITS.max_duration_s,
      retention_hours: RETENTION.default_hours,
      max_retain_hours: RETENTION.max_hours,
      monthly_limit: key.monthly_limit,
      rate_limit_per_minute: deps.config.rateLimitPerMinute,
      max_series_points: MAX_SERIES_POINTS,
      ticket_ttl_s: TICKET_TTL_MS / 1000,
      max_tickets_per_request: MAX_TICKETS_PER_REQUEST,
    },
    retention: RETENTION.sentence,
    usage: { month: usageMonth(now), units_used: used, units_remaining: key.monthly_limit === null ? null : Math.max(0, key.monthly_limit - used) },
  };
  return { json: body };
}

function allModels(deps: ServiceDeps): ModelSummary[] {
  return deps.plugins.analyses.flatMap((a) => a.listModels?.('api') ?? []);
}

/** GET /v1/metrics. */
export function listMetrics(deps: ServiceDeps): Reply<'listMetrics'> {
  return { json: { metrics: deps.metrics.describe() } };
}

/** GET /v1/formats: every plugin's own metadata, and the canonical shape for files none reads. */
export function listFormats(deps: ServiceDeps): Reply<'listFormats'> {
  return {
    json: {
      detection:
        `Every vendor format scores the file from its content (header words, section markers, units rows, sheet names, delimiters), ` +
        `with the extension as one clue among several. The best score must reach ${MIN_SCORE} and lead the runner-up by ${MARGIN}, ` +
        'or the upload is refused with UNSUPPORTED_FORMAT. When no vendor format reaches it, the last-resort generic-table reads any ' +
        `CSV, TSV or spreadsheet table whose columns the column dictionary recognises (a time column and VO2 with VCO2, or VE), scored at most ${MIN_SCORE} ` +
        'and reported with format_confidence "last_resort" and a column_mapping flag; otherwise the upload is refused with the canonical shape to convert into.',
      formats: deps.plugins.formats.map((f) => formatInfo(f.meta)),
      if_unsupported: CANONICAL_RECOVERY,
    },
  };
}

/** GET /v1/sample: the same bytes for the same request. */
export function sample(oscillating: boolean): Reply<'getSample'> {
  return { json: generateSample(oscillating) };
}

/** GET /health: liveness. The process answers; it looks at nothing else, so a slow store never restarts it. */
export function health(deps: ServiceDeps): Reply<'getHealth'> {
  return { json: { status: 'ok', version: deps.version, store: deps.store.kind, uptime_s: Math.round((Date.now() - deps.startedAtMs) / 1000) } };
}

/** How long readiness waits for the store and for a worker thread. */
const READY_TIMEOUT_MS = 2_000;

/**
 * GET /ready: readiness. 200 when the store and a worker thread answer within 2 s and shutdown has
 * not begun; else 503 SERVICE_UNAVAILABLE naming what failed, so a balancer sends traffic elsewhere.
 */
export async function ready(deps: ServiceDeps): Promise<Reply<'getReady'>> {
  const within = <T>(work: Promise<T>): Promise<T> =>
    Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS).unref())]);
  const [store, workers] = await Promise.all([
    within(deps.store.ping()).then(
      () => 'ok' as const,
      () => 'failing' as const,
    ),
    within(deps.runner.ping(READY_TIMEOUT_MS)).then(
      (ok) => (ok ? ('ok' as const) : ('failing' as const)),
      () => 'failing' as const,
    ),
  ]);
  const checks = { store, workers, shutting_down: deps.lifecycle.draining };
  if (store !== 'ok' || workers !== 'ok' || deps.lifecycle.draining) {
    const failing = [store !== 'ok' && 'store', workers !== 'ok' && 'workers', deps.lifecycle.draining && 'shutting down'].filter(Boolean).join(', ');
    throw new ServiceError('SERVICE_UNAVAILABLE', `Not ready: ${failing}.`, { reason: 'not_ready', retry_after_s: 5, checks });
  }
  return { json: { status: 'ready', checks: { store, workers, shutting_down: false } } };
}

/** GET /metrics: the Prometheus text exposition. */
export async function metricsText(deps: ServiceDeps): Promise<Reply<'getMetrics'>> {
  return { text: await deps.telemetry.registry.metrics(), contentType: deps.telemetry.registry.contentType };
}
