/**
 * analyze and compute: request-level checks (names, products), a quota reservation of the most units
 * the request can earn, the work in a worker, then the reservation settled to what spec section 8
 * bills (or given back when the work fails).
 */
import type { AnalysisName, Surface } from '../../analyses/analysis-plugin.js';
import { ServiceError } from '../../errors.js';
import type { components } from '../../generated/api.js';
import type { ApiKeyRecord } from '../../store/keys.js';
import { unwrap } from '../../workers/tasks.js';
import { reserveUnits } from '../access.js';
import type { ServiceDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { validationError } from '../errors.js';
import { parseAveraging } from '../../signal/averaging/index.js';
import { payloadOf } from '../stored-record.js';
import { loadRecord } from './ingest.js';

type AnalyzeRequest = components['schemas']['AnalyzeRequest'];
type ComputeRequest = components['schemas']['ComputeRequest'];
type AnalyzeResponse = components['schemas']['AnalyzeResponse'];

const ANALYSIS_NAMES: readonly string[] = ['vt', 'eov', 'substrate'];

/**
 * POST /v1/cpet/{cpet_id}/analyze, and the web application's analyze (`surface` web: the same checks,
 * billing and quota, with the models served to the web application). An omitted `analyses` runs every
 * installed analysis the key is licensed for, in the order vt, eov, substrate.
 */
export async function analyze(deps: ServiceDeps, key: ApiKeyRecord, cpetId: string, body: AnalyzeRequest, surface: Surface = 'api'): Promise<Reply<'analyzeCpet'>> {
  const installed = deps.plugins.analyses.map((a) => a.name as string);
  const asked = (body.analyses as string[] | undefined) ?? ANALYSIS_NAMES.filter((n) => installed.includes(n) && (key.products as string[]).includes(n));
  const unknown = asked.filter((n) => !ANALYSIS_NAMES.includes(n) || !installed.includes(n));
  if (unknown.length > 0) {
    throw new ServiceError('UNKNOWN_ANALYSIS', `Unknown analysis ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${installed.join(', ') || 'none installed'}.`, {
      unknown,
      available: installed,
    });
  }
  const unlicensed = asked.filter((n) => !(key.products as string[]).includes(n));
  if (unlicensed.length > 0 || asked.length === 0) {
    throw new ServiceError('PRODUCT_NOT_ENABLED', unlicensed.length ? `This key is not licensed for ${unlicensed.join(', ')}.` : 'This key is licensed for no analysis.', {
      not_enabled: unlicensed,
      products: key.products,
    });
  }
  const record = await loadRecord(deps, key.id, cpetId);
  const reservation = await reserveUnits(deps.store, key, asked.length, deps.config.now());
  let results;
  try {
    let result;
    try {
      result = await deps.runner.run(
        {
          kind: 'analyze',
          recording: payloadOf(record),
          names: asked as AnalysisName[],
          request: {
            model: body.model ?? null,
            model_version: body.model_version ?? null,
            medications: body.medications ?? null,
            protocol: body.protocol ?? null,
            key: { tier: key.tier, allowed_models: key.allowed_models },
            surface,
          },
          packages: deps.config.formatPackages,
        },
        key.id,
      );
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      throw new ServiceError('INFERENCE_FAILED', `The analysis worker failed: ${(err as Error).message}.`, {});
    }
    results = unwrap(result, 'analyze');
  } catch (err) {
    await reservation.release();
    throw err;
  }
  await reservation.settle(results.filter((e) => e.status === 'ok').length);
  deps.telemetry.observeAnalyses(results);
  // Findings come from analysis plugins (third-party ones too) through a worker, so each envelope's
  // match with its analysis's schema is known at run time only: test/openapi/conformance.test.ts
  // checks every installed analysis's envelopes against it.
  return { json: { cpet_id: cpetId, results: results as AnalyzeResponse['results'] } };
}

/** POST /v1/cpet/{cpet_id}/compute: one billing unit when any metric is ok. */
export async function compute(deps: ServiceDeps, key: ApiKeyRecord, cpetId: string, body: ComputeRequest): Promise<Reply<'computeMetrics'>> {
  const available = deps.metrics.list().map((m) => m.name);
  const unknown = body.metrics.filter((n) => !deps.metrics.has(n));
  if (unknown.length > 0) {
    throw validationError(
      unknown.map((n) => ({
        loc: ['body', 'metrics', body.metrics.indexOf(n)],
        msg: `unknown metric "${n}"; available: ${available.join(', ')}`,
        type: 'unknown_metric',
        input: n,
        ctx: { available },
      })),
      { available },
    );
  }
  const averaging = parseAveraging(body.averaging);
  if (!averaging.ok) throw validationError(averaging.issues.map((i) => ({ ...i, loc: ['body', 'averaging', ...i.loc] })));
  const options = { averaging: averaging.spec, body_mass_kg: body.body_mass_kg ?? null, protocol: body.protocol ?? null };
  const record = await loadRecord(deps, key.id, cpetId);
  const reservation = await reserveUnits(deps.store, key, 1, deps.config.now());
  let metrics;
  try {
    metrics = unwrap(await deps.runner.run({ kind: 'compute', recording: payloadOf(record), names: body.metrics, options, packages: deps.config.formatPackages }, key.id), 'compute');
  } catch (err) {
    await reservation.release();
    throw err;
  }
  await reservation.settle(Object.values(metrics).some((m) => m.status === 'ok') ? 1 : 0);
  return { json: { cpet_id: cpetId, averaging: averaging.spec, metrics } };
}
