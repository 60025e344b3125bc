import type { FormatMeta } from 'cpet-analysis-service/plugin';

export const meta = {
  id: 'canonical-json',
  label: "Canonical CPET JSON (this service's own shape; the one to convert into when nothing else reads a file)",
  vendor: 'none',
  software: 'cpet-analysis-service',
  extensions: ['json'],
  media_types: ['application/json'],
  detection: 'A JSON object whose `format` field is "cpet-canonical/1" and which has `time_s` and `channels`.',
  example_files: 0,
  notes: 'Defined by this service; the synthetic sample (GET /v1/sample) is written in it.',
  variants: [
    { name: 'synthetic-sample', description: 'the synthetic sample as GET /v1/sample serves it: one line, every channel the generator writes, phases and subject', evidence: 'synthetic' },
    { name: 'minimal', description: 'the fewest fields a file may have: format, time_s and the gas channels', evidence: 'synthetic' },
    {
      name: 'gaps-and-markers',
      description: "what a converter writes from a 10-s averaged export: missing samples as null, phase starts, subject, the cart's own thresholds, sampling",
      evidence: 'synthetic',
    },
  ],
} as const satisfies FormatMeta;
