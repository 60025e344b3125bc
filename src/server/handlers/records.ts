/**
 * Reading and deleting a stored recording: its summary and downsampled series for plotting.
 */
import type { components } from '../../generated/api.js';
import { availableSeries, seriesValues } from '../../recording/derived.js';
import { describeImplausibleHeartRate, heartRatePlausibility } from '../../signal/heart-rate-plausibility.js';
import { resampleUniform } from '../../signal/resample.js';
import { lttbIndices } from '../../signal/lttb.js';
import { ServiceError } from '../../errors.js';
import type { ApiKeyRecord } from '../../store/keys.js';
import type { ServiceDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { validationError } from '../errors.js';
import { uploadSummary } from '../summary.js';
import { payloadOf, recordingOf } from '../stored-record.js';
import { loadRecord } from './ingest.js';

type SeriesResponse = components['schemas']['SeriesResponse'];

/** Gaps longer than this stay gaps on the 1-Hz grid instead of being bridged by a straight line. */
const RESAMPLE_MAX_GAP_S = 20;

/** GET /v1/cpet/{cpet_id}. */
export async function getCpet(deps: ServiceDeps, key: ApiKeyRecord, cpetId: string): Promise<Reply<'getCpet'>> {
  return { json: uploadSummary(await loadRecord(deps, key.id, cpetId)) };
}

/** DELETE /v1/cpet/{cpet_id}: removed now; another key's id is not found. */
export async function deleteCpet(deps: ServiceDeps, key: ApiKeyRecord, cpetId: string): Promise<Reply<'deleteCpet'>> {
  const deleted = await deps.store.deleteRecord(key.id, cpetId);
  if (!deleted) throw new ServiceError('CPET_NOT_FOUND', `No recording ${cpetId} under this key.`, { cpet_id: cpetId });
  return { json: { cpet_id: cpetId, deleted: true } };
}

/** GET /v1/cpet/{cpet_id}/series: for plotting only; peaks survive the downsampling (LTTB). */
export async function getSeries(deps: ServiceDeps, key: ApiKeyRecord, cpetId: string, query: { channels?: string; max_points?: number; grid?: 'raw' | 'resampled' }): Promise<Reply<'getCpetSeries'>> {
  const record = await loadRecord(deps, key.id, cpetId);
  // Plotting reads the samples on this thread: decoding a 20,000-sample block takes a few milliseconds.
  const rec = recordingOf(payloadOf(record));
  const names = (query.channels ?? 'VE')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const available = availableSeries(rec);
  const unknown = names.filter((n) => !available.includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw validationError(
      (unknown.length ? unknown : ['']).map((n) => ({
        loc: ['query', 'channels'],
        msg: n ? `channel "${n}" is not in this recording; available: ${available.join(', ')}` : 'name at least one channel',
        type: 'unknown_channel',
        input: query.channels,
        ctx: { available },
      })),
      { available },
    );
  }
  const maxPoints = query.max_points ?? 500;
  const grid = query.grid ?? 'raw';
  const series: SeriesResponse['series'] = {};
  let downsampled = false;
  // Series read from HR carry its per-sample plausibility, so a plot can mark what no heart can do.
  const hrValues = rec.channels.HR?.values;
  const hrCheck = hrValues ? heartRatePlausibility(rec.t_s, hrValues) : null;
  for (const name of names) {
    const { unit, values } = seriesValues(rec, name) as { unit: string; values: (number | null)[] };
    const flagged = hrCheck && (name === 'HR' || name === 'O2pulse') ? hrCheck.flags.map((f) => f !== null) : null;
    let t: number[] = [];
    let v: number[] = [];
    let bad: boolean[] = [];
    if (grid === 'raw') {
      values.forEach((x, i) => {
        if (x !== null && Number.isFinite(x)) {
          t.push(rec.t_s[i]);
          v.push(x);
          bad.push(flagged?.[i] ?? false);
        }
      });
    } else {
      const uniform = resampleUniform(rec.t_s, values, 1, { maxGapS: RESAMPLE_MAX_GAP_S });
      // A grid point interpolated from an implausible sample is implausible too.
      const badGrid = flagged
        ? resampleUniform(
            rec.t_s,
            flagged.map((f, i) => (values[i] === null ? null : f ? 1 : 0)),
            1,
            { maxGapS: RESAMPLE_MAX_GAP_S },
          ).values
        : null;
      uniform.values.forEach((x, k) => {
        if (Number.isFinite(x)) {
          t.push(uniform.t0_s + k);
          v.push(x);
          bad.push(badGrid ? badGrid[k] > 0 : false);
        }
      });
    }
    const source = t.length;
    if (t.length > maxPoints) {
      const keep = lttbIndices(t, v, maxPoints);
      t = keep.map((i) => t[i]);
      v = keep.map((i) => v[i]);
      bad = keep.map((i) => bad[i]);
      downsampled = true;
    }
    series[name] = { unit, n_source: source, t_s: t.map((x) => round(x, 3)), values: v.map((x) => round(x, 4)) };
    if (flagged && hrCheck) {
      series[name].implausible = bad;
      series[name].implausible_reason = describeImplausibleHeartRate(hrCheck);
    }
  }
  const response: SeriesResponse = { cpet_id: cpetId, grid, max_points: maxPoints, downsampling: downsampled ? 'lttb' : 'none', series };
  return { json: response };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
