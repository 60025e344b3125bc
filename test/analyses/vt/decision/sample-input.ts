/** The public sample as a decision rule receives it: checked, on its 1-Hz grid, with no engine attached and a card that names no preprocessing choice. */
import type { DomainCurves } from '../../../../analyses/vt/decision/curves.js';
import type { EngineInput } from '../../../../analyses/vt/engines/engine.js';
import { exerciseEndIndex } from '../../../../analyses/vt/exercise-end.js';
import { checkInput } from '../../../../analyses/vt/input-check.js';
import { generateSampleTest } from '../../../../src/synthetic/sample.js';

export const sample = generateSampleTest(false);
const check = checkInput(sample.recording, ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2']);
if (!check.ok) throw new Error('the sample must pass the input check');
export const checked = check;
export const input = { model: { card: { preprocessing: {} } }, rec: sample.recording, test: checked.test, exercise_start_index: checked.exercise_start_index } as unknown as EngineInput;
/** Seconds of the grid's first point, and the grid's length. */
export const t0 = checked.test.t0_s;
export const n = checked.test.n;
/** Grid index of the sample's last second of exercise. */
export const end = exerciseEndIndex(sample.recording, checked.test);
/** Grid index of the sample's true VT1. */
export const vt1Truth = Math.round(sample.truth.vt1!.time_s - t0);

/** Curves that leave moderate at `vt1` and reach severe at `vt2` (grid indices), read to the last second of exercise. */
export function curves(vt1: number, vt2: number): DomainCurves {
  const c: DomainCurves = { moderate: new Float64Array(n).fill(NaN), heavy: new Float64Array(n).fill(NaN), severe: new Float64Array(n).fill(NaN) };
  const step = (i: number, at: number) => Math.min(1, Math.max(0, 0.5 + (i - at) / 4));
  for (let i = 0; i <= end; i++) {
    const beyond = step(i, vt1);
    const q = step(i, vt2);
    c.moderate[i] = 1 - beyond;
    c.heavy[i] = beyond * (1 - q);
    c.severe[i] = beyond * q;
  }
  return c;
}
