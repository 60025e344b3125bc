/**
 * The model card (models/<name>/<version>/card.json) and the promotion gate of spec rule 4: a
 * threshold model is production only after an evaluation on a cohort it never saw clears all four
 * of VO2 bias <= 120 mL/min, VO2 r >= 0.80, time bias <= 60 s, time r >= 0.80.
 */
import type { ChannelName } from '../../src/recording/recording.js';
import type { Surface, Tier } from '../../src/analyses/analysis-plugin.js';

/** The four limits of spec rule 4 (bias as an absolute mean signed error). */
export const GATE = { vo2_bias_ml_min: 120, vo2_r: 0.8, time_bias_s: 60, time_r: 0.8 } as const;
/** Fewest tests with a threshold for a correlation to count towards the gate. */
export const GATE_MIN_TESTS = 30;

/** Agreement of one threshold with the truth over one cohort (tests where both exist). */
export interface ThresholdAgreement {
  /** Tests where both the truth and the estimate exist. */
  n: number;
  /** Tests with a true threshold where the engine gave none. */
  missed: number;
  /** Tests without a true threshold where the engine gave one. */
  spurious: number;
  vo2_bias_ml_min: number | null;
  vo2_r: number | null;
  vo2_mae_ml_min: number | null;
  time_bias_s: number | null;
  time_r: number | null;
  time_mae_s: number | null;
}

/**
 * What test length alone would score, beside the model (issue 24: time correlation mostly measures test
 * length). Baselines are leave-one-out over the cohort's truths and never read gas data: VT1 = the other
 * tests' mean VT1 fraction of the recording x this recording's length; VT2 = this recording's end minus
 * the other tests' median VT2-to-end offset.
 */
export interface LengthAwareFigures {
  /** Tests with a true threshold where the model gave one, % (null without true thresholds). */
  found_pct: number | null;
  /** Mean |time error| as a fraction of the recording's length, %. */
  time_mae_pct_duration: number | null;
  /** Mean |VO2 error| as a share of the test's VO2peak (the findings' vo2peak_ml_min), %. */
  vo2_mae_pct_vo2peak: number | null;
  /** Mean |time error| of the two baselines, s, over every test with a true threshold. */
  baseline_time_mae_s: { fraction_of_length: number | null; end_minus_offset: number | null };
}

/** Fewest true VT2 a cohort must give a model a VT2 for, % (issue 24). */
export const MIN_VT2_FOUND_PCT = 80;

export interface CohortEvaluation {
  cohort: string;
  /** True when no test of the cohort was used in training or tuning. */
  unseen: boolean;
  n_tests: number;
  vt1: ThresholdAgreement;
  vt2: ThresholdAgreement;
  /** Length-aware figures and the baselines (evaluations from issue 24 on). */
  length_aware?: { vt1: LengthAwareFigures; vt2: LengthAwareFigures };
  /** Errors per test (estimate minus truth), given for small real cohorts. */
  per_test?: Record<string, unknown>[];
  /** What a reader must know about the cohort for this model (e.g. a test possibly in its training data). */
  notes?: string;
}

export interface ModelCard {
  name: string;
  version: string;
  tier: Tier;
  status: 'production' | 'research';
  engine: 'learned' | 'classic';
  description: string;
  inputs: ChannelName[];
  /** Where the model is served; both when absent. The alternative engine is `web` only (spec section 1). */
  surfaces?: Surface[];
  /** The engine that runs and, when it answers curves, the decision rule (analyses/vt/pipeline.ts). */
  pipeline: { engine: string; decision?: string };
  /** How the engine prepares its input; each engine names the fields it reads (averaged_rows is read for every engine). */
  preprocessing?: Record<string, unknown>;
  /** The weights file and its sha256 (learned models only). */
  weights?: { file: string; sha256: string };
  evaluation: {
    evaluated_at: string;
    command: string;
    cohorts: CohortEvaluation[];
    /** Per real vendor file: 'pass', the refusal, or the sanity rules broken. */
    vendor_sanity?: { file: string; result: string }[];
    /** What the run says in words: the gate, the real-test errors, whether this is the default and why, and what it does not establish. */
    reading?: Record<string, unknown>;
  } | null;
  [extra: string]: unknown;
}

