/**
 * The plot's colours. Threshold lines use colours no series uses, so a line stays readable over the
 * data (and the browser tests find it by colour). Domain colours run green, amber, red.
 */
export const SERIES = {
  VE: '#1f2937',
  HR: '#b91c1c',
  O2pulse: '#0e7490',
  VO2: '#1d4ed8',
  VCO2: '#15803d',
  Load: '#6b7280',
  'VE/VO2': '#1d4ed8',
  'VE/VCO2': '#15803d',
  VT: '#92400e',
  RER: '#111827',
  PetO2: '#1d4ed8',
  PetCO2: '#15803d',
  fat: '#b45309',
  cho: '#1d4ed8',
} as const;

/**
 * One colour per threshold engine, used for both of its lines (VT1 and VT2 are told apart by their
 * labels): the default model first, then each alternative engine in the order the service lists them.
 * None is a series colour, the reading line's or a landmark's (Dark2 palette, colour-blind safe).
 */
export const ENGINE_COLORS = ['#d95f02', '#7570b3', '#e7298a', '#a6761d', '#1b9e77'] as const;

/** The colour of the i-th engine (0 the default model); engines past the palette reuse it, dashed apart. */
export function engineColor(i: number): string {
  return ENGINE_COLORS[i % ENGINE_COLORS.length];
}

/** The warning sign's colour beside an implausibly placed line. */
export const WARNING = '#b91c1c';

/** Samples the service flagged as implausible (HR and what derives from it): no series, engine or warning uses it. */
export const IMPLAUSIBLE = '#9333ea';

/** The reading line's own colour (nothing else is drawn in it, so an export can be checked for it). */
export const READING = '#52525b';
export const LANDMARK = '#374151';
export const DOMAIN = { moderate: '#66bb6a', heavy: '#ffb74d', severe: '#e57373' } as const;
export const EOV_SHADE = { strong: 'rgba(231, 41, 138, 0.16)', weak: 'rgba(231, 41, 138, 0.07)' } as const;
