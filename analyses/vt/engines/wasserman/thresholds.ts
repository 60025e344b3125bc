/**
 * The classic engine: the classic criteria (criteria.ts) combined by median, because combining
 * methods beats any one of them (Gaskill et al., Med Sci Sports Exerc 2001). VT2 first, then VT1
 * below it. The first 60 s of exercise are dropped (VO2 kinetics, Beaver 1986).
 */
import type { PreparedTest } from '../../preprocess.js';
import {
  ALL_CLASSIC_CHANNELS,
  canRun,
  CRITERIA,
  derivedSignals,
  MIN_SEGMENT_S,
  nadir,
  SKIP_EXERCISE_S,
  vSlope,
  vt1HingeCriteria,
  vt2Criteria,
  type ClassicChannel,
  type CriterionEvidence,
} from './criteria.js';

/** VT2 is sought from this long after the first VT1 estimate (isocapnic buffering lasts minutes). */
const VT2_AFTER_VT1_S = 60;

export interface ClassicResult {
  vt1_index: number | null;
  vt2_index: number | null;
  vt1_evidence: CriterionEvidence[];
  vt2_evidence: CriterionEvidence[];
  /** Criteria that could not run, with the channels they lacked (empty when every channel is readable). */
  not_run: { criterion: string; threshold: 'VT1' | 'VT2'; missing: ClassicChannel[] }[];
}

/** Median of the accepted indices (Gaskill et al. 2001 combine criteria), rounded down; null when none was accepted. */
export function combine(items: CriterionEvidence[]): number | null {
  const idx = items
    .filter((e) => e.accepted && e.index !== null)
    .map((e) => e.index as number)
    .sort((a, b) => a - b);
  if (idx.length === 0) return null;
  const m = idx.length >> 1;
  return idx.length % 2 ? idx[m] : Math.floor((idx[m - 1] + idx[m]) / 2);
}

/**
 * Runs every criterion whose channels are `readable` between `exerciseStart` (grid index) and the
 * VO2 peak and combines them. VO2 and VCO2 must be readable; with every channel readable (the
 * default) this is the classic engine of v1.1.0 exactly.
 */
export function classicThresholds(test: PreparedTest, exerciseStart: number, readable: ReadonlySet<ClassicChannel> = ALL_CLASSIC_CHANNELS): ClassicResult {
  const end = test.end_index;
  const d = derivedSignals(test);
  const from = Math.min(end, exerciseStart + SKIP_EXERCISE_S);
  // The PetO2 nadir needs no upper bound (PetO2 only rises after VT1), so it is found first and,
  // with a first V-slope over the whole span as fallback, bounds where VT2 may be sought.
  const petO2Nadir = canRun(CRITERIA.VT1[3].channels, readable) ? nadir(CRITERIA.VT1[3].criterion, test.peto2, from, end) : null;
  const first = petO2Nadir?.accepted ? petO2Nadir : vSlope(test, from, end);
  const vt2From = Math.min(end, Math.max(from, (first.accepted && first.index !== null ? first.index : from) + VT2_AFTER_VT1_S));
  const vt2Evidence = vt2Criteria(test, d, vt2From, end, readable);
  const vt2 = combine(vt2Evidence);

  // The other VT1 criteria are sought below VT2, where VE/VO2 rises and VCO2 steepens for VT1's
  // reason alone, unless that VT2 is not clearly past the nadir; then the whole span is used.
  const vt2PastNadir = vt2 !== null && (!petO2Nadir?.accepted || vt2 > (petO2Nadir.index as number) + MIN_SEGMENT_S);
  const vt1End = vt2 !== null && vt2PastNadir ? vt2 : end;
  const vt1Evidence = [...vt1HingeCriteria(test, d, from, vt1End, readable), ...(petO2Nadir ? [petO2Nadir] : [])];
  const vt1 = combine(vt1Evidence);
  const notRun = (['VT1', 'VT2'] as const).flatMap((threshold) =>
    CRITERIA[threshold].filter((c) => !canRun(c.channels, readable)).map((c) => ({ criterion: c.criterion, threshold, missing: c.channels.filter((ch) => !readable.has(ch)) })),
  );
  return { vt1_index: vt1, vt2_index: vt1 !== null && vt2 !== null && vt2 > vt1 ? vt2 : null, vt1_evidence: vt1Evidence, vt2_evidence: vt2Evidence, not_run: notRun };
}
