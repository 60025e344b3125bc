/**
 * Unit and number conversions shared by every format plugin. Each is a small named function with a
 * test per branch (a vendor reader that converts the wrong column is the bug this guards against).
 */

/** 1 kPa = 7.50062 mmHg. */
export const MMHG_PER_KPA = 7.50062;
const SECONDS_PER_DAY = 86400;

/** kPa to mmHg. */
export function kpaToMmhg(kpa: number): number {
  return kpa * MMHG_PER_KPA;
}

/** L/min to mL/min. */
export function lToMl(l: number): number {
  return l * 1000;
}

/** Tokens that mean "no value" in vendor exports. */
const EMPTY_TOKENS = new Set(['', '-', '--', '---', 'na', 'n/a', 'nan', '*', '.']);

/**
 * Parses a number as vendors write it: decimal point or decimal comma, surrounding spaces, a
 * trailing unit ("74,8kg" gives 74.8). Returns null for blank or placeholder cells.
 */
export function parseNumber(cell: unknown): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell !== 'string') return null;
  const s = cell.trim();
  if (EMPTY_TOKENS.has(s.toLowerCase())) return null;
  const m = /^[-+]?(\d+[.,]?\d*|[.,]\d+)([eE][-+]?\d+)?/.exec(s);
  if (!m) return null;
  let token = m[0];
  if (token.includes(',') && !token.includes('.')) token = token.replace(',', '.');
  const v = Number(token);
  return Number.isFinite(v) ? v : null;
}

/**
 * Parses a clock-like time to seconds: `ss`, `m:ss`, `mm:ss`, `h:mm:ss`, `hh:mm:ss.z` or
 * `hh:mm:ss,z` (decimal comma for tenths). Returns null when the text is not a time.
 */
export function parseClock(text: string): number | null {
  const s = text.trim();
  const m = /^(-)?(\d+)(?::(\d{1,2}))?(?::(\d{1,2}))?(?:[.,](\d+))?$/.exec(s);
  if (!m || s === '') return null;
  const sign = m[1] ? -1 : 1;
  const parts = [m[2], m[3], m[4]].filter((p): p is string => p !== undefined).map(Number);
  const frac = m[5] ? Number(`0.${m[5]}`) : 0;
  let seconds = 0;
  for (const p of parts) seconds = seconds * 60 + p;
  // Plain seconds with a fraction ("12.5", "-12,5"): the sign is applied once, from m[1].
  if (parts.length === 1 && m[5] !== undefined && !s.includes(':')) return sign * Number(`${m[2]}.${m[5]}`);
  return sign * (seconds + frac);
}

/** Excel stores times as fractions of a day; 0.0003472 is 30 s. */
export function excelDayFractionToSeconds(days: number): number {
  return Math.round(days * SECONDS_PER_DAY * 1000) / 1000;
}

/** Decimal minutes (Parvo `TIME` in min, 0.301131) to seconds. */
export function decimalMinutesToSeconds(minutes: number): number {
  return minutes * 60;
}

/** Normalises a unit cell for comparison: lower case, no spaces, no brackets, `l` for litre. */
export function normaliseUnit(unit: string | null | undefined): string {
  return (unit ?? '')
    .toLowerCase()
    .replace(/[\s()[\]]/g, '')
    .replace(/btps|stpd/g, '');
}

/**
 * Reads a gas flow unit. Returns the factor to mL/min, or null when the unit says nothing.
 * 'l/min' and 'L/min' give 1000, 'ml/min' gives 1.
 */
export function gasFlowFactorToMl(unit: string | null | undefined): number | null {
  const u = normaliseUnit(unit);
  if (u.startsWith('ml/min') && !u.includes('kg')) return 1;
  if (u.startsWith('l/min') || u === 'l/m' || u === 'lpm') return 1000;
  return null;
}

/** Factor from an end-tidal pressure unit to mmHg, or null when the unit says nothing. */
export function pressureFactorToMmhg(unit: string | null | undefined): number | null {
  const u = normaliseUnit(unit);
  if (u === 'mmhg' || u === 'torr') return 1;
  if (u === 'kpa') return MMHG_PER_KPA;
  return null;
}

/**
 * When a file gives no usable unit, decides a gas flow's unit from its magnitude: a peak below 10
 * can only be L/min (no human reaches 10 L/min of VO2), above 100 only mL/min.
 */
export function inferGasFlowFactor(values: (number | null)[]): { factor: number; inferred: string } | null {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (finite.length === 0) return null;
  const peak = Math.max(...finite.map(Math.abs));
  if (peak < 10) return { factor: 1000, inferred: 'L/min' };
  if (peak > 100) return { factor: 1, inferred: 'mL/min' };
  return null;
}

/** When a file gives no unit for an end-tidal pressure: 2-20 reads as kPa, 20-200 as mmHg. */
export function inferPressureFactor(values: (number | null)[]): { factor: number; inferred: string } | null {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v) && v > 0);
  if (finite.length === 0) return null;
  const mid = finite.sort((a, b) => a - b)[finite.length >> 1];
  if (mid >= 2 && mid < 20) return { factor: MMHG_PER_KPA, inferred: 'kPa' };
  if (mid >= 20 && mid < 200) return { factor: 1, inferred: 'mmHg' };
  return null;
}

/** Multiplies a column by a factor, keeping nulls. */
export function scale(values: (number | null)[], factor: number): (number | null)[] {
  return values.map((v) => (v === null ? null : v * factor));
}
