/**
 * The one place a column's unit is decided for the table-shaped exports: from the units row when it
 * names one, else from magnitude with a parser flag. A load column in anything but watts (kcal, kJ)
 * is never read as load.
 */
import type { ChannelName, ParserFlag } from '../recording/recording.js';
import {
  gasFlowFactorToMl,
  inferGasFlowFactor,
  inferPressureFactor,
  normaliseUnit,
  pressureFactorToMmhg,
} from '../recording/units.js';

/** Multiply by `factor` to reach the canonical unit; or why the column cannot be that channel. */
export type UnitDecision = { factor: number; unit_in: string } | { reject: string };

const KMH_PER_MPH = 1.609344;
const KMH_PER_MS = 3.6;

/** Decides the unit of channel `name` from its unit cell and, failing that, its values. */
export function decideUnit(name: ChannelName, unit: string, values: (number | null)[], flags: ParserFlag[]): UnitDecision {
  const u = normaliseUnit(unit);
  const stated = unit.trim();
  switch (name) {
    case 'VO2':
    case 'VCO2':
      return statedOrInferred(name, stated, gasFlowFactorToMl(unit), () => inferGasFlowFactor(values), flags);
    case 'PetO2':
    case 'PetCO2':
      return statedOrInferred(name, stated, pressureFactorToMmhg(unit), () => inferPressureFactor(values), flags);
    case 'Load':
      if (u === 'w' || u === 'watt' || u === 'watts') return { factor: 1, unit_in: stated };
      return { reject: `the ${stated || 'unitless'} column is not a work rate: its unit is not watts` };
    case 'Speed':
      // spiro: COSMED's "Kmh*10" holds tenths of km/h.
      if (u === 'kmh*10') return { factor: 0.1, unit_in: stated };
      if (u === 'mph') return { factor: KMH_PER_MPH, unit_in: stated };
      if (u === 'm/s') return { factor: KMH_PER_MS, unit_in: stated };
      return statedOrAssumed(name, u === 'km/h' || u === 'kmh' || u === 'kph', stated, 'km/h', flags);
    case 'VT':
      if (u === 'ml') return { factor: 0.001, unit_in: stated };
      return statedOrAssumed(name, u === 'l', stated, 'L', flags);
    case 'VE':
      return statedOrAssumed(name, u === 'l/min', stated, 'L/min', flags);
    default:
      return { factor: 1, unit_in: stated };
  }
}

function statedOrInferred(
  name: ChannelName,
  stated: string,
  factor: number | null,
  infer: () => { factor: number; inferred: string } | null,
  flags: ParserFlag[],
): UnitDecision {
  if (factor !== null) return { factor, unit_in: stated };
  const inferred = infer();
  if (!inferred) return { reject: `${name} unit "${stated}" not recognised and its magnitude does not tell` };
  flags.push({ code: 'unit_inferred', detail: `${name} unit "${stated}" not recognised; read as ${inferred.inferred} from its magnitude` });
  return { factor: inferred.factor, unit_in: inferred.inferred };
}

function statedOrAssumed(name: ChannelName, known: boolean, stated: string, canonical: string, flags: ParserFlag[]): UnitDecision {
  if (!known) flags.push({ code: 'unit_assumed', detail: `${name} unit "${stated}" not recognised; assumed ${canonical}` });
  return { factor: 1, unit_in: known ? stated : canonical };
}
