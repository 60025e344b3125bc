/** Numbers, times and units as the page writes them. */

/** Seconds as m:ss (or h:mm:ss), e.g. 499 -> 8:19. */
export function clock(seconds: number): string {
  const s = Math.round(seconds);
  const sign = s < 0 ? '-' : '';
  const a = Math.abs(s);
  const hours = Math.floor(a / 3600);
  const minutes = Math.floor((a % 3600) / 60);
  const secs = String(a % 60).padStart(2, '0');
  return hours > 0 ? `${sign}${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${sign}${minutes}:${secs}`;
}

/** A number with a sensible precision for reading (integers above 100, else 3 significant digits). */
export function num(value: number | null | undefined, digits?: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (digits !== undefined) return value.toFixed(digits);
  if (Number.isInteger(value)) return String(value);
  const a = Math.abs(value);
  if (a >= 100) return String(Math.round(value));
  if (a >= 10) return value.toFixed(1);
  if (a >= 1) return value.toFixed(2);
  return value.toPrecision(3).replace(/\.?0+$/, '') || '0';
}

/** A number with its unit, e.g. "2052 mL/min". */
export function qty(value: number | null | undefined, unit: string | null | undefined, digits?: number): string {
  const text = num(value, digits);
  return text === '–' || !unit || unit === 'ratio' ? text : `${text} ${unit}`;
}

/** A time in seconds as "8:19 (499 s)". */
export function at(seconds: number | null | undefined): string {
  return seconds === null || seconds === undefined ? '–' : `${clock(seconds)} (${Math.round(seconds)} s)`;
}

/** A fraction 0..1 as a percentage. */
export function pct(fraction: number | null | undefined, digits = 0): string {
  return fraction === null || fraction === undefined || !Number.isFinite(fraction) ? '–' : `${(fraction * 100).toFixed(digits)} %`;
}

/** A byte count, e.g. "634 kB". */
export function bytes(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} kB`;
  return `${n} B`;
}

/** snake_case or camelCase code as words, e.g. "ramp_protocol" -> "ramp protocol". */
export function words(code: string): string {
  return code.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
}
