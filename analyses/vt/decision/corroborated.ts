/**
 * The project's decision rule: a learned engine's per-second domain curves place each threshold,
 * and the classic landmarks corroborate it only where the curves cannot decide (design section 5:
 * landmarks corroborate a model, they never override it; Gaskill et al., Med Sci Sports Exerc 2001:
 * combining methods beats any one of them).
 *
 * - VT1: where the moderate domain gives way (P(moderate) falls through one half), after the exercise
 *   onset. VT2: where, beyond moderate, severe overtakes heavy (P(severe) / (P(heavy) + P(severe))
 *   rises through one half), at least MIN_VT_GAP_S after VT1. Each crossing is a one-step fit on the
 *   smoothed margin (step-fit.ts), so a flicker cannot move it and a domain never held gives none.
 * - The undecided zone of a crossing is the stretch around it where the smoothed probability stays
 *   between ZONE_LEVEL and 1 - ZONE_LEVEL. The classic engine's accepted criteria (engines/wasserman,
 *   fitted in its own order so neither threshold's breakpoint is taken for the other's) whose
 *   breakpoint falls inside the zone join the crossing, one vote each, and the threshold is the median:
 *   where the model is decided the zone is narrow and its crossing stands; where it is not, the
 *   landmarks in that stretch decide. A landmark outside the zone never moves a threshold. A VT1
 *   landmark is read where an expert would mark the threshold it shows, a measured minute after its
 *   breakpoint (CLASSIC_VT1_EARLY_ON_REAL_TESTS_S), so the vote is not biased early.
 * - A test that ends while the severe curve is still rising (many real tests stop soon after VT2,
 *   and a curve needs some seconds past a threshold to cross) leaves VT2 to the respiratory
 *   compensation landmarks over the end of the test, and says so.
 * Which evidence placed each threshold is returned with it.
 */
import { CLASSIC_VT1_EARLY_ON_REAL_TESTS_S, type CriterionEvidence } from '../engines/wasserman/criteria.js';
import { classicThresholds } from '../engines/wasserman/thresholds.js';
import type { EngineInput, PlacedThreshold } from '../engines/engine.js';
import { movingMean } from '../grid-filters.js';
import { MEAN_HALF_S, type PreparedTest } from '../preprocess.js';
import type { DomainCurves } from './curves.js';
import type { DecisionRule } from './rule.js';
import { stepIndex } from './step-fit.js';
import { AGREE_S, endCompensation, LATE_S, MIN_AFTER_S, type CompensationReading, type CompensationSign, type EndCompensation } from './end-compensation.js';
import { readSpan } from '../read-span.js';
import { exerciseEndIndex } from '../exercise-end.js';
import { compensationSearchOf, type CompensationSearch } from '../card.js';
import { unanimousVt1, vt1LandmarksOf } from './unanimous-vt1.js';

/** Half-width (s) of the centred mean applied to the curves before they are read (as step-fit.ts). */
const CURVE_HALF_S = 10;
/** VT2 is sought from this long after VT1: the heavy domain spans minutes, never a moment. */
const MIN_VT_GAP_S = 30;
/** The curves are undecided while the probability lies between ZONE_LEVEL and 1 - ZONE_LEVEL. */
const ZONE_LEVEL = 0.25;
/** A zone is at least this wide each side of its crossing: the engine reads 40-s windows, so it cannot be sharper. */
const ZONE_MIN_HALF_S = 20;
/** A severe curve that rose by at least this much over the last minute of the test is still rising at its end. */
const STILL_RISING = 0.15;
/** The span at the end of the test where an undecided VT2 is sought from landmarks alone, s. */
const END_SPAN_S = 120;
/** The seconds after a VT2 crossing over which PetCO2 must fall for the crossing to stand (petco2-first-end): a minute, as STILL_RISING is judged over. */
const PETCO2_CHECK_S = 60;
/** Standard errors a PetCO2 fall must reach to count as one (one-sided, about 97.5 %). */
const FALL_SE = 2;
/** Seconds of the prepared series' centred mean (preprocess.ts): its seconds within that span share their breaths. */
const SMOOTHED_S = 2 * MEAN_HALF_S + 1;

type Placement =
  | 'model'
  | 'model and landmarks'
  | 'model and every landmark (all agreeing)'
  | 'landmarks (the curves end undecided)'
  | 'gases at the end of the test'
  | 'the end of the test (PetCO2 held after the crossing)';

