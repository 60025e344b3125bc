/**
 * A small multilayer perceptron (ReLU hidden layers, softmax output) trained by mini-batch Adam
 * (Kingma and Ba 2015) on cross-entropy, in plain TypeScript over Float64Array. Every random draw
 * comes from one seeded generator and the arithmetic order is fixed, so the same data and seed
 * give the same weights bit for bit, with no native or GPU kernel involved.
 */
import type { DenseLayer } from '../onnx/writer.js';

/** mulberry32: a small, fast, seedable 32-bit generator (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Layer {
  inputs: number;
  outputs: number;
  w: Float64Array;
  b: Float64Array;
  gw: Float64Array;
  gb: Float64Array;
  mw: Float64Array;
  vw: Float64Array;
  mb: Float64Array;
  vb: Float64Array;
}

export interface TrainOptions {
  hidden: number[];
  epochs: number;
  batch: number;
  learningRate: number;
  /** L2 penalty on weights (not biases). */
  weightDecay: number;
  seed: number;
  /** Called after each epoch with the mean training loss. */
  onEpoch?: (epoch: number, loss: number) => void;
}

/** A trained classifier: layers in order, the last one softmax. */
export class Mlp {
  private readonly layers: Layer[];

  constructor(sizes: number[], random: () => number) {
    this.layers = [];
    for (let l = 0; l + 1 < sizes.length; l++) {
      const inputs = sizes[l];
      const outputs = sizes[l + 1];
      const w = new Float64Array(inputs * outputs);
      // He initialisation for ReLU layers (He et al. 2015), Box-Muller normals from the seeded draw.
      const sd = Math.sqrt(2 / inputs);
      for (let i = 0; i < w.length; i++) {
        const u = Math.max(random(), 1e-12);
        w[i] = sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
      }
      const zeros = () => new Float64Array(inputs * outputs);
      const zb = () => new Float64Array(outputs);
      this.layers.push({ inputs, outputs, w, b: zb(), gw: zeros(), gb: zb(), mw: zeros(), vw: zeros(), mb: zb(), vb: zb() });
    }
  }

  /** Trains on row-major features x [n, F] with integer labels y; rows are shuffled each epoch from the seed. */
  fit(x: Float32Array, y: Int8Array, options: TrainOptions, random: () => number): void {
    const n = y.length;
    const f = this.layers[0].inputs;
    const order = Array.from({ length: n }, (_, i) => i);
    let step = 0;
    for (let epoch = 0; epoch < options.epochs; epoch++) {
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      // Cosine decay of the learning rate over the epochs.
      const lr = options.learningRate * 0.5 * (1 + Math.cos((Math.PI * epoch) / options.epochs));
      let lossSum = 0;
      for (let start = 0; start < n; start += options.batch) {
        const rows = order.slice(start, Math.min(n, start + options.batch));
        for (const layer of this.layers) {
          layer.gw.fill(0);
          layer.gb.fill(0);
        }
        for (const r of rows) lossSum += this.backprop(x.subarray(r * f, (r + 1) * f), y[r], 1 / rows.length);
        step++;
        this.adam(lr, options.weightDecay, step);
      }
      options.onEpoch?.(epoch, lossSum / n);
    }
  }

  /** Class probabilities for one row. */
  predict(row: ArrayLike<number>): Float64Array {
    const acts = this.forward(row);
    return acts[acts.length - 1];
  }

  /** The weights as ONNX-ready dense layers (float32). */
  toDense(): DenseLayer[] {
    return this.layers.map((l, i) => ({
      inputs: l.inputs,
      outputs: l.outputs,
      weights: Float32Array.from(l.w),
      bias: Float32Array.from(l.b),
      activation: i === this.layers.length - 1 ? ('softmax' as const) : ('relu' as const),
    }));
  }

  private forward(row: ArrayLike<number>): Float64Array[] {
    const acts: Float64Array[] = [Float64Array.from(row as ArrayLike<number>)];
    this.layers.forEach((layer, li) => {
      const input = acts[acts.length - 1];
      const out = Float64Array.from(layer.b);
      for (let i = 0; i < layer.inputs; i++) {
        const v = input[i];
        if (v === 0) continue;
        const base = i * layer.outputs;
        for (let o = 0; o < layer.outputs; o++) out[o] += v * layer.w[base + o];
      }
      if (li < this.layers.length - 1) {
        for (let o = 0; o < out.length; o++) if (out[o] < 0) out[o] = 0;
      } else {
        let max = Number.NEGATIVE_INFINITY;
        for (const v of out) max = Math.max(max, v);
        let s = 0;
        for (let o = 0; o < out.length; o++) {
          out[o] = Math.exp(out[o] - max);
          s += out[o];
        }
        for (let o = 0; o < out.length; o++) out[o] /= s;
      }
      acts.push(out);
    });
    return acts;
  }

  /** Adds this row's gradient (scaled by `scale`) and returns its cross-entropy loss. */
  private backprop(row: ArrayLike<number>, label: number, scale: number): number {
    const acts = this.forward(row);
    const probs = acts[acts.length - 1];
    let delta = Float64Array.from(probs);
    delta[label] -= 1;
    for (let li = this.layers.length - 1; li >= 0; li--) {
      const layer = this.layers[li];
      const input = acts[li];
      const prev = new Float64Array(layer.inputs);
      for (let o = 0; o < layer.outputs; o++) layer.gb[o] += delta[o] * scale;
      for (let i = 0; i < layer.inputs; i++) {
        const v = input[i];
        const base = i * layer.outputs;
        let s = 0;
        for (let o = 0; o < layer.outputs; o++) {
          if (v !== 0) layer.gw[base + o] += v * delta[o] * scale;
          s += layer.w[base + o] * delta[o];
        }
        // ReLU derivative: the gradient passes only where the input activation was positive.
        prev[i] = li > 0 && v <= 0 ? 0 : s;
      }
      delta = prev;
    }
    return -Math.log(Math.max(probs[label], 1e-12));
  }

  private adam(lr: number, weightDecay: number, step: number): void {
    const b1 = 0.9;
    const b2 = 0.999;
    const eps = 1e-8;
    const c1 = 1 - b1 ** step;
    const c2 = 1 - b2 ** step;
    for (const layer of this.layers) {
      for (let i = 0; i < layer.w.length; i++) {
        const g = layer.gw[i] + weightDecay * layer.w[i];
        layer.mw[i] = b1 * layer.mw[i] + (1 - b1) * g;
        layer.vw[i] = b2 * layer.vw[i] + (1 - b2) * g * g;
        layer.w[i] -= (lr * (layer.mw[i] / c1)) / (Math.sqrt(layer.vw[i] / c2) + eps);
      }
      for (let o = 0; o < layer.b.length; o++) {
        const g = layer.gb[o];
        layer.mb[o] = b1 * layer.mb[o] + (1 - b1) * g;
        layer.vb[o] = b2 * layer.vb[o] + (1 - b2) * g * g;
        layer.b[o] -= (lr * (layer.mb[o] / c1)) / (Math.sqrt(layer.vb[o] / c2) + eps);
      }
    }
  }
}
