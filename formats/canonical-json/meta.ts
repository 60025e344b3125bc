import type { FormatMeta } from '../../src/formats/format-plugin.js';

export const meta = {
  id: 'canonical-json',
  label: 'Canonical CPET JSON (this service\'s own shape; the one to convert into when nothing else reads a file)',
  vendor: 'none',
  software: 'cpet-analysis-service',
  extensions: ['json'],
  media_types: ['application/json'],
  detection: 'A JSON object whose `format` field is "cpet-canonical/1" and which has `time_s` and `channels`.',
  example_files: 0,
  notes: 'Defined by this service; the synthetic sample (GET /v1/sample) is written in it.',
  variants: [
    { name: 'canonical', description: 'the canonical JSON object (the synthetic sample of GET /v1/sample is written in it)', evidence: 'synthetic' },
  ],
} as const satisfies FormatMeta;
