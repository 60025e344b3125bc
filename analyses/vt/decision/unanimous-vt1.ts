/**
 * `preprocessing.vt1_landmarks`: which classic VT1 landmarks join the curves' VT1 crossing in the corroborated
 * rule. `in_zone` (absent: every version before the field) lets an accepted landmark join only where the curves
 * are undecided. `unanimous` also lets every landmark join, wherever it falls, when all the classic VT1 criteria
 * are accepted and agree: the two gas-exchange readings, which read VO2 and VCO2 alone (V-slope, Beaver,
 * Wasserman & Whipp 1986; excess CO2, Gaskill et al. 2001), and the two ventilatory-equivalent readings (VE/VO2
 * rising and the PetO2 nadir, Wasserman et al., Principles of Exercise Testing and Interpretation). Methods
 * that read different signals and agree mark a threshold a clinician would call plain (Gaskill et al., Med Sci
 * Sports Exerc 2001: VT1 is best taken where the methods agree); the crossing keeps its vote, so the median
 * of the five readings moves it to the landmarks' side without discarding it.
 */
import { preprocessingChoice, type ModelCard } from '../card.js';
import { CRITERIA, type CriterionEvidence } from '../engines/wasserman/criteria.js';

export const VT1_LANDMARKS = ['in_zone', 'unanimous'] as const;
export type Vt1Landmarks = (typeof VT1_LANDMARKS)[number];

/** The card's `preprocessing.vt1_landmarks`; throws with the reason when it names an unknown reading. */
export function vt1LandmarksOf(card: Pick<ModelCard, 'preprocessing'>): Vt1Landmarks {
  return preprocessingChoice(card, 'vt1_landmarks', VT1_LANDMARKS);
}

/**
 * The criteria agree when each one's reading lies within this of their median, s: the minute by which the
 * classic breakpoints precede the experts' VT1 (CLASSIC_VT1_EARLY_ON_REAL_TESTS_S), the error one reading
 * carries; 60 s chosen among 45, 60, 75 and 90 s on exploration seeds no evaluation draws (analyses/vt/README.md).
 */
export const UNANIMOUS_WITHIN_S = 60;

/**
 * Whether every classic VT1 criterion is accepted and their readings (breakpoint + `readLater_s`, where an
 * expert marks it) lie within UNANIMOUS_WITHIN_S of their median. A criterion that could not run, or was not
 * accepted, leaves the landmarks short of unanimous.
 */
export function unanimousVt1(criteria: CriterionEvidence[], readLater_s: number): boolean {
  const read = criteria.filter((e) => e.accepted && e.index !== null).map((e) => (e.index as number) + readLater_s);
  if (read.length < CRITERIA.VT1.length) return false;
  const sorted = [...read].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
  return read.every((t) => Math.abs(t - median) <= UNANIMOUS_WITHIN_S);
}
