/**
 * Header and label matching for the parts of an export that are not its data table (metadata
 * labels, ZAN's parameter list); the data tables go through src/formats/table/.
 */

/** Normalises a header for matching: trimmed, lower case, inner whitespace collapsed. */
export function normaliseHeader(header: unknown): string {
  return String(header ?? '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/**
 * Index of the first header equal to one of the aliases (compared normalised), trying aliases in
 * order; -1 when none matches. `skip` lists indices already taken by another quantity.
 */
export function findColumn(headers: readonly unknown[], aliases: readonly string[], skip: ReadonlySet<number> = new Set()): number {
  const normalised = headers.map(normaliseHeader);
  for (const alias of aliases) {
    const a = normaliseHeader(alias);
    const i = normalised.findIndex((h, idx) => h === a && !skip.has(idx));
    if (i >= 0) return i;
  }
  return -1;
}