interface ThresholdEvidence {
  /** `not assessable`: the evidence was still rising at the last second read (see at_or_after_s). */
  placed_by: Placement | 'not reached' | 'not assessable';
  model_crossing_s: number | null;
  zone_s: [number, number] | null;
  /** Each criterion's breakpoint, and where an expert would read the threshold it marks. */
  landmarks: { criterion: string; time_s: number | null; read_at_s: number | null; accepted: boolean; in_zone: boolean; why: string }[];
  /** The respiratory compensation signs read over the end of the test (read-to-end only, when the curves did not cross). */
  compensation?: { sign: CompensationSign['sign']; time_s: number | null; accepted: boolean; why: string }[];
  /** What among the signs placed VT2 (petco2-first only). */
  compensation_placed_by?: NonNullable<EndCompensation['placed_by']>;
  /** Where the threshold is at the earliest when the evidence for it was still rising at the last second read. */
  at_or_after_s?: number;
  /** PetCO2's slope over the minute after the model's crossing, mmHg/min (petco2-first-end, where it did not fall). */
  petco2_after_crossing_mmhg_min?: number;
}

/** The last index with a defined (finite) value: an engine may leave the end of the test undefined. */
function lastDefined(curve: Float64Array): number {
  let i = curve.length - 1;
  while (i >= 0 && !Number.isFinite(curve[i])) i--;
  return i;
}

/** The undecided stretch around crossing c of a margin that is positive before and negative after. */
function zoneAround(margin: Float64Array, c: number, from: number, to: number): [number, number] {
  // margin = 1 - 2p (or 2p - 1), so p within [ZONE_LEVEL, 1 - ZONE_LEVEL] is |margin| below this.
  const undecided = (m: number) => Math.abs(m) < 1 - 2 * ZONE_LEVEL;
  let a = c;
  while (a > from && undecided(margin[a - 1])) a--;
  let b = c;
  while (b < to && undecided(margin[b + 1])) b++;
  return [Math.max(from, Math.min(a, c - ZONE_MIN_HALF_S)), Math.min(to, Math.max(b, c + ZONE_MIN_HALF_S))];
}

function median(values: number[]): number {
  const v = [...values].sort((x, y) => x - y);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : Math.floor((v[m - 1] + v[m]) / 2);
}

/**
 * The crossing joined by the accepted landmarks inside its zone. `readLater_s` puts the landmarks on the
 * experts' footing first: a breakpoint marks where a change begins, an expert (and a model trained on
 * experts) marks it once plain, CLASSIC_VT1_EARLY_ON_REAL_TESTS_S later at VT1.
 */
function corroborate(
  test: PreparedTest,
  crossing: number,
  zone: [number, number],
  criteria: CriterionEvidence[],
  readLater_s: number,
  unanimous = false,
): { placed: PlacedThreshold; evidence: ThresholdEvidence } {
  const read = (e: CriterionEvidence) => (e.index as number) + readLater_s;
  const inZone = (e: CriterionEvidence) => e.accepted && e.index !== null && read(e) >= zone[0] && read(e) <= zone[1];
  // Unanimous landmarks (vt1_landmarks: unanimous, unanimous-vt1.ts) join wherever they fall.
  const joining = (unanimous ? criteria : criteria.filter(inZone)).map(read);
  return {
    placed: { index: median([crossing, ...joining]) },
    evidence: {
      placed_by: unanimous ? 'model and every landmark (all agreeing)' : joining.length ? 'model and landmarks' : 'model',
      model_crossing_s: test.t0_s + crossing,
      zone_s: [test.t0_s + zone[0], test.t0_s + zone[1]],
      landmarks: describe(test, criteria, inZone, readLater_s),
    },
  };
}

function describe(test: PreparedTest, criteria: CriterionEvidence[], inZone: (e: CriterionEvidence) => boolean, readLater_s: number): ThresholdEvidence['landmarks'] {
  return criteria.map((e) => ({
    criterion: e.criterion,
    time_s: e.index === null ? null : test.t0_s + e.index,
    read_at_s: e.index === null ? null : test.t0_s + e.index + readLater_s,
    accepted: e.accepted,
    in_zone: inZone(e),
    why: e.why,
  }));
}

