/**
 * What the plot draws over the data, taken from the answers as they are: thresholds from the vt
 * envelopes, landmarks from the `landmarks` metric, the domain curves from the web application's route.
 */
import type { VtFindings } from '../client/index.js';
import { words } from './format.js';
import { engineColor } from './plot/colors.js';
import { exerciseEnd, implausibilities, type Implausibility } from './plausibility.js';
import type { LandmarkMark, OverlayState, ThresholdMark } from './plot/overlays.js';
import { envelopeOf, ranModel, type Results } from './results.js';

/** Short marker labels of the landmarks the `landmarks` metric reports (others get their own name). */
const LANDMARK_NAMES: Record<string, [string, string]> = {
  v_slope_breakpoint: ['VS', 'V-slope breakpoint'],
  rcp_breakpoint: ['RC', 'respiratory compensation breakpoint'],
  ve_vco2_nadir: ['Nd', 'VE/VCO2 nadir'],
  petco2_peak: ['Pc', 'PetCO2 peak'],
  'rer_crossing_1.0': ['R1', 'RER crossing 1.0'],
  vo2peak_30s: ['Pk', '30-s VO2 peak'],
};

interface LandmarksValue {
  points?: Record<string, { t_s: number | null; vo2: number | null }>;
  not_found?: Record<string, string>;
  reading?: string;
}

/** The `landmarks` metric's value, when it is ok. */
export function landmarksValue(results: Results): LandmarksValue | null {
  const m = results.metrics.ok ? results.metrics.value.metrics.landmarks : undefined;
  return m && m.status === 'ok' ? (m.value as LandmarksValue) : null;
}

/** A landmark's name for a reader. */
export function landmarkName(key: string): string {
  return LANDMARK_NAMES[key]?.[1] ?? words(key);
}

export function landmarkMarks(results: Results): LandmarkMark[] {
  const points = landmarksValue(results)?.points ?? {};
  return (
    Object.entries(points)
      .filter(([, p]) => p && p.t_s !== null)
      .map(([key, p]) => {
        const [short, label] = LANDMARK_NAMES[key] ?? [key.slice(0, 2).toUpperCase(), words(key)];
        return { short, label, t_s: p.t_s as number, vo2_ml_min: p.vo2 };
      })
      // In time order, so neighbours get different label rows on the plot.
      .sort((a, b) => a.t_s - b.t_s)
  );
}

/** The vt findings of an envelope that is ok, else null. */
export function vtFindings(run: Results['analyses']): VtFindings | null {
  const e = envelopeOf(run, 'vt');
  return e && e.status === 'ok' ? (e.findings as VtFindings) : null;
}

/** One threshold engine as the page shows it: its colour, its lines and what is implausible about them. */
export interface Engine {
  /** The model's name (the default model's included), for labels. */
  name: string;
  /** "name version" of the model that ran. */
  ran: string;
  role: 'default' | 'alternative';
  color: string;
  dashed: boolean;
  findings: VtFindings | null;
  implausible: Implausibility[];
}

/** The default model, then each alternative engine, each in its own colour. */
export function engines(results: Results): Engine[] {
  const end = exerciseEnd(results.summary);
  const runs = [
    { role: 'default' as const, run: results.analyses, name: null as string | null },
    ...results.alternatives.map((a) => ({ role: 'alternative' as const, run: a.run, name: a.model.name })),
  ];
  return runs.map(({ role, run, name }, i) => {
    const findings = vtFindings(run);
    const ran = ranModel(run, 'vt');
    return {
      name: name ?? envelopeOf(run, 'vt')?.provenance.model ?? 'default model',
      ran: ran ?? name ?? 'default model',
      role,
      color: engineColor(i),
      dashed: role === 'alternative',
      findings,
      implausible: findings ? implausibilities(findings, end) : [],
    };
  });
}

/** An engine's lines on the plot; a line after exercise ended is left out (the page says why). */
function marks(engine: Engine, end: number | null): ThresholdMark[] {
  const f = engine.findings;
  if (!f) return [];
  const suffix = engine.role === 'default' ? '' : ` ${engine.name}`;
  const out: ThresholdMark[] = [];
  for (const [line, t, vo2] of [
    ['VT1', f.vt1_time_s, f.vt1_vo2_ml_min],
    ['VT2', f.vt2_time_s, f.vt2_vo2_ml_min],
  ] as const) {
    if (t === null || (end !== null && t > end)) continue;
    const flags = engine.implausible.filter((x) => x.lines.includes(line));
    out.push({ label: `${line}${suffix}`, t_s: t, vo2_ml_min: vo2, color: engine.color, dashed: engine.dashed, warning: flags.length ? `⚠ ${flags.map((x) => x.short).join(', ')}` : null });
  }
  return out;
}

export function overlayState(results: Results): OverlayState {
  const end = exerciseEnd(results.summary);
  return {
    thresholds: engines(results).flatMap((e) => marks(e, end)),
    landmarks: landmarkMarks(results).filter((m) => end === null || m.t_s <= end),
    domains: results.domains.ok && results.domains.value.status === 'ok' ? results.domains.value : null,
    reading: null,
    shades: [],
  };
}
