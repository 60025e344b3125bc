/**
 * Ridges of the scalogram: at each time, the periods where clarity is a local maximum and
 * significant, linked over time into tracks that follow one oscillation as its period drifts.
 */
import { CLARITY_RIDGE, VOICES_PER_OCTAVE, type Scalogram } from './scalogram.js';

/** Largest period change between linked ridge points: a quarter of an octave (about 19 %). */
const MAX_JUMP_VOICES = Math.round(VOICES_PER_OCTAVE / 4);
/** Longest break in a track, in periods, before it counts as two oscillations. */
const MAX_BREAK_PERIODS = 0.5;

/** One ridge: grid indices of time and period, in time order. */
export interface Track {
  i: number[];
  j: number[];
}

/** Clarity of cell (j, i). */
export function clarityAt(s: Scalogram, j: number, i: number): number {
  return s.power[j][i] / s.background[j];
}

/** Traces significant ridges through the scalogram (greedy nearest-period linking, in time order). */
export function traceRidges(s: Scalogram, threshold = CLARITY_RIDGE): Track[] {
  const nPeriods = s.periods_s.length;
  const n = s.power[0].length;
  const dt = s.spectrum.dt_s;
  const open: Track[] = [];
  const closed: Track[] = [];
  const clar = new Float64Array(nPeriods);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < nPeriods; j++) clar[j] = clarityAt(s, j, i);
    for (let j = 0; j < nPeriods; j++) {
      const c = clar[j];
      if (c < threshold) continue;
      // Non-maximum suppression over a quarter octave: one ridge per oscillation, not a split pair.
      let isMax = true;
      for (let k = Math.max(0, j - MAX_JUMP_VOICES); k <= Math.min(nPeriods - 1, j + MAX_JUMP_VOICES); k++) {
        if (k !== j && (clar[k] > c || (clar[k] === c && k < j))) isMax = false;
      }
      if (!isMax) continue;
      let best: Track | null = null;
      let bestJump = Number.POSITIVE_INFINITY;
      for (const t of open) {
        // A track already extended at this time ends at it.
        if (t.i[t.i.length - 1] === i) continue;
        const jump = Math.abs(t.j[t.j.length - 1] - j);
        if (jump <= MAX_JUMP_VOICES && jump < bestJump) {
          best = t;
          bestJump = jump;
        }
      }
      if (!best) {
        best = { i: [], j: [] };
        open.push(best);
      }
      best.i.push(i);
      best.j.push(j);
    }
    for (let k = open.length - 1; k >= 0; k--) {
      const t = open[k];
      const last = t.i[t.i.length - 1];
      const maxBreak = (MAX_BREAK_PERIODS * s.periods_s[t.j[t.j.length - 1]]) / dt;
      if (i - last > maxBreak) {
        closed.push(t);
        open.splice(k, 1);
      }
    }
  }
  closed.push(...open);
  return closed.sort((a, b) => a.i[0] - b.i[0] || a.j[0] - b.j[0]);
}
