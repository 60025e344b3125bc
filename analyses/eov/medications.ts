/**
 * Medication adjustment of the EOV burden (analyze body `medications`). Every factor is 1.0 for
 * now: no published correction exists yet. Unknown names are accepted and named in the notes, not
 * refused, because refusing would block an analysis whose numbers the name could not change.
 */

/** Recognised drug classes and their burden factors (all 1.0 until a published correction exists). */
export const MEDICATION_FACTORS: Readonly<Record<string, number>> = {
  acetazolamide: 1.0,
  ace_inhibitor: 1.0,
  angiotensin_receptor_blocker: 1.0,
  benzodiazepine: 1.0,
  beta_blocker: 1.0,
  digoxin: 1.0,
  ivabradine: 1.0,
  loop_diuretic: 1.0,
  mineralocorticoid_antagonist: 1.0,
  opioid: 1.0,
  sacubitril_valsartan: 1.0,
  sglt2_inhibitor: 1.0,
  theophylline: 1.0,
};

/** What the requested medications did to the burden. */
export interface MedicationAdjustment {
  recognised: string[];
  unrecognised: string[];
  /** Product of the recognised factors; multiplies the burden. */
  factor: number;
}

/** Normalises a name: lower case, spaces, hyphens and slashes to underscores. */
export function normaliseMedication(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s\-/]+/g, '_');
}

/** Splits the requested names into recognised and unrecognised and multiplies the factors. */
export function medicationAdjustment(names: readonly string[] | null | undefined): MedicationAdjustment {
  const recognised: string[] = [];
  const unrecognised: string[] = [];
  let factor = 1;
  for (const raw of names ?? []) {
    const key = normaliseMedication(raw);
    const f = MEDICATION_FACTORS[key];
    if (f === undefined) unrecognised.push(raw);
    else {
      recognised.push(key);
      factor *= f;
    }
  }
  return { recognised, unrecognised, factor };
}
