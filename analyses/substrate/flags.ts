/**
 * The flags a substrate result carries (code, severity, detail). Each says what a reader must know
 * before trusting a number; rule 1 of the spec requires `rer_above_one` and `ramp_protocol`.
 */

/** Every flag code the analysis can raise (README lists what each means). */
export type FlagCode =
  | 'trimmed_to_exercise'
  | 'phases_not_found'
  | 'no_load'
  | 'rer_above_one'
  | 'rer_below_0_70'
  | 'ramp_protocol'
  | 'protocol_unknown'
  | 'stages_not_located'
  | 'few_valid_windows'
  | 'onset'
  | 'constant_load'
  | 'interval_protocol'
  | 'protocol_from_request'
  | 'impossible_values';

/** One flag of a substrate result. */
export interface SubstrateFlag {
  code: FlagCode;
  severity: 'info' | 'warning';
  detail: string;
}

/** A flag object. */
export function flag(code: FlagCode, severity: 'info' | 'warning', detail: string): SubstrateFlag {
  return { code, severity, detail };
}