const notReached = (): ThresholdEvidence => ({ placed_by: 'not reached', model_crossing_s: null, zone_s: null, landmarks: [] });

/**
 * The rule, as `corroborated` (gandalf v1.1.0) or as `read-to-end` (gandalf v1.2.0, whose engine reads the
 * curves to the last second): where the curves give no VT2 crossing, read-to-end first reads the
 * respiratory compensation from the gases over the end of the test (end-compensation.ts), then the
 * classic landmarks as corroborated does, and where the evidence is still rising at the last second it
 * says so (`not assessable`, at_or_after_s) instead of "not reached".
 */
function corroboratedRule(id: string, readToEnd: boolean, gasesFirst = false, compensation: CompensationReading = 'two_agreeing', checkCrossing = false): DecisionRule {
  return {
    id,
    decide(curves: DomainCurves, { model, rec, test, exercise_start_index: onset }: EngineInput, engineEvidence) {
      // read-to-end reads on to the last second of exercise; corroborated stops at the VO2 peak.
      const end = readToEnd ? exerciseEndIndex(rec, test) : test.end_index;
      const last = Math.min(end, lastDefined(curves.moderate));
      const pm = movingMean(curves.moderate.subarray(0, last + 1), CURVE_HALF_S);
      const beyond = new Float64Array(last + 1);
      for (let i = 0; i <= last; i++) {
        const hs = curves.heavy[i] + curves.severe[i];
        beyond[i] = hs > 0 ? curves.severe[i] / hs : 0;
      }
      const ps = movingMean(beyond, CURVE_HALF_S);
      // Margins positive before a threshold and negative after, as stepIndex reads them.
      const m1 = pm.map((p) => 2 * p - 1);
      const m2 = ps.map((p) => 1 - 2 * p);
      // The classic engine's own criteria: fitted in its order (VT2 above the PetO2 nadir, VT1 below VT2), so
      // neither threshold's breakpoint is mistaken for the other's.
      const classic = classicThresholds(test, onset);
      const evidence: Record<string, unknown> = {
        method: 'corroborated: the model places each threshold where its domain curves cross; classic landmarks inside its undecided zone join it (median)',
        ...engineEvidence,
        analysed_until_s: test.t0_s + test.end_index,
        ...(readToEnd ? { read_span: readSpan(test, curves, end) } : {}),
      };

      const c1 = last >= 0 ? stepIndex(m1, Math.min(onset, last)) : null;
      if (c1 === null) return { vt1: null, vt2: null, evidence: { ...evidence, vt1: notReached(), vt2: notReached() } };
      const zone1 = zoneAround(m1, c1, onset, last);
      const unanimous = vt1LandmarksOf(model.card) === 'unanimous' && unanimousVt1(classic.vt1_evidence, CLASSIC_VT1_EARLY_ON_REAL_TESTS_S);
      const vt1 = corroborate(test, c1, zone1, classic.vt1_evidence, CLASSIC_VT1_EARLY_ON_REAL_TESTS_S, unanimous);

      const from2 = vt1.placed.index + MIN_VT_GAP_S;
      const c2 = from2 < last ? stepIndex(m2, from2) : null;
      let vt2: { placed: PlacedThreshold | null; evidence: ThresholdEvidence };
      // Read over the whole test (whole_test), the compensation's fit starts at VT1, so its first segment is isocapnic buffering.
      const search = compensationSearchOf(model.card);
      const gases = gasesFirst ? endCompensation(test, from2, end, compensation, search, vt1.placed.index) : null;
      if (gases !== null && gases.index !== null) {
        vt2 = byGases(test, gases, c2, classic.vt2_evidence);
      } else if (c2 !== null && checkCrossing && gases !== null && c2 >= gases.span[0] && petco2Holds(test, c2, end)) {
        vt2 = atEndOfTest(test, gases, c2, from2, end, classic.vt2_evidence);
      } else if (c2 !== null) {
        const zone2 = zoneAround(m2, c2, from2, last);
        vt2 = corroborate(test, c2, zone2, classic.vt2_evidence, 0);
      } else {
        vt2 = readToEnd ? endOfTest(test, ps, from2, last, end, classic.vt2_evidence, compensation, search, vt1.placed.index) : undecidedEnd(test, ps, from2, last, classic.vt2_evidence);
      }
      return {
        vt1: vt1.placed,
        vt2: vt2.placed,
        evidence: { ...evidence, vt1: vt1.evidence, vt2: vt2.evidence },
        notes: [
          placementNote('VT1', vt1.evidence.placed_by),
          placementNote('VT2', vt2.evidence.placed_by, vt2.evidence.model_crossing_s, vt2.placed === null ? null : test.t0_s + vt2.placed.index, vt2.evidence.compensation_placed_by),
        ].filter((n): n is string => n !== null),
      };
    },
  };
}

