/**
 * Zero-lag Butterworth low-pass (Butterworth 1930), the filter spiro's `spiro_smooth` offers as
 * "fz": the filter run forwards then backwards (as MATLAB's and SciPy's filtfilt), so the output has
 * no phase delay and the order is doubled in effect. Sections from the bilinear transform with
 * pre-warping (Bristow-Johnson, Audio EQ Cookbook); the signal is extended by odd reflection at each
 * end so the filter starts and stops on the signal's level instead of on zero.
 */

interface Section {
  b: [number, number, number];
  a: [number, number];
}

/** The cascade for an order-`order` low-pass at `cutoff_hz` on a grid of `fs_hz`. */
function sections(cutoff_hz: number, fs_hz: number, order: number): Section[] {
  const out: Section[] = [];
  const w0 = (2 * Math.PI * cutoff_hz) / fs_hz;
  const cos = Math.cos(w0);
  for (let k = 1; k <= Math.floor(order / 2); k++) {
    // Pole pair k of the analogue prototype sits at angle theta; its quality factor is -1 / (2 cos theta).
    const theta = (Math.PI * (2 * k + order - 1)) / (2 * order);
    const q = -1 / (2 * Math.cos(theta));
    const alpha = Math.sin(w0) / (2 * q);
    const a0 = 1 + alpha;
    out.push({ b: [(1 - cos) / 2 / a0, (1 - cos) / a0, (1 - cos) / 2 / a0], a: [(-2 * cos) / a0, (1 - alpha) / a0] });
  }
  if (order % 2 === 1) {
    const k = Math.tan(w0 / 2);
    out.push({ b: [k / (1 + k), k / (1 + k), 0], a: [(k - 1) / (k + 1), 0] });
  }
  return out;
}

function runSection(x: Float64Array, s: Section): Float64Array {
  const y = new Float64Array(x.length);
  // Start in the steady state of the first value, so a constant input passes through unchanged.
  let x1 = x[0];
  let x2 = x[0];
  let y1 = x[0];
  let y2 = x[0];
  for (let i = 0; i < x.length; i++) {
    const v = s.b[0] * x[i] + s.b[1] * x1 + s.b[2] * x2 - s.a[0] * y1 - s.a[1] * y2;
    x2 = x1;
    x1 = x[i];
    y2 = y1;
    y1 = v;
    y[i] = v;
  }
  return y;
}

/** Forward-backward Butterworth low-pass of a uniformly sampled, gap-free signal. */
export function filtfiltLowPass(x: ArrayLike<number>, fs_hz: number, cutoff_hz: number, order: number): Float64Array {
  const n = x.length;
  if (n === 0) return new Float64Array(0);
  const pad = Math.min(n - 1, Math.ceil(fs_hz / cutoff_hz));
  const ext = new Float64Array(n + 2 * pad);
  for (let i = 0; i < pad; i++) {
    ext[i] = 2 * x[0] - x[pad - i];
    ext[n + pad + i] = 2 * x[n - 1] - x[n - 2 - i];
  }
  for (let i = 0; i < n; i++) ext[pad + i] = x[i];
  const cascade = sections(cutoff_hz, fs_hz, order);
  let y: Float64Array = ext;
  for (const s of cascade) y = runSection(y, s);
  y.reverse();
  for (const s of cascade) y = runSection(y, s);
  y.reverse();
  return y.slice(pad, pad + n);
}