/**
 * Where a model places the rows of an averaged export (`preprocessing.averaged_rows`): `as_stamped`
 * (absent: every version before the field) reads each bin mean at its time stamp; `interval_centre`
 * at the centre of the bin it averages, half a bin before the stamp (analyses/vt/preprocess.ts).
 */
export const AVERAGED_ROWS = ['as_stamped', 'interval_centre'] as const;
export type AveragedRows = (typeof AVERAGED_ROWS)[number];

/**
 * A card's choice among `values` for `preprocessing[key]`: the first value when the card names none
 * (every version before the field), else the one named; throws with the reason when it names another.
 */
export function preprocessingChoice<T extends string>(card: Pick<ModelCard, 'preprocessing'>, key: string, values: readonly T[]): T {
  const named = card.preprocessing?.[key];
  if (named === undefined) return values[0];
  if (!(values as readonly unknown[]).includes(named)) throw new Error(`preprocessing.${key} ${String(named)} is not one of ${values.join(', ')}`);
  return named as T;
}

/** The card's `preprocessing.averaged_rows`; throws with the reason when it names an unknown placement. */
export function averagedRowsOf(card: Pick<ModelCard, 'preprocessing'>): AveragedRows {
  return preprocessingChoice(card, 'averaged_rows', AVERAGED_ROWS);
}

/**
 * Over what range the Oxynet engine min-max scales each channel (`preprocessing.scaling_range`):
 * `test_span` (absent: every version before the field) over the measured span, so the range, and every
 * scaled second, depends on where the test stops; `reference_tail` over the range the test would have
 * spanned had it run on as long past its respiratory compensation as the model's training tests did
 * (analyses/vt/engines/oxynet/reference-range.ts).
 */
export const SCALING_RANGES = ['test_span', 'reference_tail'] as const;
export type ScalingRange = (typeof SCALING_RANGES)[number];

/** The card's `preprocessing.scaling_range`; throws with the reason when it names an unknown range. */
export function scalingRangeOf(card: Pick<ModelCard, 'preprocessing'>): ScalingRange {
  return preprocessingChoice(card, 'scaling_range', SCALING_RANGES);
}

/**
 * How the oxynet-cnn engine smooths an averaged export before the model reads it
 * (`preprocessing.averaged_smoothing`, engines/oxynet/breath-mean.ts): `time_span` (absent: every
 * version before the field) a centred mean over the seconds 20 breaths took, at 30 breaths/min where
 * the export has no RF; `breaths` the 20-breath mean breath-by-breath data get, over breaths laid at
 * the breathing rate the export gives (RF, else VE / tidal volume, else estimated from VE).
 */
export const AVERAGED_SMOOTHING = ['time_span', 'breaths'] as const;
export type AveragedSmoothing = (typeof AVERAGED_SMOOTHING)[number];

/** The card's `preprocessing.averaged_smoothing`; throws with the reason when it names an unknown smoothing. */
export function averagedSmoothingOf(card: Pick<ModelCard, 'preprocessing'>): AveragedSmoothing {
  return preprocessingChoice(card, 'averaged_smoothing', AVERAGED_SMOOTHING);
}

/**
 * Where the respiratory compensation is sought in the gases (`preprocessing.compensation_search`,
 * decision/end-compensation.ts): `last_180_s` (absent: every version before the field) over the last 180 s
 * of exercise; `whole_test` over the whole stretch first, from VT1 in the decision, from the exercise onset for the
 * reference_tail scaling anchor (read before VT1 is known), and over the last 180 s where it shows none.
 */
export const COMPENSATION_SEARCH = ['last_180_s', 'whole_test'] as const;
export type CompensationSearch = (typeof COMPENSATION_SEARCH)[number];

/** The card's `preprocessing.compensation_search`; throws with the reason when it names an unknown search. */
export function compensationSearchOf(card: Pick<ModelCard, 'preprocessing'>): CompensationSearch {
  return preprocessingChoice(card, 'compensation_search', COMPENSATION_SEARCH);
}

