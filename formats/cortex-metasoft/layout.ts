/** Where the MetaSoft data table sits: the units row starts with the time format, the header is above it. */
import { normaliseHeader } from 'cpet-analysis-service/plugin';

/** First cells of the units row (spiro finds the XML table by `d[,1] == "h:mm:ss"`). */
const TIME_UNITS = new Set(['h:mm:ss', 'hh:mm:ss', 'hh:mm:ss.z', 'hh:mm:ss,z', 'h:mm:ss.z', 'mm:ss', 'min', 's']);

/** Index of the header row (first cell `t`, the next row's first cell a time unit), or -1. */
export function headerRow(rows: readonly unknown[][], limit = rows.length): number {
  for (let r = 0; r + 1 < Math.min(rows.length, limit); r++) {
    if (normaliseHeader(rows[r]?.[0]) === 't' && TIME_UNITS.has(normaliseHeader(rows[r + 1]?.[0]))) return r;
  }
  return -1;
}
