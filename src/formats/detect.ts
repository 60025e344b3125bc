/**
 * Picks the format of a file: every vendor plugin scores it; the best must reach MIN_SCORE and beat
 * the runner-up by MARGIN, else the file is refused as ambiguous, or, when nothing reaches
 * MIN_SCORE, left to a last-resort plugin (the generic table) or refused as unknown. A detector
 * that throws scores zero, so one faulty plugin never blocks the others.
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
  // Ties by id in code-unit order: for kebab-case ids (checkFormatPlugin) the order localeCompare
  // gives ('-' before digits before letters), without a collator call per comparison.
  return candidates.sort((a, b) => b.score - a.score || (a.format < b.format ? -1 : a.format > b.format ? 1 : 0));
}

/**
 * A file no detector recognised may still be refused for what it is rather than with the misleading
 * "not a supported export": a spreadsheet that cannot be opened (a zip bomb is FILE_TOO_LARGE, a
 * damaged archive PARSER_ERROR), or XML that declares entities (never expanded, always refused).
 */
function surfaceUnreadableContent(file: FileView): void {
  if (file.container === 'zip' || file.container === 'ole') {
    file.readEverySheet();
    return;
  }
  const text = file.text();
  if (text?.trimStart().startsWith('<')) assertNoEntityDeclarations(text);
}

/** How the chosen format was decided: recognised from content, or the last-resort table reader. */
export type FormatConfidence = 'detected' | 'last_resort';

/**
 * The plugin that reads this file. Vendor formats compete first: the best must reach MIN_SCORE and
 * lead the runner-up by MARGIN, or the file is refused as ambiguous. Only when none reaches
 * MIN_SCORE is a last-resort format consulted, its score capped at MIN_SCORE. Throws
 * UNSUPPORTED_FORMAT (with the recovery shape and every candidate's reasons) when nothing reads it.
 */
export function chooseFormat(file: FileView, plugins: readonly FormatPlugin[]): { plugin: FormatPlugin; candidates: Candidate[]; confidence: FormatConfidence } {
  const candidates = scoreFormats(
    file,
    plugins.filter((p) => !p.meta.last_resort),
  );
  const [best, second] = candidates;
  const shown = candidates.filter((c) => c.score > 0).slice(0, 3);
  if (best && best.score >= MIN_SCORE) {
    if (second && best.score - second.score < MARGIN) {
      throw new ServiceError(
        'UNSUPPORTED_FORMAT',
        `${file.filename} looks like ${best.format} and ${second.format} alike; refusing to guess. Convert it to the canonical JSON shape in context.recovery.`,
        {
          candidates: shown,
          recovery: CANONICAL_RECOVERY,
        },
      );
    }
    return { plugin: pluginOf(plugins, best), candidates, confidence: 'detected' };
  }
  const fallbacks = scoreFormats(
    file,
    plugins.filter((p) => p.meta.last_resort),
  ).map((c) => ({ ...c, score: Math.min(c.score, MIN_SCORE) }));
  const fallback = fallbacks.find((c) => c.score >= MIN_SCORE);
  if (fallback) return { plugin: pluginOf(plugins, fallback), candidates: [fallback, ...candidates], confidence: 'last_resort' };
  surfaceUnreadableContent(file);
  const why = fallbacks.map((c) => c.reasons[c.reasons.length - 1]).filter(Boolean);
  throw new ServiceError(
    'UNSUPPORTED_FORMAT',
    `${file.filename} is not recognised as any supported export${why.length ? `, and ${why.join('; ')}` : ''}. Convert it to the canonical JSON shape in context.recovery.`,
    { candidates: [...shown, ...fallbacks], recovery: CANONICAL_RECOVERY },
  );
}

function pluginOf(plugins: readonly FormatPlugin[], candidate: Candidate): FormatPlugin {
  return plugins.find((p) => p.meta.id === candidate.format) as FormatPlugin;
}