/**
 * How the 1-Hz preparation removes cough and swallow breaths (`preprocessing.breath_despiking`,
 * analyses/vt/preprocess.ts): `running_median` (absent: every version before the field) replaces every
 * second by its 15-s median; `hampel` only the seconds the Hampel identifier flags (analyses/vt/hampel.ts),
 * so the series keeps the mean of the breaths an averaged export carries.
 */
export const BREATH_DESPIKING = ['running_median', 'hampel'] as const;
export type BreathDespiking = (typeof BREATH_DESPIKING)[number];

/** The card's `preprocessing.breath_despiking`; throws with the reason when it names an unknown one. */
export function breathDespikingOf(card: Pick<ModelCard, 'preprocessing'>): BreathDespiking {
  return preprocessingChoice(card, 'breath_despiking', BREATH_DESPIKING);
}

/** Why one threshold's agreement misses the gate (empty when it clears). */
export function agreementFailures(a: ThresholdAgreement, label: string): string[] {
  const out: string[] = [];
  if (a.n < GATE_MIN_TESTS) out.push(`${label}: ${a.n} tests, fewer than ${GATE_MIN_TESTS}`);
  if (a.vo2_bias_ml_min === null || Math.abs(a.vo2_bias_ml_min) > GATE.vo2_bias_ml_min) out.push(`${label}: VO2 bias ${a.vo2_bias_ml_min} mL/min exceeds ${GATE.vo2_bias_ml_min}`);
  if (a.vo2_r === null || a.vo2_r < GATE.vo2_r) out.push(`${label}: VO2 r ${a.vo2_r} below ${GATE.vo2_r}`);
  if (a.time_bias_s === null || Math.abs(a.time_bias_s) > GATE.time_bias_s) out.push(`${label}: time bias ${a.time_bias_s} s exceeds ${GATE.time_bias_s}`);
  if (a.time_r === null || a.time_r < GATE.time_r) out.push(`${label}: time r ${a.time_r} below ${GATE.time_r}`);
  return out;
}

/**
 * Why a card may not be production: empty when every unseen cohort large enough to count (at least
 * GATE_MIN_TESTS tests) clears all four limits for both VT1 and VT2, and there is at least one such
 * cohort. Smaller unseen cohorts (a handful of real labelled tests) are reported but cannot count.
 */
export function gateFailures(card: Pick<ModelCard, 'evaluation'>): string[] {
  const cohorts = (card.evaluation?.cohorts ?? []).filter((c) => c.unseen && c.n_tests >= GATE_MIN_TESTS);
  if (cohorts.length === 0) return ['no evaluation on an unseen cohort'];
  return cohorts.flatMap((c) => [...agreementFailures(c.vt1, `${c.cohort} VT1`), ...agreementFailures(c.vt2, `${c.cohort} VT2`), ...lengthFailures(c)]);
}

/**
 * The stricter half of the gate (issue 24), for evaluations that record it: VT2 found on at least
 * MIN_VT2_FOUND_PCT % of the tests that reach it, and each threshold's time MAE below both baselines'.
 */
function lengthFailures(c: CohortEvaluation): string[] {
  const l = c.length_aware;
  if (!l) return [];
  const out: string[] = [];
  if (l.vt2.found_pct !== null && l.vt2.found_pct < MIN_VT2_FOUND_PCT) out.push(`${c.cohort} VT2: found on ${l.vt2.found_pct} % of tests that reach it, below ${MIN_VT2_FOUND_PCT} %`);
  for (const [label, a, f] of [
    ['VT1', c.vt1, l.vt1],
    ['VT2', c.vt2, l.vt2],
  ] as const) {
    for (const [name, b] of Object.entries(f.baseline_time_mae_s)) {
      if (b !== null && (a.time_mae_s === null || a.time_mae_s >= b)) out.push(`${c.cohort} ${label}: time MAE ${a.time_mae_s} s does not beat the ${name.replaceAll('_', ' ')} baseline's ${b} s`);
    }
  }
  return out;
}