export const corroborated = corroboratedRule('corroborated', false);
export const readToEnd = corroboratedRule('read-to-end', true);
/**
 * gandalf v1.3.0: read-to-end, with VT2 read from the gases at the end of the test first. The respiratory
 * compensation point is defined by the gases (Beaver, Wasserman & Whipp 1986; Whipp, Davis & Wasserman
 * 1989) and the fit reads them in their own units, whereas the model reads each channel min-max scaled
 * over the test: a test that ends sooner after VT2 than the model's training tests did (the Oxynet
 * database's VT2-to-end: median 115 s on its 180 tests with rest, 186 s on its 48 ramps, 10th percentile
 * 56 s; scripts/train/oxynet-summaries) has a narrower range, every second reads nearer its top, and the
 * curves cross early. The curves place VT2 only where the gases show no agreeing compensation.
 */
export const gasesFirst = corroboratedRule('gases-first', true, true);
/**
 * gandalf v1.4.0: gases-first, where a clear PetCO2 fall alone places the compensation
 * (end-compensation.ts `clear_petco2_first`). The end of isocapnic buffering is where PetCO2 starts to fall
 * (Whipp, Davis & Wasserman 1989); VE/VCO2 and VE against VCO2 turn more gradually, so on a test that stops
 * 10-30 s after VT2 their fits often cannot accept, and two agreeing signs are missing where PetCO2
 * alone is unmistakable.
 */
export const petco2First = corroboratedRule('petco2-first', true, true, 'clear_petco2_first');
/**
 * petco2-first, where the gases show no compensation over the stretch they were searched and PetCO2 does not fall
 * (beyond its own noise) over the minute after a VT2 crossing inside that stretch: isocapnic buffering holds PetCO2
 * from VT1 to the respiratory compensation point, where it starts to fall (Whipp, Davis & Wasserman 1989), so a
 * crossing it holds after is not the compensation point. On a test stopped soon after VT2 the scaling reads every
 * second near the top of its range and the curves cross a minute or more early (analyses/vt/README.md, gandalf
 * v1.3.0); the compensation then lies where the gases cannot show it yet, the last MIN_AFTER_S seconds, and VT2 is
 * reported there with a note saying it may lie later. VT1 is read as petco2-first reads it.
 */
export const petco2FirstEnd = corroboratedRule('petco2-first-end', true, true, 'clear_petco2_first', true);

/** What placed VT2 among the end-of-test signs, as the notes say it. */
const SIGNS_IN_WORDS: Record<NonNullable<EndCompensation['placed_by']>, string> = {
  'two signs agreeing': 'two compensation signs agreeing',
  'a clear PetCO2 fall': 'a clear fall of PetCO2',
  'a late PetCO2 fall': 'PetCO2 turning down in the last seconds of the test',
};

/**
 * Says in words when a threshold rests on one kind of evidence. On every held-out cohort of
 * `npm run evaluate` a threshold the landmarks joined was read closer than one the curves placed alone,
 * so a reader should know which one they have.
 */
