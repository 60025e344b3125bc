/**
 * The Wasserman nine-panel plot in its canonical order (Wasserman et al., Principles of Exercise
 * Testing and Interpretation, 5th ed., 2012): 1 VE-t; 2 HR and O2 pulse-t; 3 VO2, VCO2 and load-t; 4 VE-VCO2;
 * 5 VCO2 and HR-VO2 (V-slope); 6 VE/VO2 and VE/VCO2-t; 7 VT-VE; 8 RER-t; 9 PetO2 and PetCO2-t.
 */
import { SERIES } from './colors.js';

export interface SeriesSpec {
  /** Series name as GET /v1/cpet/{id}/series knows it. */
  name: string;
  label: string;
  axis: 'y' | 'y2';
  color: string;
}

export interface PanelSpec {
  id: string;
  title: string;
  /** 'time', or the series on the x axis of an X-Y panel. */
  x: string;
  xLabel: string;
  series: SeriesSpec[];
}

/** The nine panels; `load` is the recording's work-rate channel (Load, or Speed on a treadmill). */
export function panelSpecs(load: 'Load' | 'Speed'): PanelSpec[] {
  const s = (name: string, label: string, axis: 'y' | 'y2' = 'y', color: string = SERIES[name as keyof typeof SERIES] ?? SERIES.Load): SeriesSpec => ({ name, label, axis, color });
  return [
    { id: 've', title: 'VE – time', x: 'time', xLabel: 'time', series: [s('VE', 'VE')] },
    { id: 'hr-o2pulse', title: 'HR and O2 pulse – time', x: 'time', xLabel: 'time', series: [s('HR', 'HR'), s('O2pulse', 'O2 pulse', 'y2')] },
    {
      id: 'vo2-vco2-load',
      title: `VO2, VCO2 and ${load === 'Load' ? 'load' : 'speed'} – time`,
      x: 'time',
      xLabel: 'time',
      series: [s('VO2', 'VO2'), s('VCO2', 'VCO2'), s(load, load === 'Load' ? 'load' : 'speed', 'y2', SERIES.Load)],
    },
    { id: 've-vco2', title: 'VE – VCO2', x: 'VCO2', xLabel: 'VCO2', series: [s('VE', 'VE')] },
    { id: 'v-slope', title: 'VCO2 and HR – VO2 (V-slope)', x: 'VO2', xLabel: 'VO2', series: [s('VCO2', 'VCO2'), s('HR', 'HR', 'y2')] },
    { id: 'equivalents', title: 'VE/VO2 and VE/VCO2 – time', x: 'time', xLabel: 'time', series: [s('VE/VO2', 'VE/VO2'), s('VE/VCO2', 'VE/VCO2')] },
    { id: 'vt-ve', title: 'Tidal volume – VE', x: 'VE', xLabel: 'VE', series: [s('VT', 'VT')] },
    { id: 'rer', title: 'RER – time', x: 'time', xLabel: 'time', series: [s('RER', 'RER')] },
    { id: 'pet', title: 'PetO2 and PetCO2 – time', x: 'time', xLabel: 'time', series: [s('PetO2', 'PetO2'), s('PetCO2', 'PetCO2')] },
  ];
}

/** Every series name the nine panels read. */
export function seriesNames(load: 'Load' | 'Speed'): string[] {
  return [...new Set(panelSpecs(load).flatMap((p) => [...(p.x === 'time' ? [] : [p.x]), ...p.series.map((s) => s.name)]))];
}
