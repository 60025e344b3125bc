/**
 * The upload summary (spec 2.1) of a stored record: format, sampling, every canonical channel with
 * its presence, coverage and reason, load, phases, subject, embedded thresholds, parser flags, clock
 * and retention.
 */
import type { components } from '../generated/api.js';
import { CHANNEL_NAMES, CHANNEL_UNITS, coverage, durationS, type ChannelName, type Recording } from '../recording/recording.js';
import { SCHEMA_VERSION } from '../analyses/run.js';
import type { StoredRecord } from './stored-record.js';

export type UploadSummary = components['schemas']['UploadSummary'];

/** The parts of the summary that come from the recording alone: computed once, where it is parsed, and stored with it. */
export type RecordingSummary = Pick<UploadSummary, 'sampling' | 'channels' | 'load' | 'phases' | 'subject' | 'embedded_thresholds' | 'parser_flags' | 'clock'> & { format: string };

/** Builds the summary returned by every upload route and by GET /v1/cpet/{cpet_id}. */
export function uploadSummary(record: StoredRecord): UploadSummary {
  const { format, ...fromRecording } = storedSummary(record);
  return {
    cpet_id: record.cpet_id,
    schema_version: SCHEMA_VERSION,
    source: {
      format: format as UploadSummary['source']['format'],
      format_confidence: record.detection.confidence ?? 'detected',
      bytes: record.bytes,
      filename: record.filename,
      detection_score: round(record.detection.score, 3),
      runner_up: record.detection.runner_up ? { format: record.detection.runner_up.format, score: round(record.detection.runner_up.score, 3) } : null,
    },
    ...fromRecording,
    retention: {
      uploaded_at: new Date(record.uploaded_at_ms).toISOString(),
      expires_at: new Date(record.expires_at_ms).toISOString(),
      retain_hours: record.retain_hours,
    },
  };
}

/** The recording's part of the summary (stored with it; a record kept before that is summarised now). */
function storedSummary(record: StoredRecord): RecordingSummary {
  return 'summary' in record ? record.summary : recordingSummary(record.recording);
}

/** The parts of the summary the recording decides. */
export function recordingSummary(rec: Recording): RecordingSummary {
  const duration = durationS(rec);
  return {
    format: rec.format,
    sampling: {
      method: rec.sampling.method,
      raw_interval_s: rec.sampling.raw_interval_s,
      interval_known: rec.sampling.interval_known,
      averaging_s: rec.sampling.averaging_s ?? null,
      resampled_hz: 1,
      n_raw: rec.t_s.length,
      n_resampled: Math.floor(duration) + 1,
      duration_s: round(duration, 3),
    },
    channels: channelSummaries(rec),
    load: loadInfo(rec),
    phases: rec.phases.map((p) => ({ phase: p.phase, t_start_s: p.t_start_s, t_end_s: p.t_end_s, source: p.source })),
    subject: {
      body_mass_kg: rec.subject.body_mass_kg ?? null,
      age_years: rec.subject.age_years ?? null,
      sex: rec.subject.sex ?? null,
      height_cm: rec.subject.height_cm ?? null,
    },
    embedded_thresholds: rec.embedded_thresholds.map((t) => ({ name: t.name, label: t.label, time_s: t.time_s ?? null, vo2_ml_min: t.vo2_ml_min ?? null })),
    parser_flags: rec.flags.map((f) => ({ code: f.code, detail: f.detail })),
    clock: { ...rec.clock },
  };
}

function channelSummaries(rec: Recording): UploadSummary['channels'] {
  const out = {} as Record<ChannelName, UploadSummary['channels']['VO2']>;
  for (const name of CHANNEL_NAMES) {
    const data = rec.channels[name];
    out[name] = data
      ? { present: true, unit: CHANNEL_UNITS[name], unit_in: data.unit_in, coverage: round(coverage(rec, name), 4) }
      : { present: false, unit: CHANNEL_UNITS[name], coverage: 0, reason: rec.absent[name] ?? 'not in the file' };
  }
  return out;
}

function loadInfo(rec: Recording): UploadSummary['load'] {
  if (rec.channels.Load) return { available: true, channel: 'Load' };
  if (rec.channels.Speed) return { available: true, channel: 'Speed' };
  return {
    available: false,
    channel: null,
    reason: `no work-rate or speed channel (${rec.absent.Load ?? 'not in the file'}); watts are never back-calculated from VO2`,
  };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
