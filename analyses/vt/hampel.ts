/**
 * De-spiking that keeps the mean of the breaths (`preprocessing.breath_despiking: hampel`): the Hampel
 * identifier (Hampel, J Am Stat Assoc 1974; as a running filter, Pearson, IEEE Trans Control Syst Technol
 * 2002) replaces a second by its window's median only where it lies more than HAMPEL_T scaled median
 * absolute deviations from it, and leaves every other second as measured.
 *
 * Why: the running median every published version applies (preprocess.ts) replaces every second of a
 * breath-by-breath series by the median of its breaths, a location estimate an averaged export can never
 * carry (a cart writes the mean of the breaths in each bin). Where the breaths' distribution is skewed the
 * two differ, and the landmarks fitted on them move: on the Exercise Threshold App test the excess-CO2
 * breakpoint reads 539 s from the median of its breaths and 511-522 s from every averaged export of them
 * (and 517 s from the breaths without the median), so it leaves VT1's undecided zone on every export
 * (analyses/vt/README.md, "Averaged exports"). Cough and swallow breaths, what the median is there for,
 * lie far outside the breaths' spread and are still replaced.
 */
import { medianFilter } from './grid-filters.js';

/** Scaled MADs beyond which a second is an outlier (Pearson 2002: the usual Hampel threshold t = 3). */
const HAMPEL_T = 3;
/** MAD to standard deviation for Gaussian data (1 / the normal's 75th percentile). */
const MAD_TO_SD = 1.4826;

/** `values` with each second more than HAMPEL_T scaled MADs from its window's median (2 * half + 1 s, shrinking at the edges) replaced by that median; input must be NaN-free. */
export function hampelFilter(values: Float64Array, half: number): Float64Array {
  const n = values.length;
  const med = medianFilter(values, half);
  const out = Float64Array.from(values);
  const deviations: number[] = [];
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - half);
    const hi = Math.min(n - 1, i + half);
    deviations.length = 0;
    for (let j = lo; j <= hi; j++) deviations.push(Math.abs(values[j] - med[i]));
    deviations.sort((a, b) => a - b);
    const m = deviations.length >> 1;
    const mad = deviations.length % 2 ? deviations[m] : (deviations[m - 1] + deviations[m]) / 2;
    if (Math.abs(values[i] - med[i]) > HAMPEL_T * MAD_TO_SD * mad) out[i] = med[i];
  }
  return out;
}
