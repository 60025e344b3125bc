import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  buildRecording,
  CANONICAL_SCHEMA,
  CHANNEL_UNITS,
  parserError,
  type ChannelData,
  type ChannelName,
  type EmbeddedThreshold,
  type FileView,
  type Recording,
  type Subject,
} from 'cpet-analysis-service/plugin';

interface CanonicalDoc {
  time_s: number[];
  channels: Partial<Record<ChannelName, (number | null)[]>>;
  sampling?: { method?: 'breath_by_breath' | 'averaged'; averaging_s?: number };
  phases?: { phase: 'rest' | 'warmup' | 'exercise' | 'recovery'; t_start_s: number }[];
  subject?: Subject;
  thresholds?: EmbeddedThreshold[];
}

const validate = new Ajv2020({ allErrors: false, strict: false }).compile<CanonicalDoc>(CANONICAL_SCHEMA);

/** Reads the canonical shape; every schema violation names the JSON path that broke it. */
export function parse(file: FileView): Recording {
  const doc = file.json();
  if (doc === undefined) throw parserError('the file is not valid JSON');
  if (!validate(doc)) {
    const e = validate.errors?.[0];
    throw parserError(`canonical JSON ${e?.instancePath || '/'} ${e?.message ?? 'is invalid'}`, { column: e?.instancePath || '/' });
  }
  const n = doc.time_s.length;
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  for (const [name, values] of Object.entries(doc.channels) as [ChannelName, (number | null)[]][]) {
    if (values.length !== n) throw parserError(`channels.${name} has ${values.length} values for ${n} time stamps`, { column: `channels.${name}` });
    channels[name] = { values, unit_in: CHANNEL_UNITS[name] };
  }
  return buildRecording({
    format: 'canonical-json',
    time_s: doc.time_s,
    channels,
    phase_starts: doc.phases?.map((p) => ({ phase: p.phase, t_s: p.t_start_s })),
    sampling_hint: doc.sampling ? { method: doc.sampling.method, averaging_s: doc.sampling.averaging_s ?? null } : undefined,
    subject: doc.subject,
    embedded_thresholds: doc.thresholds?.map((t) => ({ ...t, label: t.label ?? t.name })),
  });
}
