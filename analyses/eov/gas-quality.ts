/**
 * Whether the end-tidal CO2 trace can corroborate an oscillation: coverage, physiological range
 * and a trace that moves at all. A poor trace never corroborates.
 */
import { coverage, type Recording } from '../../src/recording/recording.js';

/** End-tidal CO2 outside this range is not a plausible end-tidal reading (mmHg). */
const PETCO2_MIN_MMHG = 15;
const PETCO2_MAX_MMHG = 70;
/** A trace whose standard deviation is below this is flat (a stuck analyser), mmHg. */
const FLAT_SD_MMHG = 0.2;

/** Verdict on the PetCO2 trace and the sentence behind it. */
export interface GasQuality {
  verdict: 'good' | 'acceptable' | 'poor';
  note: string;
}

/** Verdict on the PetCO2 trace with one sentence saying why. */
export function gasQuality(rec: Recording): GasQuality {
  const values = (rec.channels.PetCO2?.values ?? []).filter((v): v is number => v !== null && Number.isFinite(v));
  const cov = coverage(rec, 'PetCO2');
  const inRange = values.length ? values.filter((v) => v >= PETCO2_MIN_MMHG && v <= PETCO2_MAX_MMHG).length / values.length : 0;
  const m = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - m) * (b - m), 0) / Math.max(1, values.length));
  const figures = `coverage ${pct(cov)}, ${pct(inRange)} of readings within ${PETCO2_MIN_MMHG}-${PETCO2_MAX_MMHG} mmHg`;
  if (sd < FLAT_SD_MMHG) return { verdict: 'poor', note: `PetCO2 is flat (SD ${sd.toFixed(2)} mmHg): the analyser may not be reading; ${figures}.` };
  if (cov >= 0.95 && inRange >= 0.98) return { verdict: 'good', note: `PetCO2 ${figures}.` };
  if (cov >= 0.8 && inRange >= 0.9) return { verdict: 'acceptable', note: `PetCO2 ${figures}: some readings are missing or implausible.` };
  return { verdict: 'poor', note: `PetCO2 ${figures}: too many missing or implausible readings to corroborate an oscillation.` };
}

function pct(x: number): string {
  return `${Math.round(x * 1000) / 10} %`;
}
