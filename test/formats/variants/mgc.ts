/**
 * MGC Breeze-style layouts generated from the one real export: with a units row under the header,
 * as Breeze writes it when units are switched on (`(min) (min) (Clock) (MPH) (%) (mL/kg/min)
 * (mL/min) ...`; the shape the issue saw refused with `time "(min)" is not m:ss`).
 */
import { fixtureInput } from '../summary-snapshot.js';
import type { Variant } from './variant.js';

const FAMILY = 'mgc-breeze-txt';
const REAL = 'gasexchanger-aaron';

/** A unit per column of the real header, in Breeze's bracketed spelling. */
const UNITS: Record<string, string> = {
  Time: '(min)',
  'Ex Time': '(min)',
  'Time (Clock)': '(Clock)',
  Speed: '(MPH)',
  Grade: '(%)',
  VCO2: '(mL/min)',
  RER: '()',
  RR: '(br/min)',
  'Vt BTPS': '(mL)',
  'VE BTPS': '(L/min)',
  BR: '(%)',
  PETO2: '(mmHg)',
  PETCO2: '(mmHg)',
  HR: '(bpm)',
};

function withUnitsRow(): Buffer {
  const lines = fixtureInput(FAMILY, REAL).bytes.toString('latin1').split('\r\n');
  const header = lines[0].split('\t');
  let vo2 = 0;
  // The first VO2 is per kg, the second absolute, as in the real file.
  const units = header.map((name) => (name === 'VO2' ? (vo2++ === 0 ? '(mL/kg/min)' : '(mL/min)') : UNITS[name]));
  return Buffer.from([lines[0], units.join('\t'), ...lines.slice(1)].join('\r\n'), 'latin1');
}

export const MGC_VARIANTS: readonly Variant[] = [{ family: FAMILY, name: 'units-row-txt', filename: 'breeze-units.txt', bytes: withUnitsRow, original: REAL, format: FAMILY, time: 'same' }];
