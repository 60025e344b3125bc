/**
 * One story across analyses: when the eov analysis grades exercise oscillatory ventilation intermittent
 * or sustained, the vt notes say that thresholds read on this test are less reliable, and why. Waxing
 * and waning VE moves VE/VCO2, VE/VO2 and the end-tidal gases with it, so the breakpoints of every
 * ventilatory criterion (and the model's windows, built from the same signals) can follow a cycle of the
 * oscillation rather than the metabolism (Leite et al., J Am Coll Cardiol 2003; Corrà et al.,
 * Circulation 2002: EOV definitions used by analyses/eov).
 */
import type { AnalysisRequest } from '../../src/analyses/analysis-plugin.js';
import type { Recording } from '../../src/recording/recording.js';
import { runEov } from '../eov/run.js';

/** The note for a test whose ventilation oscillates, or null (also when eov cannot grade the test). */
export async function oscillationNote(rec: Recording, request: AnalysisRequest): Promise<string | null> {
  const eov = await runEov(rec, request);
  if (eov.status !== 'ok') return null;
  const grade = (eov.findings as { grade?: string }).grade;
  if (grade !== 'intermittent' && grade !== 'sustained') return null;
  return `Thresholds are less reliable on this test: the eov analysis grades its exercise oscillatory ventilation ${grade}, and the waxing and waning of VE moves VE/VCO2, VE/VO2 and the end-tidal gases, so a breakpoint (and the model's reading of the same signals) can follow a cycle of the oscillation instead of the metabolism.`;
}
