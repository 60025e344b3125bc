/**
 * The Oxynet CNN's input: 40-s windows of five 1-Hz channels (VO2, VCO2, VE, PetO2, PetCO2), each
 * min-max scaled over the whole test (Zignoli et al., Eur J Sport Sci 2022).
 */

/** Time steps per window (40 s at 1 Hz). */
export const WINDOW_S = 40;
/** The model's input channels, in order. */
export const OXYNET_CHANNELS = ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'] as const;

/** Min-max scaling over the whole series: (x - min) / (max - min); throws on a constant or non-finite series. */
export function minMaxScale(values: ArrayLike<number>, name = 'channel'): Float64Array {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) throw new Error(`${name} holds a non-finite value at index ${i}`);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!(max > min)) throw new Error(`${name} is constant over the test; it cannot be min-max scaled`);
  return rangeScale(values, min, max);
}

/** (x - min) / (max - min) over a range given by the caller (values outside it fall outside [0, 1]). */
export function rangeScale(values: ArrayLike<number>, min: number, max: number, name = 'channel'): Float64Array {
  if (!(max > min) || !Number.isFinite(max - min)) throw new Error(`${name} has an empty or non-finite range; it cannot be scaled`);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = (values[i] - min) / (max - min);
  return out;
}

/**
 * The five 1-Hz series (OXYNET_CHANNELS order, already scaled) interleaved as the windows lay them
 * out, second then channel, in float32; throws unless every window at `starts` (40 s each) fits.
 */
export function interleaved(channels: readonly ArrayLike<number>[], starts: readonly number[]): Float32Array {
  if (channels.length !== OXYNET_CHANNELS.length) throw new Error(`expected ${OXYNET_CHANNELS.length} channels, got ${channels.length}`);
  const length = channels[0].length;
  if (channels.some((c) => c.length !== length)) throw new Error('the channels differ in length');
  for (const start of starts) {
    if (!Number.isInteger(start) || start < 0 || start + WINDOW_S > length) throw new Error(`window start ${start} does not fit a ${length}-s series`);
  }
  const c = channels.length;
  const series = new Float32Array(length * c);
  for (let ch = 0; ch < c; ch++) {
    const values = channels[ch];
    for (let t = 0, at = ch; t < length; t++, at += c) series[at] = values[t];
  }
  return series;
}

/**
 * Stacks windows into the model's input [N, 40, 5] (row-major: window, second, channel).
 * `channels` are the five 1-Hz series in OXYNET_CHANNELS order (already scaled); window k covers
 * indices starts[k] .. starts[k] + 39. Each window is one contiguous copy of the interleaved series,
 * each value rounded to float32 once however many windows hold it.
 */
export function buildWindows(channels: readonly ArrayLike<number>[], starts: readonly number[]): Float32Array {
  const series = interleaved(channels, starts);
  const size = WINDOW_S * OXYNET_CHANNELS.length;
  const out = new Float32Array(starts.length * size);
  for (let k = 0; k < starts.length; k++) out.set(series.subarray(starts[k] * OXYNET_CHANNELS.length, starts[k] * OXYNET_CHANNELS.length + size), k * size);
  return out;
}
