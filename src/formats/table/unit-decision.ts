/**
 * The one place a table column's unit is decided: from the units row when it names one, else from
 * the header text, else from the vendor's known convention, else from the values' range. Every
 * decision the file did not state is a parser flag. A column whose stated unit measures something
 * else (a load in kcal, a heart rate in ms) is never read as that channel.
 */
import type { ChannelName, ParserFlag } from '../../recording/recording.js';
import { CHANNEL_UNITS } from '../../recording/recording.js';
import { inferGasFlowFactor, inferPressureFactor } from '../../recording/units.js';
import { unitMeaning, type UnitKind } from './unit-words.js';

/** Where a unit came from; `vendor` is the vendor's known convention for a column that states none. */
export type UnitSource = 'units row' | 'header' | 'vendor' | 'values' | 'assumed' | 'canonical';

export type UnitDecision = { factor: number; unit_in: string; source: UnitSource } | { reject: string };

export interface StatedUnit {
  /** The units-row cell, when the table has a units row. */
  row: string | null;
  /** A unit written in the header (`VO2 (L/min)`). */
  header: string | null;
  /** The vendor's convention, with why, for a column whose file states no unit (MGC's speed in mph). */
  vendor?: { unit: string; reason: string };
}

/** What each channel must measure, the factor from that kind's canonical unit to the channel's, and what it is called. */
const KINDS: Readonly<Record<ChannelName, { kind: UnitKind; scale: number; what: string }>> = {
  VO2: { kind: 'gas_flow', scale: 1, what: 'a gas flow' },
  VCO2: { kind: 'gas_flow', scale: 1, what: 'a gas flow' },
  VE: { kind: 'gas_flow', scale: 0.001, what: 'a ventilation' },
  VT: { kind: 'volume', scale: 1, what: 'a volume' },
  PetO2: { kind: 'pressure', scale: 1, what: 'a pressure' },
  PetCO2: { kind: 'pressure', scale: 1, what: 'a pressure' },
  RF: { kind: 'rate', scale: 1, what: 'a rate per minute' },
  HR: { kind: 'rate', scale: 1, what: 'a rate per minute' },
  Load: { kind: 'power', scale: 1, what: 'a work rate' },
  Speed: { kind: 'speed', scale: 1, what: 'a speed' },
  Grade: { kind: 'percent', scale: 1, what: 'a grade in %' },
  RER: { kind: 'ratio', scale: 1, what: 'a ratio' },
  SpO2: { kind: 'percent', scale: 1, what: 'a saturation in %' },
};

/** Tidal volumes above this are millilitres (no breath holds 10 L). */
const VT_ML_ABOVE = 10;

/** Decides the unit of channel `name` (header `header`) from what the file states and, failing that, its values. */
export function decideUnit(name: ChannelName, header: string, stated: StatedUnit, values: readonly (number | null)[], flags: ParserFlag[]): UnitDecision {
  const { kind, scale, what } = KINDS[name];
  const rowText = stated.row?.trim() ?? '';
  const candidates: [string, UnitSource][] = [];
  if (rowText !== '') candidates.push([rowText, 'units row']);
  if (stated.header) candidates.push([stated.header, 'header']);
  if (stated.vendor) candidates.push([stated.vendor.unit, 'vendor']);
  let unrecognised: string | null = null;
  for (const [text, source] of candidates) {
    const meaning = unitMeaning(text);
    if (!meaning) {
      unrecognised ??= text;
      continue;
    }
    if (meaning.kind === kind) {
      if (source === 'vendor') flags.push({ code: 'unit_assumed', detail: `${header} has no unit; read as ${text}: ${stated.vendor?.reason}` });
      return { factor: meaning.factor * scale, unit_in: text, source };
    }
    // Percent under a rate, a ratio under a grade: the unit is for another quantity; the column is not this channel.
    return { reject: `the ${header} column is in ${text}, not ${what}${name === 'Load' ? ': its unit is not watts' : ''}` };
  }
  return fromValues(name, header, unrecognised, values, flags);
}

/** No usable unit stated: magnitude where it tells, the channel's only unit in use where there is one. */
function fromValues(name: ChannelName, header: string, unrecognised: string | null, values: readonly (number | null)[], flags: ParserFlag[]): UnitDecision {
  const said = unrecognised === null ? `${header} has no unit` : `${header} unit "${unrecognised}" not recognised`;
  const inferred = (factor: number, unit: string): UnitDecision => {
    flags.push({ code: 'unit_inferred', detail: `${said}; read as ${unit} from its magnitude` });
    return { factor, unit_in: unit, source: 'values' };
  };
  switch (name) {
    case 'VO2':
    case 'VCO2': {
      const guess = inferGasFlowFactor(values as (number | null)[]);
      return guess ? inferred(guess.factor, guess.inferred) : { reject: `${said} and its magnitude does not tell mL/min from L/min` };
    }
    case 'PetO2':
    case 'PetCO2': {
      const guess = inferPressureFactor(values as (number | null)[]);
      return guess ? inferred(guess.factor, guess.inferred) : { reject: `${said} and its magnitude is neither kPa nor mmHg` };
    }
    case 'VT': {
      let peak = 0;
      for (const v of values) if (v !== null && Math.abs(v) > peak) peak = Math.abs(v);
      return peak > VT_ML_ABOVE ? inferred(0.001, 'mL') : inferred(1, 'L');
    }
    case 'Load':
      if (unrecognised !== null) return { reject: `the ${header} column is in ${unrecognised}, not a work rate: its unit is not watts` };
      return { factor: 1, unit_in: CHANNEL_UNITS.Load, source: 'canonical' };
    case 'Speed':
      flags.push({ code: 'unit_assumed', detail: `${said}; assumed km/h (mph cannot be told from km/h by the values)` });
      return { factor: 1, unit_in: 'km/h', source: 'assumed' };
    default:
      // VE, RF, HR, Grade, RER, SpO2: one unit in use, so an unstated unit is that unit.
      if (unrecognised !== null) {
        flags.push({ code: 'unit_assumed', detail: `${said}; assumed ${CHANNEL_UNITS[name]}` });
        return { factor: 1, unit_in: CHANNEL_UNITS[name], source: 'assumed' };
      }
      return { factor: 1, unit_in: CHANNEL_UNITS[name], source: 'canonical' };
  }
}
