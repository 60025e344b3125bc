/**
 * `preprocessing.vt1_bound`: whether VT1 is held before the respiratory compensation the gases show. `none`
 * (absent: every version before the field) places VT1 where the curves and landmarks put it.
 * `before_compensation`: the heavy domain, where isocapnic buffering holds PetCO2 and VE/VCO2, lies between VT1
 * and the respiratory compensation point (Whipp, Davis & Wasserman 1989), so a VT1 placed less than
 * MIN_VT_GAP_S before the compensation the gases show over the whole test was read where the heavy domain had
 * already passed; VT1 is then the median of the gas-exchange landmarks read before that bound, the V-slope
 * (Beaver, Wasserman & Whipp 1986, who chose it because it does not depend on the ventilatory response) and
 * excess CO2 (Gaskill et al. 2001), which read VO2 and VCO2 alone. Without one there, VT1 stays as placed.
 */
import { preprocessingChoice, type ModelCard } from '../card.js';
import { CRITERIA, type CriterionEvidence } from '../engines/wasserman/criteria.js';

export const VT1_BOUNDS = ['none', 'before_compensation'] as const;
export type Vt1Bound = (typeof VT1_BOUNDS)[number];

/** The card's `preprocessing.vt1_bound`; throws with the reason when it names an unknown bound. */
export function vt1BoundOf(card: Pick<ModelCard, 'preprocessing'>): Vt1Bound {
  return preprocessingChoice(card, 'vt1_bound', VT1_BOUNDS);
}

/** The criteria that read VO2 and VCO2 alone. */
const GAS_EXCHANGE: ReadonlySet<string> = new Set(CRITERIA.VT1.filter((c) => c.channels.every((ch) => ch === 'VO2' || ch === 'VCO2')).map((c) => c.criterion));

/**
 * The grid index VT1 moves to when `placed` lies at or after `bound` (the compensation minus the heavy domain's
 * shortest span): the median of the accepted gas-exchange landmarks read (breakpoint + `readLater_s`) at or
 * before the bound; null when VT1 lies before the bound or no such landmark exists.
 */
export function vt1BeforeCompensation(placed: number, bound: number, criteria: CriterionEvidence[], readLater_s: number): number | null {
  if (placed < bound) return null;
  const read = criteria
    .filter((e) => GAS_EXCHANGE.has(e.criterion) && e.accepted && e.index !== null && (e.index as number) + readLater_s <= bound)
    .map((e) => (e.index as number) + readLater_s)
    .sort((a, b) => a - b);
  if (read.length === 0) return null;
  const m = read.length >> 1;
  return read.length % 2 ? read[m] : Math.floor((read[m - 1] + read[m]) / 2);
}
