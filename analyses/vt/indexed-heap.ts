/**
 * A binary heap of sample indices that can remove any member where it sits (a sample knows its
 * slot), for windows that both gain and lose members: a running median keeps its two halves in two
 * of them. Samples are ordered by value, then by index: the order a stable sort gives them.
 */

/** A heap of indices into `values` (NaN-free); heaps sharing one `slot` array hold distinct indices. */
export class IndexedHeap {
  private readonly items: Int32Array;
  private count = 0;

  /** `slot[i]` is sample i's position in the heap holding it, or -1; `capacity` bounds the heap's size. */
  constructor(
    capacity: number,
    private readonly slot: Int32Array,
    private readonly values: Float64Array,
    private readonly largestFirst: boolean,
  ) {
    this.items = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The first sample in the heap's order; the heap must not be empty. */
  top(): number {
    return this.items[0];
  }

  holds(i: number): boolean {
    const at = this.slot[i];
    return at >= 0 && at < this.count && this.items[at] === i;
  }

  /** Whether sample a sorts before sample b (by value, then index); `largestFirst` heaps take the reverse. */
  private before(a: number, b: number): boolean {
    return this.largestFirst ? sortsBefore(this.values, b, a) : sortsBefore(this.values, a, b);
  }

  push(i: number): void {
    this.place(i, this.count++);
    this.up(this.count - 1);
  }

  pop(): number {
    const first = this.items[0];
    this.remove(first);
    return first;
  }

  remove(i: number): void {
    const at = this.slot[i];
    const last = this.items[--this.count];
    this.slot[i] = -1;
    if (at === this.count) return;
    this.place(last, at);
    this.up(at);
    this.down(this.slot[last]);
  }

  private place(i: number, at: number): void {
    this.items[at] = i;
    this.slot[i] = at;
  }

  private up(at: number): void {
    const i = this.items[at];
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(i, this.items[parent])) break;
      this.place(this.items[parent], at);
      at = parent;
    }
    this.place(i, at);
  }

  private down(at: number): void {
    const i = this.items[at];
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.count) break;
      if (child + 1 < this.count && this.before(this.items[child + 1], this.items[child])) child++;
      if (!this.before(this.items[child], i)) break;
      this.place(this.items[child], at);
      at = child;
    }
    this.place(i, at);
  }
}

/** The window order: by value, then by index (-0 and +0 are equal values, so they keep their index order). */
export function sortsBefore(values: Float64Array, a: number, b: number): boolean {
  return values[a] < values[b] || (values[a] === values[b] && a < b);
}
