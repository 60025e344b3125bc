import { CANONICAL_FORMAT_MARKER, type DetectResult, type FileView } from 'cpet-analysis-service/plugin';

/** The marker as it is written in the text: `"format": "cpet-canonical/1"`, any spacing. */
const MARKER_TEXT = new RegExp(`"format"\\s*:\\s*"${CANONICAL_FORMAT_MARKER.replace('/', '\\/')}"`);

/**
 * Ordered rules: the marker decides; the keys and the extension only add evidence. A file that is
 * not whole JSON (cut, or broken by hand) is still recognised by the marker in its head, so the
 * parser can say what is wrong with it (PARSER_ERROR) instead of the file being unknown.
 */
export function detect(file: FileView): DetectResult {
  const head = file.head(3).join('\n').trimStart();
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
  } else if (doc === undefined && MARKER_TEXT.test(head)) {
    score += 0.8;
    reasons.push(`"format": "${CANONICAL_FORMAT_MARKER}" in text that is not whole JSON`);
  }
  if (file.extension === 'json') {
    score += 0.05;
    reasons.push('extension .json');
  }
  return { score, reasons };
}
