import type { DetectResult } from '../../src/formats/format-plugin.js';
import type { FileView } from '../../src/formats/file-view.js';
import { CANONICAL_FORMAT_MARKER } from '../../src/formats/recovery.js';

/** Ordered rules: the marker decides; the keys and the extension only add evidence. */
export function detect(file: FileView): DetectResult {
  const head = (file.head(3).join('\n') ?? '').trimStart();
  if (!head.startsWith('{')) return { score: 0, reasons: ['not a JSON object'] };
  const reasons: string[] = [];
  let score = 0;
  // The marker is often far from the start in a long file; only parse when the head says JSON.
  const doc = file.json();
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const obj = doc as Record<string, unknown>;
    if (obj.format === CANONICAL_FORMAT_MARKER) {
      score += 0.8;
      reasons.push(`"format": "${CANONICAL_FORMAT_MARKER}"`);
    }
    if (Array.isArray(obj.time_s) && obj.channels && typeof obj.channels === 'object') {
      score += 0.15;
      reasons.push('has time_s and channels');
    }
  }
  if (file.extension === 'json') {
    score += 0.05;
    reasons.push('extension .json');
  }
  return { score, reasons };
}
