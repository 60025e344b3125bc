/**
 * The canonical JSON shape: what `UNSUPPORTED_FORMAT` tells a caller to convert into, what
 * GET /v1/formats calls `if_unsupported`, and what the synthetic sample is written in.
 */
import { CHANNEL_NAMES, CHANNEL_UNITS } from '../recording/recording.js';

/** The marker value of the `format` field that identifies a canonical JSON file. */
export const CANONICAL_FORMAT_MARKER = 'cpet-canonical/1';

const channelProperties = Object.fromEntries(
  CHANNEL_NAMES.map((name) => [name, { type: 'array', items: { type: ['number', 'null'] }, description: `${name} in ${CHANNEL_UNITS[name]}, one value per time stamp (null where missing)` }]),
);

/** JSON Schema of the canonical shape. */
export const CANONICAL_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['format', 'time_s', 'channels'],
  additionalProperties: false,
  properties: {
    format: { const: CANONICAL_FORMAT_MARKER },
    time_s: { type: 'array', items: { type: 'number' }, minItems: 2, description: 'seconds from the start of the recording, increasing; at most 20,000 samples' },
    channels: { type: 'object', additionalProperties: false, properties: channelProperties },
    sampling: {
      type: 'object',
      additionalProperties: false,
      properties: {
        method: { enum: ['breath_by_breath', 'averaged'] },
        averaging_s: { type: 'number', exclusiveMinimum: 0 },
      },
    },
    phases: {
      type: 'array',
      items: {
        type: 'object',
        required: ['phase', 't_start_s'],
        additionalProperties: false,
        properties: { phase: { enum: ['rest', 'warmup', 'exercise', 'recovery'] }, t_start_s: { type: 'number' } },
      },
    },
    subject: {
      type: 'object',
      additionalProperties: false,
      properties: {
        body_mass_kg: { type: 'number' },
        age_years: { type: 'number' },
        sex: { enum: ['male', 'female'] },
        height_cm: { type: 'number' },
      },
    },
    thresholds: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          name: { enum: ['VT1', 'VT2'] },
          label: { type: 'string' },
          time_s: { type: 'number' },
          vo2_ml_min: { type: 'number' },
        },
      },
    },
  },
} as const;

/** What a caller receives in `context.recovery` and in GET /v1/formats `if_unsupported`. */
export const CANONICAL_RECOVERY = {
  format: 'canonical-json',
  filename_extension: '.json',
  description:
    'Convert the recording to this JSON object and upload it with POST /v1/cpet/content (filename ending in .json, the JSON text as content). ' +
    'Channel units are fixed: ' +
    CHANNEL_NAMES.map((n) => `${n} ${CHANNEL_UNITS[n]}`).join(', ') +
    '. Give only the channels you have; a missing sample is null.',
  schema: CANONICAL_SCHEMA,
  example: {
    format: CANONICAL_FORMAT_MARKER,
    time_s: [0, 3.1, 6.0],
    channels: { VO2: [350, 362, null], VCO2: [290, 301, 305], VE: [11.2, 11.9, 12.1], PetCO2: [36.1, 36.4, 36.0] },
    sampling: { method: 'breath_by_breath' },
    phases: [{ phase: 'rest', t_start_s: 0 }],
    subject: { body_mass_kg: 72 },
  },
} as const;
