/**
 * Measurement artefacts the generator does not make, laid over a generated recording: analyser gain
 * errors on VO2 and VCO2, end-tidal offsets, slow drift of the end-tidal gases and of VE, and extra
 * breath noise. Used to train a model that leans on no single clean cue, and as a held-out stress
 * cohort on which that robustness can be measured rather than assumed. Seeded.
 */
import type { ChannelName, Recording } from '../../src/recording/recording.js';
import { seededRandom } from './mlp.js';

/** The kinds of artefact one draw lays over a recording; each can be left out to see what it alone does (vt1-errors.ts --without). */
export const ARTIFACT_KINDS = ['gain', 'offset', 'drift_end_tidal', 'drift_ve', 'noise'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/**
 * Applies one random draw of artefacts; `strength` in [0, 1] scales every one of them. The kinds in `without`
 * are drawn but not applied, so every other artefact of the draw stays exactly as it was.
 */
export function withArtifacts(rec: Recording, seed: number, strength = 1, without: ReadonlySet<ArtifactKind> = new Set()): Recording {
  const r = seededRandom(seed);
  const u = (lo: number, hi: number) => lo + (hi - lo) * r();
  const normal = () => Math.sqrt(-2 * Math.log(Math.max(r(), 1e-12))) * Math.cos(2 * Math.PI * r());
  const gain: Partial<Record<ChannelName, number>> = { VO2: 1 + strength * u(-0.07, 0.07), VCO2: 1 + strength * u(-0.07, 0.07), VE: 1 + strength * u(-0.05, 0.05) };
  const offset: Partial<Record<ChannelName, number>> = { PetO2: strength * u(-15, 5), PetCO2: strength * u(-3, 3) };
  // Drift: one slow sinusoid per channel, period 4-15 min, amplitude in the channel's unit.
  const driftAmp: Partial<Record<ChannelName, number>> = { PetO2: strength * u(0, 5), PetCO2: strength * u(0, 2.5), VE: strength * u(0, 0.06) };
  const driftPeriod = u(240, 900);
  const driftPhase = u(0, 2 * Math.PI);
  const noiseCv = strength * u(0, 0.06);
  const channels = { ...rec.channels };
  for (const name of ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'] as const) {
    const data = rec.channels[name];
    if (!data) continue;
    const values = data.values.map((v, i) => {
      if (v === null) return null;
      const wave = Math.sin((2 * Math.PI * rec.t_s[i]) / driftPeriod + driftPhase);
      let x = v * (without.has('gain') ? 1 : (gain[name] ?? 1)) + (without.has('offset') ? 0 : (offset[name] ?? 0));
      if (name === 'VE') x *= 1 + (without.has('drift_ve') ? 0 : (driftAmp.VE ?? 0)) * wave;
      else x += (without.has('drift_end_tidal') ? 0 : (driftAmp[name] ?? 0)) * wave;
      // The normal draw is taken whether or not it is applied, so leaving noise out shifts no later draw.
      if (name === 'VO2' || name === 'VCO2' || name === 'VE') {
        const e = normal();
        if (!without.has('noise')) x *= 1 + noiseCv * e;
      }
      return x;
    });
    channels[name] = { ...data, values };
  }
  return { ...rec, channels };
}
