/**
 * The words that must travel with the numbers (spec 1 and 2.2): the research-software disclaimer,
 * the rules about reading the analyses, and every note each envelope carries.
 */
import type { SubstrateFindings } from '../client/index.js';
import { landmarksValue } from './overlay-state.js';
import { plain } from './plain.js';
import type { Results } from './results.js';

export const DISCLAIMER =
  'Research software: the output is not a diagnosis. No output carries a confidence score; quality describes the input recording only. Agreement with expert labelling has been measured; calibration against clinical outcomes has not.';

/** The spec's rules about reading the analyses (section 1). */
export const READING_RULES = [
  'Landmarks (V-slope, respiratory compensation, VE/VCO2 nadir, PetCO2 peak) corroborate a threshold model and never override it; phase boundaries carry an error of tens of seconds.',
  'Above RER 1.0 the substrate fat rate is an upper bound, not a measurement. A ramp protocol never reaches steady state, so FATMAX reads high and is not comparable with a graded test.',
  'EOV is beta: its transportability to other populations is untested, and every output is a research finding.',
  'Quality describes the input coverage of VE, VO2 and VCO2 and whether the sampling interval is known; it is not a confidence in the result.',
];

export interface Note {
  source: string;
  text: string;
}

/** Every envelope note (default model and alternative engines), the substrate's warnings and the landmarks' reading, in the page's words. */
export function resultNotes(results: Results): Note[] {
  const out: Note[] = [];
  const runs = [{ label: '', run: results.analyses }, ...results.alternatives.map((a) => ({ label: ` (${a.model.name})`, run: a.run }))];
  for (const { label, run } of runs) {
    if (!run.ok) continue;
    for (const e of run.value.results) for (const n of e.notes) out.push({ source: `${e.analysis}${label}`, text: plain(n) });
  }
  const substrate = results.analyses.ok ? results.analyses.value.results.find((e) => e.analysis === 'substrate' && e.status === 'ok') : undefined;
  for (const flag of (substrate?.findings as SubstrateFindings | undefined)?.flags ?? []) {
    if (flag.severity === 'warning') out.push({ source: 'substrate flag', text: plain(flag.detail) });
  }
  const reading = landmarksValue(results)?.reading;
  if (reading) out.push({ source: 'landmarks', text: reading });
  const seen = new Set<string>();
  return out.filter((n) => !seen.has(n.text) && seen.add(n.text));
}
