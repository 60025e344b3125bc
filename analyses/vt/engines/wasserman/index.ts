import type { Recording } from '../../../../src/recording/recording.js';
import { MIN_COVERAGE } from '../../input-check.js';
import type { PreparedTest } from '../../preprocess.js';
import type { Engine, EngineOutput } from '../engine.js';
import { ALL_CLASSIC_CHANNELS, type ClassicChannel, type CriterionEvidence } from './criteria.js';
import { classicThresholds } from './thresholds.js';

const METHOD = 'median of accepted criteria (Gaskill et al. 2001)';

function toTime(test: PreparedTest, items: CriterionEvidence[]) {
  return items.map(({ index, ...rest }) => ({ ...rest, time_s: index === null ? null : test.t0_s + index }));
}

/** The classic engine (v1.1.0): breakpoints of the Wasserman criteria combined by median (thresholds.ts), on all five channels. */
export const wasserman: Engine = {
  id: 'wasserman',
  family: 'classic',
  answers: 'thresholds',
  async run({ test, exercise_start_index }) {
    const r = classicThresholds(test, exercise_start_index);
    return {
      kind: 'thresholds',
      vt1: r.vt1_index === null ? null : { index: r.vt1_index },
      vt2: r.vt2_index === null ? null : { index: r.vt2_index },
      evidence: { method: METHOD, vt1_criteria: toTime(test, r.vt1_evidence), vt2_criteria: toTime(test, r.vt2_evidence) },
    };
  },
};

/** Why a channel cannot be read: absent (with the parser's reason) or too sparse. */
function unreadableReason(rec: Recording, test: PreparedTest, channel: ClassicChannel): string | null {
  if (!rec.channels[channel]) return rec.absent[channel] ?? 'not in the recording';
  if (test.coverage[channel] < MIN_COVERAGE) return `covers ${Math.round(test.coverage[channel] * 100)} % of the recording, less than ${MIN_COVERAGE * 100} %`;
  return null;
}

/**
 * The classic engine on the channels a file has (v1.2.0): each criterion runs when its channels
 * are readable (V-slope and excess CO2: VO2, VCO2; ventilatory equivalents: VE with VO2 or VCO2;
 * end-tidal: PetO2, PetCO2), the rest are listed as not run with the channels they lacked. On a
 * file with all five channels it is v1.1.0 exactly.
 */
export const wassermanOnChannels: Engine = {
  id: 'wasserman-channels',
  family: 'classic',
  answers: 'thresholds',
  async run({ rec, test, exercise_start_index }): Promise<EngineOutput> {
    const unreadable = new Map<ClassicChannel, string>();
    for (const c of ALL_CLASSIC_CHANNELS) {
      const why = unreadableReason(rec, test, c);
      if (why !== null) unreadable.set(c, why);
    }
    const readable = new Set([...ALL_CLASSIC_CHANNELS].filter((c) => !unreadable.has(c)));
    const r = classicThresholds(test, exercise_start_index, readable);
    const notes: string[] = [];
    if (r.not_run.length) {
      const missing = [...unreadable.keys()];
      notes.push(
        `Classic criteria on the channels this file has (${[...readable].join(', ')}): ${r.not_run.map((c) => c.criterion).join(', ')} could not run without ${missing.join(', ')}; VT1 and VT2 are the median of the criteria that ran.`,
      );
    }
    const vt2Ran = r.vt2_evidence.length > 0;
    return {
      kind: 'thresholds',
      vt1: r.vt1_index === null ? null : { index: r.vt1_index },
      vt2: r.vt2_index === null ? null : { index: r.vt2_index },
      evidence: {
        method: METHOD,
        channels_read: [...readable],
        vt1_criteria: toTime(test, r.vt1_evidence),
        vt2_criteria: toTime(test, r.vt2_evidence),
        criteria_not_run: r.not_run.map((c) => ({ ...c, why: c.missing.map((m) => `${m}: ${unreadable.get(m)}`).join('; ') })),
      },
      notes,
      ...(vt2Ran
        ? {}
        : {
            vt2_not_sought: `No VT2: none of its criteria can run on this file (they need VE or PetCO2; ${['VE', 'PetCO2'].filter((c) => unreadable.has(c as ClassicChannel)).join(' and ')} not readable), so VT2 was not sought.`,
          }),
    };
  },
};
