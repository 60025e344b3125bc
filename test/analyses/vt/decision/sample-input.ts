/** The public sample as a decision rule receives it: checked, on its 1-Hz grid, with no engine attached and a card that names no preprocessing choice. */
import type { EngineInput } from '../../../../analyses/vt/engines/engine.js';
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
