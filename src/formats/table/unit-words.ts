/**
 * The units a CPET table writes, as one vocabulary: every spelling seen in a units row or inside a
 * header (`L(btps)`, `(mL/kg/min)`, `b/min`, `Kmh*10`, `hh:mm:ss.z`) reduced to a key, and the key
 * to the kind of quantity it measures and the factor to that kind's canonical unit.
 */
import { MMHG_PER_KPA } from '../../recording/units.js';

/** 1 mile per hour in km/h (international mile, 1959). */
const KMH_PER_MPH = 1.609344;
/** 1 m/s in km/h. */
const KMH_PER_MS = 3.6;

/** What a unit measures. `per_kg_flow` is VO2 per body mass; `clock` is a time written as h:mm:ss. */
export type UnitKind = 'gas_flow' | 'per_kg_flow' | 'volume' | 'pressure' | 'percent' | 'rate' | 'power' | 'speed' | 'duration' | 'clock' | 'ratio' | 'other';

export interface UnitMeaning {
  kind: UnitKind;
  /** Multiply by this to reach the canonical unit of the kind (mL/min, L, mmHg, %, 1/min, W, km/h, s). */
  factor: number;
}

/**
 * A unit cell reduced for comparison: lower case, no spaces or brackets, no BTPS/STPD/ATPS
 * qualifier, `·`, `^-1` and `min-1` spelled as `/min`. `L(btps)` and `l` give the same key.
 */
export function unitKey(text: unknown): string {
  if (text === null || text === undefined) return '';
  return String(text)
    .toLowerCase()
    .replace(/[\s()[\]]/g, '')
    .replace(/btps|stpd|atps/g, '')
    .replace(/·/g, '/')
    .replace(/min(\^)?-1$/, '/min')
    .replace(/^1\/min$/, '/min');
}

/** A litre is a litre however it is spelled. */
const VOLUME_PER_MINUTE = ['l/min', 'l/m', 'lpm', 'litres/min', 'liters/min'];

const MEANINGS: ReadonlyMap<string, UnitMeaning> = new Map<string, UnitMeaning>([
  ...VOLUME_PER_MINUTE.map((k) => [k, { kind: 'gas_flow' as const, factor: 1000 }] as const),
  ['ml/min', { kind: 'gas_flow', factor: 1 }],
  ['ml/m', { kind: 'gas_flow', factor: 1 }],
  ...['ml/kg/min', 'ml/min/kg', 'ml/kg/m', 'ml/kg/minute'].map((k) => [k, { kind: 'per_kg_flow' as const, factor: 1 }] as const),
  ['l', { kind: 'volume', factor: 1 }],
  ['ml', { kind: 'volume', factor: 0.001 }],
  ['mmhg', { kind: 'pressure', factor: 1 }],
  ['torr', { kind: 'pressure', factor: 1 }],
  ['kpa', { kind: 'pressure', factor: MMHG_PER_KPA }],
  ['%', { kind: 'percent', factor: 1 }],
  ['vol%', { kind: 'percent', factor: 1 }],
  ...['/min', 'bpm', 'b/min', 'br/min', 'breaths/min', 'beats/min', 'bpmin', '/minute', 'atemzüge/min', 'schläge/min'].map((k) => [k, { kind: 'rate' as const, factor: 1 }] as const),
  ...['w', 'watt', 'watts'].map((k) => [k, { kind: 'power' as const, factor: 1 }] as const),
  ...['km/h', 'kmh', 'kph', 'km/hr', 'km/t'].map((k) => [k, { kind: 'speed' as const, factor: 1 }] as const),
  // spiro: COSMED's "Kmh*10" holds tenths of km/h.
  ['kmh*10', { kind: 'speed', factor: 0.1 }],
  ['mph', { kind: 'speed', factor: KMH_PER_MPH }],
  ['mi/h', { kind: 'speed', factor: KMH_PER_MPH }],
  ['m/s', { kind: 'speed', factor: KMH_PER_MS }],
  ...['s', 'sec', 'secs', 'seconds', 'sek'].map((k) => [k, { kind: 'duration' as const, factor: 1 }] as const),
  ...['min', 'mins', 'minutes', 'minuten'].map((k) => [k, { kind: 'duration' as const, factor: 60 }] as const),
  ...['h', 'hr', 'hours', 'std'].map((k) => [k, { kind: 'duration' as const, factor: 3600 }] as const),
  ['ms', { kind: 'duration', factor: 0.001 }],
  ...['h:mm:ss', 'hh:mm:ss', 'mm:ss', 'm:ss', 'hh:mm:ss.z', 'hh:mm:ss,z', 'h:mm:ss.z', 'h:mm:ss,z', 'mm:ss.z', 'hh:mm', 'h:mm', 'clock'].map(
    (k) => [k, { kind: 'clock' as const, factor: 1 }] as const,
  ),
  ...['---', '--', 'ratio', 'bt/st'].map((k) => [k, { kind: 'ratio' as const, factor: 1 }] as const),
  // Units a CPET table carries in columns that are not read; known, so a units row is recognised by them.
  ...[
    'kcal',
    'kcal/h',
    'kcal/d',
    'kcal/day',
    'kcal/min',
    'kj',
    'g/h',
    'g/min',
    'g/d',
    'g/day',
    'g/dag',
    'mmol/l',
    'mmol',
    'ml/beat',
    'ml/bpm',
    'ml/w',
    'ml/min/w',
    'l/s',
    'mv',
    '°c',
    'm',
    'rpm',
    '#',
    'mets',
    'kcal/kg/day',
    'kcal/d/kg',
  ].map((k) => [k, { kind: 'other' as const, factor: 1 }] as const),
]);

/** Unit cells already read, by their text: a table repeats the same few units. */
const MEMO = new Map<string, UnitMeaning | null>();
const MEMO_LIMIT = 10_000;

/** What a unit cell means, or null when it is empty or not a unit this vocabulary knows. */
export function unitMeaning(text: unknown): UnitMeaning | null {
  if (typeof text !== 'string') return text === null || text === undefined ? null : (MEANINGS.get(unitKey(text)) ?? null);
  let meaning = MEMO.get(text);
  if (meaning === undefined) {
    const key = unitKey(text);
    meaning = key === '' ? null : (MEANINGS.get(key) ?? null);
    if (MEMO.size >= MEMO_LIMIT) MEMO.clear();
    MEMO.set(text, meaning);
  }
  return meaning;
}
