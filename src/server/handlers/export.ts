/**
 * GET /v1/cpet/{cpet_id}/export: the stored recording as a CSV or JSON table (src/export). Thin: the
 * query becomes a resampling, the table comes from the domain code, the body streams in chunks, and
 * one billing unit is counted only once the whole body has been written.
 */
import { exportCsvChunks, exportJsonChunks } from '../../export/csv.js';
import { exportTable, type Resampling } from '../../export/table.js';
import { ANALYSIS_VERSION } from '../../analyses/run.js';
import { parseAveraging } from '../../signal/averaging/index.js';
import type { ApiKeyRecord } from '../../store/keys.js';
import { reserveUnits } from '../access.js';
import type { ServiceDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { validationError } from '../errors.js';
import { payloadOf, recordingOf } from '../stored-record.js';
import { loadRecord } from './ingest.js';

export interface ExportQuery {
  format?: 'csv' | 'json';
  resample?: 'none' | '1s';
  averaging?: string;
  window_s?: number;
  breaths?: number;
  alignment?: string;
  statistic?: string;
  cutoff_hz?: number;
  order?: number;
}

const AVERAGING_FIELDS = ['window_s', 'breaths', 'alignment', 'statistic', 'cutoff_hz', 'order'] as const;

/** The resampling a query asks for, or a 422 naming the offending query fields. */
export function resamplingOf(query: ExportQuery): Resampling {
  const given = AVERAGING_FIELDS.filter((f) => query[f] !== undefined);
  if (query.averaging === undefined) {
    if (given.length) throw validationError(given.map((f) => ({ loc: ['query', f], msg: 'applies only with an averaging kind (query.averaging)', type: 'extra_forbidden', input: query[f] })));
    return query.resample === '1s' ? { kind: 'uniform', dt_s: 1 } : { kind: 'none' };
  }
  if (query.resample === '1s') throw validationError([{ loc: ['query', 'resample'], msg: 'give either resample=1s or an averaging, not both', type: 'conflict', input: query.resample }]);
  const parsed = parseAveraging({ kind: query.averaging, ...Object.fromEntries(given.map((f) => [f, query[f]])) });
  if (!parsed.ok) throw validationError(parsed.issues.map((i) => ({ ...i, loc: ['query', ...(i.loc.length ? i.loc : ['averaging'])] })));
  return { kind: 'averaging', spec: parsed.spec };
}

export async function exportCpet(deps: ServiceDeps, key: ApiKeyRecord, cpetId: string, query: ExportQuery): Promise<Reply<'exportCpet'>> {
  const resampling = resamplingOf(query);
  const record = await loadRecord(deps, key.id, cpetId);
  const reservation = await reserveUnits(deps.store, key, 1, deps.config.now());
  let chunks: Iterable<string>;
  try {
    const table = exportTable(recordingOf(payloadOf(record)), resampling, {
      cpet_id: cpetId,
      source_file: record.filename,
      analysis_version: ANALYSIS_VERSION,
      exported_at: new Date(deps.config.now()).toISOString(),
    });
    chunks = query.format === 'json' ? exportJsonChunks(table) : exportCsvChunks(table);
  } catch (err) {
    await reservation.release();
    throw err;
  }
  const stream = { chunks, done: (delivered: boolean) => (delivered ? reservation.settle(1) : reservation.release()) };
  if (query.format === 'json') return { contentType: 'application/json; charset=utf-8', stream };
  return { contentType: 'text/csv; charset=utf-8', headers: { 'Content-Disposition': `attachment; filename="${cpetId}.csv"` }, stream };
}
