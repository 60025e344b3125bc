/**
 * The notes the API contract says must accompany the numbers (spec section 1 and its rules), in the
 * words a tool description carries them to an agent, and which tools carry which.
 */

export const RESEARCH =
  'Research software: the output is not a diagnosis. No output carries a confidence score; `quality` describes the input recording only (coverage of VE, VO2, VCO2 and whether the sampling interval is known). Agreement with expert labelling has been measured; calibration against clinical outcomes has not.';

export const ENVELOPE_NOTES = "Each envelope's `notes` are caveats that must accompany its numbers in any report built on them; quote them with the numbers.";

export const THRESHOLDS =
  'VT1 and VT2 come as time from the start of the recording (s) and as oxygen uptake (mL/min). The same recording gives the same numbers on the same model version (`provenance.model_version`).';

export const EOV_BETA = 'Oscillatory ventilation (`eov`) is beta: its transportability to other populations is untested, and every EOV output is a research finding.';

export const SUBSTRATE =
  'Substrate: above RER 1.0 the fat rate is an upper bound, not a measurement; a ramp protocol never reaches steady state, so FATMAX (a fitted turning point, not a measured sample) reads high and is not comparable with a graded test. Both conditions are flagged in the result.';

export const LANDMARKS =
  'Landmarks (V-slope, respiratory compensation, VE/VCO2 nadir, PetCO2 peak) corroborate a threshold model and never override it; phase boundaries carry an error of tens of seconds.';

export const WEB_ONLY =
  'The per-second exercise intensity domains and the alternative threshold engine are shown in the web application only: not through these tools (naming the alternative engine as `model` answers MODEL_NOT_FOUND inside the result).';

export const SERIES = 'For plotting and inspection only, never for computing: every measurement runs on the full-resolution record (use analyzeCpet and computeMetrics).';

export const SYNTHETIC = 'The sample is synthetic: made by a seeded generator, not measured on a person.';

/** The notes each tool's description carries, by operationId. */
export const NOTES_BY_OPERATION: Readonly<Record<string, readonly string[]>> = {
  analyzeCpet: [RESEARCH, ENVELOPE_NOTES, THRESHOLDS, EOV_BETA, SUBSTRATE, LANDMARKS, WEB_ONLY],
  computeMetrics: [RESEARCH, LANDMARKS, SUBSTRATE],
  getCpetSeries: [SERIES],
  getSample: [SYNTHETIC],
};

/** The server's instructions to an agent: what the service is and the order of the calls. */
export const INSTRUCTIONS = [
  'Tools of the CPET analysis service (cardiopulmonary exercise tests). Lifecycle: getCapabilities; upload an export unchanged (uploadCpetFile with a path, or uploadCpetContent with its text or base64) to get a cpet_id; analyzeCpet (ventilatory thresholds vt, oscillatory ventilation eov, substrate use); computeMetrics (names from listMetrics); deleteCpet, or let the record expire. Never parse, convert or rename a file yourself: the service detects the format; an UNSUPPORTED_FORMAT error gives in context.recovery the canonical JSON shape to convert into.',
  RESEARCH,
  ENVELOPE_NOTES,
].join('\n\n');
