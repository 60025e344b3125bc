/**
 * The page's own reading of where an engine put its lines: VT2 before VT1, VT2's VO2 below VT1's,
 * or a line after exercise ended. An engine that checks itself says so in `evidence.implausible`;
 * its words are used when present, and these checks otherwise.
 */
import type { UploadSummary, VtFindings } from '../client/index.js';
import { clock, num } from './format.js';

export type Line = 'VT1' | 'VT2';

export interface Implausibility {
  code: string;
  /** A sentence for the page. */
  detail: string;
  /** A few words drawn beside the line on the plot. */
  short: string;
  lines: Line[];
}

/** When exercise ended: the end of the last exercise phase, or null when the recording has none. */
export function exerciseEnd(summary: UploadSummary): number | null {
  const ends = summary.phases.filter((p) => p.phase === 'exercise').map((p) => p.t_end_s);
  return ends.length ? Math.max(...ends) : null;
}

/** The page's few words beside a line, per code an engine may give. */
const SHORT: Record<string, string> = {
  vt2_before_vt1: 'before VT1',
  vt2_vo2_below_vt1: 'VO2 below VT1',
  after_exercise: 'in recovery',
};

/** Which lines a flag is about: named in its code, else the first named in its detail, else both. */
function linesOf(code: string, detail: string): Line[] {
  const c = code.toLowerCase();
  if (c.includes('vt2')) return ['VT2'];
  if (c.includes('vt1')) return ['VT1'];
  const named = /\b(VT[12])\b/.exec(detail)?.[1] as Line | undefined;
  return named ? [named] : ['VT1', 'VT2'];
}

function engineFlags(evidence: unknown): Implausibility[] | null {
  const list = (evidence as { implausible?: unknown } | undefined)?.implausible;
  if (!Array.isArray(list)) return null;
  return list
    .filter((x): x is { code: string; detail: string } => typeof x?.code === 'string' && typeof x?.detail === 'string')
    .map((x) => ({ code: x.code, detail: x.detail, short: SHORT[x.code] ?? 'implausible', lines: linesOf(x.code, x.detail) }));
}

/** Every implausibility of one engine's findings; `end` is when exercise ended (null: unknown). */
export function implausibilities(f: VtFindings, end: number | null): Implausibility[] {
  const own = engineFlags(f.evidence);
  const out: Implausibility[] = own ?? [];
  if (!own) {
    const { vt1_time_s: t1, vt2_time_s: t2, vt1_vo2_ml_min: v1, vt2_vo2_ml_min: v2 } = f;
    if (t1 !== null && t2 !== null && t2 <= t1) {
      out.push({
        code: 'vt2_before_vt1',
        short: 'before VT1',
        lines: ['VT2'],
        detail: `VT2 (${clock(t2)}) is placed before VT1 (${clock(t1)}); the second threshold cannot come first, so read neither line from this engine.`,
      });
    } else if (v1 != null && v2 != null && v2 < v1) {
      out.push({
        code: 'vt2_vo2_below_vt1',
        short: 'VO2 below VT1',
        lines: ['VT2'],
        detail: `VT2's VO2 (${num(v2)} mL/min) is below VT1's (${num(v1)} mL/min), which cannot happen in an incremental test.`,
      });
    }
  }
  // Whatever the engine says, a line after exercise is never drawn, so the page always says why.
  if (end !== null) {
    for (const [line, t] of [
      ['VT1', f.vt1_time_s],
      ['VT2', f.vt2_time_s],
    ] as const) {
      const said = out.some((x) => /recovery|after_exercise/i.test(x.code) && x.lines.includes(line));
      if (t !== null && t > end && !said)
        out.push({
          code: 'after_exercise',
          short: 'in recovery',
          lines: [line],
          detail: `${line} (${clock(t)}) is placed after exercise ended (${clock(end)}), in recovery: it is not drawn on the plot.`,
        });
    }
  }
  return out;
}
