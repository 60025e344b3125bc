/**
 * Picks the format of a file: every plugin scores it; the best must reach MIN_SCORE and beat the
 * runner-up by MARGIN, else the file is refused as ambiguous or unknown. A detector that throws
 * scores zero, so one faulty plugin never blocks the others.
 */
import { ServiceError } from '../errors.js';
import type { FileView } from './file-view.js';
import type { FormatPlugin } from './format-plugin.js';
import { CANONICAL_RECOVERY } from './recovery.js';
import { assertNoEntityDeclarations } from './safe-xml.js';

/** Lowest score a format needs to be chosen. */
export const MIN_SCORE = 0.5;
/** How far the winner must lead the runner-up. */
export const MARGIN = 0.2;

export interface Candidate {
  format: string;
  score: number;
  reasons: string[];
}

/** Scores of every plugin, best first. */
export function scoreFormats(file: FileView, plugins: readonly FormatPlugin[]): Candidate[] {
  const candidates = plugins.map((plugin) => {
    try {
      const { score, reasons } = plugin.detect(file);
      const clamped = Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0;
      return { format: plugin.meta.id, score: clamped, reasons };
    } catch (err) {
      return { format: plugin.meta.id, score: 0, reasons: [`detector failed: ${(err as Error).message}`] };
    }
  });
  return candidates.sort((a, b) => b.score - a.score || a.format.localeCompare(b.format));
}

/**
 * A file no detector recognised may still be refused for what it is rather than with the misleading
 * "not a supported export": a spreadsheet that cannot be opened (a zip bomb is FILE_TOO_LARGE, a
 * damaged archive PARSER_ERROR), or XML that declares entities (never expanded, always refused).
 */
function surfaceUnreadableContent(file: FileView): void {
  if (file.container === 'zip' || file.container === 'ole') {
    file.sheets();
    return;
  }
  const text = file.text();
  if (text !== null && text.trimStart().startsWith('<')) assertNoEntityDeclarations(text);
}

/** The plugin that reads this file; throws UNSUPPORTED_FORMAT (with the recovery shape) when none clearly does. */
export function chooseFormat(file: FileView, plugins: readonly FormatPlugin[]): { plugin: FormatPlugin; candidates: Candidate[] } {
  const candidates = scoreFormats(file, plugins);
  const [best, second] = candidates;
  const shown = candidates.filter((c) => c.score > 0).slice(0, 3);
  if (!best || best.score < MIN_SCORE) {
    surfaceUnreadableContent(file);
    throw new ServiceError('UNSUPPORTED_FORMAT', `${file.filename} is not recognised as any supported export. Convert it to the canonical JSON shape in context.recovery.`, {
      candidates: shown,
      recovery: CANONICAL_RECOVERY,
    });
  }
  if (second && best.score - second.score < MARGIN) {
    throw new ServiceError('UNSUPPORTED_FORMAT', `${file.filename} looks like ${best.format} and ${second.format} alike; refusing to guess. Convert it to the canonical JSON shape in context.recovery.`, {
      candidates: shown,
      recovery: CANONICAL_RECOVERY,
    });
  }
  const plugin = plugins.find((p) => p.meta.id === best.format) as FormatPlugin;
  return { plugin, candidates };
}