function placementNote(
  name: 'VT1' | 'VT2',
  by: ThresholdEvidence['placed_by'],
  crossing_s: number | null = null,
  placed_s: number | null = null,
  signs: ThresholdEvidence['compensation_placed_by'] = 'two signs agreeing',
): string | null {
  // Gases and a crossing within AGREE_S of each other corroborate one another, as landmarks joining a crossing do: no note.
  if (by === 'gases at the end of the test' && crossing_s !== null && placed_s !== null && Math.abs(crossing_s - placed_s) <= AGREE_S) return null;
  if (by === 'model')
    return `${name} rests on the model's curves alone: no accepted classic landmark fell where the curves are undecided, so nothing corroborated it (evidence.${name.toLowerCase()}).`;
  if (by === 'gases at the end of the test' && crossing_s !== null)
    return `${name} was read from the gases at the end of the test (${SIGNS_IN_WORDS[signs]}), not at the model's crossing at ${crossing_s} s (evidence.${name.toLowerCase()}.compensation).`;
  if (by === 'gases at the end of the test')
    return `${name} was placed from the gases over the end of the test (VE/VCO2 rising, PetCO2 falling, VE steepening against VCO2; ${signs === 'two signs agreeing' ? 'at least two agreeing' : SIGNS_IN_WORDS[signs]}): the test ended too soon after it for the model's curves to cross (evidence.${name.toLowerCase()}.compensation).`;
  if (by === 'the end of the test (PetCO2 held after the crossing)')
    return `${name} was placed at the end of the test, ${MIN_AFTER_S} s before its last second: PetCO2 did not fall beyond its own noise in the minute after the model's crossing at ${crossing_s} s, so the respiratory compensation had not begun there, and the gases show none over the test; one that begins in the last ${MIN_AFTER_S} s has too few seconds after it to show, so ${name} may lie later (evidence.${name.toLowerCase()}).`;
  if (by === 'landmarks (the curves end undecided)')
    return `${name} was placed by the respiratory compensation landmarks over the end of the test: the test ended before the model's curves decided (evidence.${name.toLowerCase()}).`;
  return null;
}

/**
 * No sustained VT2 crossing: if the severe curve is still rising when the curves end, the model could
 * not decide and the respiratory compensation landmarks over the end of the test place VT2 (their
 * median, at least two agreeing); otherwise the test ended before VT2.
 */
function undecidedEnd(
  test: PreparedTest,
  ps: Float64Array,
  from: number,
  last: number,
  criteria: CriterionEvidence[],
  end = test.end_index,
): { placed: PlacedThreshold | null; evidence: ThresholdEvidence } {
  if (last < from || ps[last] - ps[Math.max(from, last - 60)] < STILL_RISING) return { placed: null, evidence: notReached() };
  const zone: [number, number] = [Math.max(from, end - END_SPAN_S), end];
  const inZone = (e: CriterionEvidence) => e.accepted && e.index !== null && e.index >= zone[0] && e.index <= zone[1];
  const agreeing = criteria.filter(inZone).map((e) => e.index as number);
  const landmarks = describe(test, criteria, inZone, 0);
  if (agreeing.length < 2) return { placed: null, evidence: { placed_by: 'not reached', model_crossing_s: null, zone_s: [test.t0_s + zone[0], test.t0_s + zone[1]], landmarks } };
  return {
    placed: { index: median(agreeing) },
    evidence: { placed_by: 'landmarks (the curves end undecided)', model_crossing_s: null, zone_s: [test.t0_s + zone[0], test.t0_s + zone[1]], landmarks },
  };
}

/** Whether the smoothed severe share rose by STILL_RISING over the last minute read. */
function stillRising(ps: Float64Array, from: number, last: number): boolean {
  return last >= from && ps[last] - ps[Math.max(from, last - 60)] >= STILL_RISING;
}

/** PetCO2's least-squares slope over [lo, hi] and its standard error, mmHg/min. */
function petco2Slope(test: PreparedTest, lo: number, hi: number): { slope: number; se: number } {
  const n = hi - lo + 1;
  const mx = (lo + hi) / 2;
  let my = 0;
  for (let i = lo; i <= hi; i++) my += test.petco2[i];
  my /= n;
  let sxy = 0;
  let sxx = 0;
  for (let i = lo; i <= hi; i++) {
    sxy += (i - mx) * (test.petco2[i] - my);
    sxx += (i - mx) * (i - mx);
  }
  const b = sxx > 0 ? sxy / sxx : 0;
  let sse = 0;
  for (let i = lo; i <= hi; i++) sse += (test.petco2[i] - my - b * (i - mx)) ** 2;
  // The prepared series is a centred mean over SMOOTHED_S seconds, so its residuals are that many seconds alike:
  // the error is counted over SMOOTHED_S-s stretches, not over seconds.
  const se = n > 2 && sxx > 0 ? Math.sqrt((sse / (n - 2) / sxx) * SMOOTHED_S) : Infinity;
  return { slope: 60 * b, se: 60 * se };
}

/**
 * Whether PetCO2 holds over the PETCO2_CHECK_S after a VT2 crossing: its slope there is not below zero by
 * FALL_SE standard errors, tested against the series' own noise. At least LATE_S seconds must follow the crossing
 * (fewer cannot deny it).
 */
