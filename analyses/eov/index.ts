/** The EOV analysis plugin (research, beta): exercise oscillatory ventilation from VE and PetCO2. */
import type { AnalysisPlugin } from '../../src/analyses/analysis-plugin.js';
import { runEov } from './run.js';

const plugin: AnalysisPlugin = {
  name: 'eov',
  product: 'eov',
  requires: ['VE', 'PetCO2'],
  description: 'Exercise oscillatory ventilation (research, beta): grade, burden, the strongest oscillation with PetCO2 coupling, drive and loop-gain margin.',
  run: runEov,
};
export default plugin;
