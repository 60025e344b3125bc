/**
 * Series derived from the measured channels for plotting (Wasserman nine-panel plot, design 7):
 * ratios are always computed from VO2, VCO2, VE and HR, never trusted from the file.
 */
import { CHANNEL_NAMES, CHANNEL_UNITS, type ChannelName, type Recording } from './recording.js';

export const DERIVED_SERIES = {
  RER: { unit: 'ratio', needs: ['VO2', 'VCO2'] },
  'VE/VO2': { unit: 'ratio', needs: ['VE', 'VO2'] },
  'VE/VCO2': { unit: 'ratio', needs: ['VE', 'VCO2'] },
  O2pulse: { unit: 'mL/beat', needs: ['VO2', 'HR'] },
} as const satisfies Record<string, { unit: string; needs: ChannelName[] }>;

export type DerivedName = keyof typeof DERIVED_SERIES;

/** Every series name the recording can give: present channels, then the derived ones it has inputs for. */
export function availableSeries(rec: Recording): string[] {
  const present = CHANNEL_NAMES.filter((n) => rec.channels[n]);
  const derived = (Object.keys(DERIVED_SERIES) as DerivedName[]).filter((n) => !(present as string[]).includes(n) && DERIVED_SERIES[n].needs.every((c) => rec.channels[c]));
  return [...present, ...derived];
}

/** Values and unit of a series by name; undefined when the recording cannot give it. */
export function seriesValues(rec: Recording, name: string): { unit: string; values: (number | null)[] } | undefined {
  const data = rec.channels[name as ChannelName];
  if (data) return { unit: CHANNEL_UNITS[name as ChannelName], values: data.values };
  if (!(name in DERIVED_SERIES)) return undefined;
  const spec = DERIVED_SERIES[name as DerivedName];
  const [a, b] = spec.needs.map((c) => rec.channels[c]?.values);
  if (!a || !b) return undefined;
  // VO2 and VCO2 are in mL/min, VE in L/min: the equivalents are VE (L/min) over gas (L/min).
  const scale = name === 'VE/VO2' || name === 'VE/VCO2' ? 1000 : 1;
  const values = a.map((x, i) => {
    const y = b[i];
    if (x === null || y === null || y === 0) return null;
    return name === 'RER' ? y / x : (x * scale) / y;
  });
  return { unit: spec.unit, values };
}
