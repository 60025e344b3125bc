/**
 * What the plot draws over the data, taken from the answers as they are: thresholds from the vt
 * envelopes, landmarks from the `landmarks` metric, the domain curves from the web application's route.
 */
import type { VtFindings } from '../client/index.js';
import { words } from './format.js';
import { THRESHOLD } from './plot/colors.js';
import type { LandmarkMark, OverlayState, ThresholdMark } from './plot/overlays.js';
import { envelopeOf, type Results } from './results.js';

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

export function landmarkMarks(results: Results): LandmarkMark[] {
  const points = landmarksValue(results)?.points ?? {};
  return Object.entries(points)
    .filter(([, p]) => p && p.t_s !== null)
    .map(([key, p]) => {
      const [short, label] = LANDMARK_NAMES[key] ?? [key.slice(0, 2).toUpperCase(), words(key)];
      return { short, label, t_s: p.t_s as number, vo2_ml_min: p.vo2 };
    })
    // In time order, so neighbours get different label rows on the plot.
    .sort((a, b) => a.t_s - b.t_s);
}

function marks(findings: VtFindings | null, colors: [string, string], dashed: boolean, suffix: string): ThresholdMark[] {
  if (!findings) return [];
  const out: ThresholdMark[] = [];
  if (findings.vt1_time_s !== null) out.push({ label: `VT1${suffix}`, t_s: findings.vt1_time_s, vo2_ml_min: findings.vt1_vo2_ml_min, color: colors[0], dashed });
  if (findings.vt2_time_s !== null) out.push({ label: `VT2${suffix}`, t_s: findings.vt2_time_s, vo2_ml_min: findings.vt2_vo2_ml_min, color: colors[1], dashed });
  return out;
}

/** The vt findings of an envelope that is ok, else null. */
export function vtFindings(run: Results['analyses']): VtFindings | null {
  const e = envelopeOf(run, 'vt');
  return e && e.status === 'ok' ? (e.findings as VtFindings) : null;
}

export function overlayState(results: Results): OverlayState {
  return {
    thresholds: [
      ...marks(vtFindings(results.analyses), [THRESHOLD.VT1, THRESHOLD.VT2], false, ''),
      ...results.alternatives.flatMap((a) => marks(vtFindings(a.run), [THRESHOLD.altVT1, THRESHOLD.altVT2], true, ` ${a.model.name}`)),
    ],
    landmarks: landmarkMarks(results),
    domains: results.domains.ok && results.domains.value.status === 'ok' ? results.domains.value : null,
    reading: null,
    shades: [],
  };
}
