/**
 * Thresholds that contradict each other or the test, listed in the findings' evidence so a reader (and
 * the web page) can flag them instead of drawing them silently: pyoxynet's own rule, run as the
 * oxynet-cnn variant, places VT2 before VT1 on most real tests (issue 24).
 */
export interface Implausibility {
  code: 'vt2_before_vt1' | 'vt2_vo2_below_vt1' | 'after_exercise';
  detail: string;
}

interface Reported {
  time_s: number | null;
  vo2_ml_min: number | null;
}

/** What is implausible about VT1 and VT2 as reported; `exerciseEnd_s` is the last second of exercise (exercise-end.ts). */
export function implausibilities(vt1: Reported, vt2: Reported, exerciseEnd_s: number): Implausibility[] {
  const out: Implausibility[] = [];
  if (vt1.time_s !== null && vt2.time_s !== null && vt2.time_s <= vt1.time_s) {
    out.push({ code: 'vt2_before_vt1', detail: `VT2 at ${vt2.time_s} s is not after VT1 at ${vt1.time_s} s: the heavy domain lies between them.` });
  }
  if (vt1.vo2_ml_min !== null && vt2.vo2_ml_min !== null && vt2.vo2_ml_min <= vt1.vo2_ml_min) {
    out.push({ code: 'vt2_vo2_below_vt1', detail: `VO2 at VT2 (${vt2.vo2_ml_min} mL/min) is not above VO2 at VT1 (${vt1.vo2_ml_min} mL/min).` });
  }
  for (const [name, t] of [
    ['VT1', vt1.time_s],
    ['VT2', vt2.time_s],
  ] as const) {
    if (t !== null && t > exerciseEnd_s) out.push({ code: 'after_exercise', detail: `${name} at ${t} s is after the last second of exercise (${exerciseEnd_s} s).` });
  }
  return out;
}
