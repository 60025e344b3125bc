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

/** The default model's VT1 and VT2 (solid) and the alternative engine's (dashed). */
export const THRESHOLD = {
  VT1: '#d95f02',
  VT2: '#7570b3',
  altVT1: '#a6761d',
  altVT2: '#e7298a',
} as const;

/** The reading line's own colour (nothing else is drawn in it, so an export can be checked for it). */
export const READING = '#52525b';
export const LANDMARK = '#374151';
export const DOMAIN = { moderate: '#66bb6a', heavy: '#ffb74d', severe: '#e57373' } as const;
export const EOV_SHADE = { strong: 'rgba(231, 41, 138, 0.16)', weak: 'rgba(231, 41, 138, 0.07)' } as const;
