/** The headline and summary: one plain sentence each that a clinician can read without the numbers' context. */
import type { EovEvent } from './evidence.js';
import type { Grading } from './grading.js';

/** One sentence naming the grade and, when graded, the period and which definition fired. */
export function headline(g: Grading, event: EovEvent | null): string {
  const fired = g.definitions.filter((d) => d.fired).map((d) => d.name);
  if (g.grade === 'none') {
    if (event?.protocol_driven_by) return `No exercise oscillatory ventilation; a ${Math.round(event.period_peak_s)}-s swing follows the protocol's stages and is not graded.`;
    if (event && !event.graded) return `No exercise oscillatory ventilation; a faster ${Math.round(event.period_peak_s)}-s breathing rhythm was seen but is not graded.`;
    return 'No exercise oscillatory ventilation.';
  }
  const kind = g.grade === 'sustained' ? 'Sustained' : 'Intermittent';
  return `${kind} exercise oscillatory ventilation, period about ${Math.round(event?.period_peak_s ?? 0)} s (${fired.join(' and ')}).`;
}

/** One sentence with the evidence: how much of exercise, how large, and what PetCO2 did. */
export function summary(g: Grading, event: EovEvent | null): string {
  if (!event) return 'Ventilation showed no periodic swing that stood out from its own breath-to-breath noise during the test.';
  if (event.protocol_driven_by) {
    return `Ventilation swung every ${Math.round(event.period_peak_s)} s in step with the protocol's changes of ${event.protocol_driven_by.toLowerCase()}, which is the response to the stages rather than an oscillation, so it was not graded.`;
  }
  if (!event.graded) {
    return `The clearest periodic swing in ventilation had a period of about ${Math.round(event.period_peak_s)} s, faster than the 40-140 s cycles the published EOV definitions grade, so it was reported but not graded.`;
  }
  const share = Math.round(g.burden * 100);
  const swing = `every ${Math.round(event.period_peak_s)} s by about ${event.amplitude_l_min.toFixed(1)} L/min peak to trough (${Math.round(event.amplitude_pct_ve)} % of ventilation) over ${share} % of exercise`;
  if (g.grade === 'none') {
    return `Ventilation swung ${swing}, ${event.corroborated ? 'with' : 'without'} end-tidal CO2 in antiphase, but too little or too irregularly to meet any EOV definition.`;
  }
  const co2 = event.corroborated ? 'with end-tidal CO2 moving in antiphase as expected' : 'but end-tidal CO2 did not move in antiphase to confirm it';
  return `Ventilation waxed and waned ${swing}, ${co2}.`;
}
