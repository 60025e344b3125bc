/**
 * Per-second probabilities of the three exercise-intensity domains (moderate, heavy, severe) on the
 * prepared 1-Hz grid: what a learned engine gives and a decision rule turns into VT1 and VT2. At
 * each second the three sum to one.
 */
export interface DomainCurves {
  moderate: Float64Array;
  heavy: Float64Array;
  severe: Float64Array;
}