function petco2Holds(test: PreparedTest, crossing: number, end: number): boolean {
  const hi = Math.min(end, crossing + PETCO2_CHECK_S);
  if (hi - crossing < LATE_S) return false;
  const { slope, se } = petco2Slope(test, crossing, hi);
  return slope >= -FALL_SE * se;
}

/**
 * petco2-first-end's VT2 where PetCO2 held after the curves' crossing and the gases show no compensation: MIN_AFTER_S
 * before the last second of exercise, the latest break the compensation fit could have read (never before `from`).
 */
function atEndOfTest(test: PreparedTest, ec: EndCompensation, crossing: number, from: number, end: number, criteria: CriterionEvidence[]): { placed: PlacedThreshold; evidence: ThresholdEvidence } {
  const hi = Math.min(end, crossing + PETCO2_CHECK_S);
  return {
    placed: { index: Math.max(from, end - MIN_AFTER_S) },
    evidence: {
      placed_by: 'the end of the test (PetCO2 held after the crossing)',
      model_crossing_s: test.t0_s + crossing,
      zone_s: [test.t0_s + Math.max(from, end - MIN_AFTER_S), test.t0_s + end],
      landmarks: describe(test, criteria, () => false, 0),
      compensation: compensationEvidence(test, ec),
      petco2_after_crossing_mmhg_min: Math.round(100 * petco2Slope(test, crossing, hi).slope) / 100,
    },
  };
}

/** VT2 placed by the respiratory compensation the gases show (gases-first), the curves' crossing kept as evidence. */
function byGases(test: PreparedTest, ec: EndCompensation, crossing: number | null, criteria: CriterionEvidence[]): { placed: PlacedThreshold; evidence: ThresholdEvidence } {
  return {
    placed: { index: ec.index as number },
    evidence: {
      placed_by: 'gases at the end of the test',
      model_crossing_s: crossing === null ? null : test.t0_s + crossing,
      zone_s: [test.t0_s + ec.span[0], test.t0_s + ec.span[1]],
      landmarks: describe(test, criteria, () => false, 0),
      compensation: compensationEvidence(test, ec),
      ...(ec.placed_by ? { compensation_placed_by: ec.placed_by } : {}),
    },
  };
}

function compensationEvidence(test: PreparedTest, ec: EndCompensation): NonNullable<ThresholdEvidence['compensation']> {
  return ec.signs.map((s) => ({ sign: s.sign, time_s: s.index === null ? null : test.t0_s + s.index, accepted: s.accepted, why: s.why }));
}

/**
 * read-to-end's VT2 when the curves give no crossing: the respiratory compensation from the gases at
 * the end of the test; else the classic landmarks over the end (undecidedEnd); else, when the severe
 * share is still rising at the last second read, not assessable, with the start of that rise as the
 * earliest VT2; else not reached.
 */
function endOfTest(
  test: PreparedTest,
  ps: Float64Array,
  from: number,
  last: number,
  end: number,
  criteria: CriterionEvidence[],
  reading: CompensationReading,
  search: CompensationSearch,
  vt1: number,
): { placed: PlacedThreshold | null; evidence: ThresholdEvidence } {
  const ec = endCompensation(test, from, end, reading, search, vt1);
  const compensation = compensationEvidence(test, ec);
  const zone: [number, number] = [test.t0_s + ec.span[0], test.t0_s + ec.span[1]];
  if (ec.index !== null) {
    return {
      placed: { index: ec.index },
      evidence: {
        placed_by: 'gases at the end of the test',
        model_crossing_s: null,
        zone_s: zone,
        landmarks: describe(test, criteria, () => false, 0),
        compensation,
        ...(ec.placed_by ? { compensation_placed_by: ec.placed_by } : {}),
      },
    };
  }
  const classic = undecidedEnd(test, ps, from, last, criteria, end);
  if (classic.placed !== null) return { placed: classic.placed, evidence: { ...classic.evidence, compensation } };
  if (!stillRising(ps, from, last)) return { placed: null, evidence: { ...classic.evidence, compensation } };
  let start = last;
  while (start > from && ps[start - 1] <= ps[start]) start--;
  return { placed: null, evidence: { ...classic.evidence, placed_by: 'not assessable', compensation, at_or_after_s: test.t0_s + start } };
}
