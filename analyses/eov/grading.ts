/**
 * Grading against the published EOV definitions, reporting each one's verdict and why:
 * Corrà et al., Circulation 2002 (with Guazzi's use of it): oscillation persisting for >= 60 % of
 * exercise at an amplitude >= 15 % of mean resting VE; Leite et al., Chest 2003: >= 3 regular
 * cycles, cycle-length SD <= 20 % of the mean, mean amplitude >= 5 L/min.
 */
import { LEITE_MAX_CYCLE_CV, LEITE_MIN_AMPLITUDE_L_MIN, LEITE_MIN_CYCLES, type MeasuredEvent } from './evidence.js';

/** Corrà 2002: share of exercise the oscillation must persist for. */
export const CORRA_MIN_FRACTION = 0.6;
/** Corrà 2002: amplitude as a fraction of mean resting VE. */
export const CORRA_MIN_AMPLITUDE_OF_REST = 0.15;

/** `none`, `intermittent` (Leite 2003 only) or `sustained` (Corrà 2002 / Guazzi fired). */
export type Grade = 'none' | 'intermittent' | 'sustained';

/** One published definition: whether it fired and the figures that decided it. */
export interface DefinitionVerdict {
  name: string;
  fired: boolean;
  reason: string;
}

/** The grade, the burden and every definition's verdict. */
export interface Grading {
  grade: Grade;
  /** Fraction of exercise covered by graded oscillation (0..1), before medication adjustment. */
  burden: number;
  /** Fraction of exercise covered by graded oscillation at >= 15 % of resting VE. */
  corra_fraction: number;
  definitions: DefinitionVerdict[];
}

/** Grid indices [from, to] of the exercise phase. */
export interface ExerciseSpan {
  from: number;
  to: number;
}

/** Grades the graded events over the exercise span; `strongest` is judged by Leite's criteria. */
export function grade(events: readonly MeasuredEvent[], exercise: ExerciseSpan, restVe_l_min: number, strongest: MeasuredEvent | null): Grading {
  const graded = events.filter((e) => e.event.graded);
  const span = exercise.to - exercise.from + 1;
  const threshold = CORRA_MIN_AMPLITUDE_OF_REST * restVe_l_min;
  let covered = 0;
  let strong = 0;
  for (let i = exercise.from; i <= exercise.to; i++) {
    let any = false;
    let big = false;
    for (const e of graded) {
      if (i < e.i0 || i > e.i1) continue;
      any = true;
      if (e.amplitude_l_min[i - e.i0] >= threshold) big = true;
    }
    if (any) covered++;
    if (big) strong++;
  }
  const burden = span > 0 ? covered / span : 0;
  const corraFraction = span > 0 ? strong / span : 0;
  const corraFired = corraFraction >= CORRA_MIN_FRACTION;
  const corra: DefinitionVerdict = {
    name: 'Corrà 2002 / Guazzi',
    fired: corraFired,
    reason: `graded oscillation of at least ${round(threshold, 1)} L/min (15 % of resting VE ${round(restVe_l_min, 1)} L/min) covers ${pct(corraFraction)} of exercise; ${pct(CORRA_MIN_FRACTION)} needed`,
  };
  const leite = leiteVerdict(strongest?.event.graded ? strongest : null);
  const gradeValue: Grade = corraFired ? 'sustained' : leite.fired ? 'intermittent' : 'none';
  return { grade: gradeValue, burden, corra_fraction: corraFraction, definitions: [corra, leite] };
}

function leiteVerdict(e: MeasuredEvent | null): DefinitionVerdict {
  const name = 'Leite 2003';
  if (!e) return { name, fired: false, reason: 'no oscillation in the graded 40-140 s band' };
  const ev = e.event;
  const failures: string[] = [];
  if (ev.n_cycles < LEITE_MIN_CYCLES) failures.push(`${ev.n_cycles} cycles counted, ${LEITE_MIN_CYCLES} needed`);
  if (ev.cycle_length_sd_pct === null || ev.cycle_length_sd_pct > LEITE_MAX_CYCLE_CV * 100) {
    failures.push(ev.cycle_length_sd_pct === null ? 'cycle regularity cannot be measured' : `cycle-length SD ${ev.cycle_length_sd_pct} % of the mean, at most ${LEITE_MAX_CYCLE_CV * 100} % allowed`);
  }
  if (ev.amplitude_l_min < LEITE_MIN_AMPLITUDE_L_MIN) failures.push(`mean amplitude ${ev.amplitude_l_min} L/min, ${LEITE_MIN_AMPLITUDE_L_MIN} L/min needed`);
  if (failures.length) return { name, fired: false, reason: failures.join('; ') };
  return {
    name,
    fired: true,
    reason: `${ev.n_cycles} cycles, cycle-length SD ${ev.cycle_length_sd_pct} % of the mean, mean amplitude ${ev.amplitude_l_min} L/min`,
  };
}

function pct(x: number): string {
  return `${Math.round(x * 100)} %`;
}

function round(x: number, d: number): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}
