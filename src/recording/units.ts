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

/** Whether a cell is blank or a placeholder for "no value" (as opposed to text that is not a number). */
export function isPlaceholder(cell: unknown): boolean {
  if (cell === null || cell === undefined) return true;
  return typeof cell === 'string' && EMPTY_TOKENS.has(cell.trim().toLowerCase());
}

/** Powers of ten a double holds exactly (10^0 ... 10^22). */
const EXACT_POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Decimal digits of an integer a double always holds exactly (below 2^53). */
const EXACT_DIGITS = 15;

/** What `scanNumber` noticed besides the value; one object per column, reused for every cell. */
export interface ScanReport {
  /** Set once a number was read with a decimal comma. */
  comma: boolean;
}
const IGNORED_REPORT: ScanReport = { comma: false };

/**
 * Parses a number as vendors write it: decimal point or decimal comma, surrounding spaces, a
 * trailing unit ("74,8kg" gives 74.8). Returns null for blank or placeholder cells.
 */
export function parseNumber(cell: unknown): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell !== 'string') return null;
  return scanNumber(cell, IGNORED_REPORT);
}

/**
 * Reads the number at the start of `s` (`[-+]?(\d+[.,]?\d*|[.,]\d+)([eE][-+]?\d+)?` after spaces) in
 * one pass over its characters, with no regex and no substring in the common case: a mantissa of at
 * most 15 digits divided by an exact power of ten is correctly rounded, so the value is bit for bit
 * what `Number()` gives for the same token. Longer mantissas and exponents go through `Number()`.
 */
export function scanNumber(s: string, report: ScanReport): number | null {
  const n = s.length;
  let i = 0;
  while (i < n && isSpace(s.charCodeAt(i))) i++;
  const start = i;
  let c = codeAt(s, i);
  const negative = c === 45;
  if (c === 45 || c === 43) c = codeAt(s, ++i);
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  let separator = -1;
  while (c >= 48 && c <= 57) {
    mantissa = mantissa * 10 + (c - 48);
    digits++;
    c = codeAt(s, ++i);
  }
  if (c === 46 || c === 44) {
    const next = codeAt(s, i + 1);
    if (digits > 0 || (next >= 48 && next <= 57)) {
      separator = c;
      c = codeAt(s, ++i);
      while (c >= 48 && c <= 57) {
        mantissa = mantissa * 10 + (c - 48);
        digits++;
        fraction++;
        c = codeAt(s, ++i);
      }
    }
  }
  if (digits === 0) return null;
  let end = i;
  if (c === 101 || c === 69) {
    let j = i + 1;
    const sign = codeAt(s, j);
    if (sign === 45 || sign === 43) j++;
    const firstDigit = j;
    while (j < n && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
    if (j > firstDigit) end = j;
  }
  if (separator === 44) report.comma = true;
  let value: number;
  if (end === i && digits <= EXACT_DIGITS) {
    value = fraction > 0 ? mantissa / EXACT_POW10[fraction] : mantissa;
    if (negative) value = -value;
  } else {
    const token = s.slice(start, end);
    value = Number(separator === 44 ? token.replace(',', '.') : token);
  }
  return Number.isFinite(value) ? value : null;
}

/**
 * s.charCodeAt(i), or -1 past the end instead of NaN (no comparison above tells the two apart): a
 * read past the end makes optimized code deoptimize, and every number at the end of its cell reads there.
 */
function codeAt(s: string, i: number): number {
  return i < s.length ? s.charCodeAt(i) : -1;
}

/** The characters `String.prototype.trim` removes. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 0xfeff || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/**
 * Parses a clock-like time to seconds: `ss`, `m:ss`, `mm:ss`, `h:mm:ss`, `hh:mm:ss.z` or
 * `hh:mm:ss,z` (decimal comma for tenths), optionally negative. Returns null when the text is not
 * a time. One pass over the characters, as for numbers.
 */
export function parseClock(text: string): number | null {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  let i = 0;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  const negative = codeAt(text, i) === 45;
  if (negative) i++;
  const first = i;
  let firstDigits = 0;
  let whole = 0;
  let parts = 0;
  for (;;) {
    let value = 0;
    let digits = 0;
    for (let c = codeAt(text, i); i < end && c >= 48 && c <= 57; c = codeAt(text, ++i)) {
      value = value * 10 + (c - 48);
      digits++;
    }
    // The first part takes any number of digits; minutes and seconds after a colon one or two.
    if (digits === 0 || (parts > 0 && digits > 2)) return null;
    if (parts === 0) firstDigits = digits;
    whole = whole * 60 + value;
    parts++;
    if (parts === 3 || i >= end || text.charCodeAt(i) !== 58) break;
    i++;
  }
  let frac = 0;
  let fracDigits = 0;
  if (i < end) {
    const c = text.charCodeAt(i++);
    if (c !== 46 && c !== 44) return null;
    for (; i < end; i++) {
      const d = text.charCodeAt(i);
      if (d < 48 || d > 57) return null;
      frac = frac * 10 + (d - 48);
      fracDigits++;
    }
    if (fracDigits === 0) return null;
  }
  let seconds = whole;
  if (firstDigits + fracDigits > EXACT_DIGITS) {
    // Too many digits to stay exact by arithmetic: the decimal text itself, as Number() reads it.
    const fracText = fracDigits > 0 ? text.slice(end - fracDigits, end) : '0';
    seconds = parts === 1 ? Number(`${text.slice(first, first + firstDigits)}.${fracText}`) : whole + Number(`0.${fracText}`);
  } else if (fracDigits > 0) {
    const p = EXACT_POW10[fracDigits];
    // Plain seconds with a fraction are one decimal number ("12.5"); a clock adds a fraction of a second.
    seconds = parts === 1 ? (whole * p + frac) / p : whole + frac / p;
  }
  return negative ? -seconds : seconds;
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
  let peak = -Infinity;
  for (const v of values) if (v !== null && Number.isFinite(v) && Math.abs(v) > peak) peak = Math.abs(v);
  if (peak === -Infinity) return null;
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
