/**
 * The synthetic cohorts every threshold model is evaluated on, built once per run so every model
 * reads the same recordings. All are held out: seeds and settings that no training recipe draws
 * (scripts/train/cohorts.ts; test/analyses/vt/cohorts.test.ts checks the seeds never overlap).
 */
import type { ModelCard } from '../../analyses/vt/card.js';
import type { Recording } from '../../src/recording/recording.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { GeneratorOptions, ThresholdTruth } from '../../src/synthetic/types.js';
import { withArtifacts } from './artifacts.js';
import { heldOutArtifactCohort, heldOutCohort, heldOutRealisticCohort, heldOutWideCohort } from './cohorts.js';

export interface EvaluationCohort {
  cohort: string;
  description: string;
  tests: { recording: Recording; truth: { vt1: ThresholdTruth | null; vt2: ThresholdTruth | null } }[];
  /** True when the model's training drew from this cohort (then it cannot count towards its gate). */
  seenBy(card: ModelCard): boolean;
}

const neverSeen = () => false;

/** Short-tail held-out seeds are 9_900_000 + i; averaged-export ones 9_950_000 + i (no training recipe draws either). */
export const HELD_OUT_SHORT_TAIL_SEED_BASE = 9_900_000;
export const HELD_OUT_AVERAGED_SEED_BASE = 9_950_000;
/** Where the short-tail cohort stops exercise after VT2, s: real incremental tests end soon after it (issue 24). */
const SHORT_TAIL_S: readonly [number, number] = [10, 60];
/** The averaged exports carts offer, s (issue 24: 5-20 s keep thresholds, 30 s is a common clinical export). */
export const AVERAGED_KINDS_S = [5, 10, 15, 20, 30] as const;

/** The held-out settings on new seeds, every test reaching VT2 and stopping 10-60 s after it (spread evenly by a fixed stride). */
export function heldOutShortTailCohort(perCell: number): GeneratorOptions[] {
  const span = SHORT_TAIL_S[1] - SHORT_TAIL_S[0] + 1;
  return heldOutCohort(perCell).map((o, i) => {
    const seed = HELD_OUT_SHORT_TAIL_SEED_BASE + i;
    return { ...o, seed, vt2_present: true, realism: { ...o.realism, end_after_vt2_s: SHORT_TAIL_S[0] + ((i * 37) % span) } };
  });
}

/** The held-out settings on new seeds, each test exported as one of the averaged kinds in turn. */
export function heldOutAveragedCohort(perCell: number): GeneratorOptions[] {
  return heldOutCohort(perCell).map((o, i) => ({ ...o, seed: HELD_OUT_AVERAGED_SEED_BASE + i, sampling: { kind: 'averaged', window_s: AVERAGED_KINDS_S[i % AVERAGED_KINDS_S.length] } }));
}

/** The held-out cohorts at `perCell` tests per protocol and fitness level (the wide and artefact ones at two thirds of that). */
export function evaluationCohorts(perCell: number): EvaluationCohort[] {
  const twoThirds = Math.ceil((perCell * 2) / 3);
  return [
    {
      cohort: 'synthetic held-out',
      description: "3 protocols x 4 fitness levels, the generator's default threshold placement.",
      tests: heldOutCohort(perCell).map((o) => generateTest(o)),
      seenBy: neverSeen,
    },
    {
      cohort: 'synthetic held-out, wide threshold placement',
      description: 'VT1 from 22 to 75 % and VT2 up to 95 % of the exercise span: a model that learned where thresholds usually sit fails here.',
      tests: heldOutWideCohort(twoThirds).map((o) => generateTest(o)),
      seenBy: neverSeen,
    },
    {
      cohort: 'synthetic held-out with measurement artefacts',
      description: 'analyser gain errors, end-tidal offsets and drift, extra noise laid over default tests (scripts/train/artifacts.ts).',
      tests: heldOutArtifactCohort(twoThirds).map((o) => {
        const g = generateTest(o);
        return { ...g, recording: withArtifacts(g.recording, o.seed) };
      }),
      seenBy: neverSeen,
    },
    {
      cohort: 'synthetic held-out, short tail',
      description: 'the held-out settings on new seeds, every test reaching VT2 and stopping 10-60 s after it, as real incremental tests do.',
      tests: heldOutShortTailCohort(perCell).map((o) => generateTest(o)),
      seenBy: neverSeen,
    },
    {
      cohort: 'synthetic held-out, averaged exports',
      description: `the held-out settings on new seeds, exported as fixed ${AVERAGED_KINDS_S.join(', ')}-s averages in turn.`,
      tests: heldOutAveragedCohort(twoThirds).map((o) => generateTest(o)),
      seenBy: neverSeen,
    },
    {
      cohort: 'synthetic held-out, realistic',
      description:
        'one test per even row of the Oxynet database summaries (real subjects, durations and expert threshold times; 90 with rest, 24 ramps without), criteria spread around the thresholds, measured breath noise, uneven starts, plateau or none, rolling and fixed averaged exports (src/synthetic realism options).',
      tests: heldOutRealisticCohort().map((o) => generateTest(o)),
      seenBy: (card) => String((card.training as { data?: string } | undefined)?.data ?? '').includes('trainingRealisticCohort'),
    },
  ];
}
