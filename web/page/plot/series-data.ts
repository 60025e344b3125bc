/**
 * The series the service sends for plotting, turned into uPlot's aligned columns: time panels share
 * one time column (the union of every series' times, gaps spanned), and the X-Y panels pair each
 * x sample with the y series read at that sample's time.
 */
import type uPlot from 'uplot';
import type { SeriesResponse } from '../../client/index.js';

export interface Line {
  name: string;
  unit: string;
  t: number[];
  v: number[];
  /** Samples the service flagged as physiologically implausible, kept out of t and v, and why. */
  implausible?: { t: number[]; v: number[]; reason: string };
}

/**
 * One series of the answer, with samples the service sent as null left out. Samples flagged in the
 * channel's `implausible` (one boolean per sample, with `implausible_reason`) are set apart, so a
 * plot draws them as flagged points and every reading of the line leaves them out.
 */
export function lineOf(series: SeriesResponse | null, name: string): Line | null {
  const s = series?.series[name] as (SeriesResponse['series'][string] & { implausible?: unknown; implausible_reason?: unknown }) | undefined;
  if (!s) return null;
  const flags = Array.isArray(s.implausible) && s.implausible.length === s.values.length ? (s.implausible as unknown[]) : null;
  const t: number[] = [];
  const v: number[] = [];
  const bad = { t: [] as number[], v: [] as number[] };
  s.values.forEach((x, i) => {
    if (x === null || !Number.isFinite(x)) return;
    const into = flags?.[i] === true ? bad : { t, v };
    into.t.push(s.t_s[i]);
    into.v.push(x);
  });
  if (!t.length) return null;
  const reason = typeof s.implausible_reason === 'string' ? s.implausible_reason : 'physiologically implausible values';
  return { name, unit: s.unit, t, v, ...(bad.t.length ? { implausible: { ...bad, reason } } : {}) };
}

/** Index of the last sample at or before t (-1 before the first). */
function before(t: number[], at: number): number {
  let lo = 0;
  let hi = t.length - 1;
  if (hi < 0 || at < t[0]) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The line read at time t by linear interpolation; null outside its span. */
export function interpolate(line: Line, at: number): number | null {
  const i = before(line.t, at);
  if (i < 0 || at > line.t[line.t.length - 1]) return null;
  if (i === line.t.length - 1 || line.t[i] === at) return line.v[i];
  const f = (at - line.t[i]) / (line.t[i + 1] - line.t[i]);
  return line.v[i] + f * (line.v[i + 1] - line.v[i]);
}

/** Mean of the samples within +-halfWidthS of t (the interpolated value when none fall there). */
export function meanAround(line: Line, at: number, halfWidthS: number): number | null {
  let sum = 0;
  let n = 0;
  for (let i = Math.max(0, before(line.t, at - halfWidthS)); i < line.t.length && line.t[i] <= at + halfWidthS; i++) {
    if (line.t[i] >= at - halfWidthS) {
      sum += line.v[i];
      n++;
    }
  }
  return n ? sum / n : interpolate(line, at);
}

/** Columns for a time panel: the union of the lines' times, each line null where it has no sample. */
export function timeColumns(lines: (Line | null)[]): uPlot.AlignedData {
  const present = lines.filter((l): l is Line => l !== null);
  const all = new Float64Array(present.reduce((n, l) => n + l.t.length, 0));
  let k = 0;
  for (const l of present) for (const t of l.t) all[k++] = t;
  all.sort();
  const xs: number[] = [];
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) xs.push(all[i]);
  const columns = lines.map((line) => {
    const col: (number | null)[] = new Array(xs.length).fill(null);
    if (!line) return col;
    let j = 0;
    for (let i = 0; i < line.t.length; i++) {
      while (xs[j] < line.t[i]) j++;
      col[j] = line.v[i];
    }
    return col;
  });
  return [xs, ...columns] as uPlot.AlignedData;
}

/** Columns for an X-Y panel: x's samples in ascending x, each y line read at the x sample's time. */
export function xyColumns(x: Line, ys: (Line | null)[]): uPlot.AlignedData {
  const order = x.v.map((_, i) => i).sort((a, b) => x.v[a] - x.v[b]);
  const xs = order.map((i) => x.v[i]);
  const columns = ys.map((y) => order.map((i) => (y ? interpolate(y, x.t[i]) : null)));
  return [xs, ...columns] as uPlot.AlignedData;
}
