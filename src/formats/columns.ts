/**
 * Finds columns by their vendor names, across languages and spellings, as spiro's `get_data` does:
 * each canonical quantity has an ordered list of aliases and the first header that matches wins.
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

/** Every index whose header equals the alias (for vendors that repeat a name, e.g. two `VO2` columns). */
export function findAllColumns(headers: readonly unknown[], alias: string): number[] {
  const a = normaliseHeader(alias);
  const out: number[] = [];
  headers.forEach((h, i) => {
    if (normaliseHeader(h) === a) out.push(i);
  });
  return out;
}
