/** The envelopes of an analyze answer by analysis name, each typed with its own findings. */
import type { AnalyzeResponse, EovEnvelope, SubstrateEnvelope, VtEnvelope } from './types.js';

export interface EnvelopesByAnalysis {
  vt?: VtEnvelope;
  eov?: EovEnvelope;
  substrate?: SubstrateEnvelope;
}

/** `{vt, eov, substrate}` from `results` (an analysis that was not asked for is absent). */
export function envelopesOf(response: Pick<AnalyzeResponse, 'results'>): EnvelopesByAnalysis {
  const out: EnvelopesByAnalysis = {};
  for (const envelope of response.results) {
    if (envelope.analysis === 'vt') out.vt = envelope;
    else if (envelope.analysis === 'eov') out.eov = envelope;
    else out.substrate = envelope;
  }
  return out;
}
