/**
 * A growable binary min-heap of task ids ordered by a caller-owned key array, ties broken by the id.
 * The list schedulers key tasks by their priority position (unique); the simulator's queues may hold a
 * task more than once (a killed task is pushed again), so the heap grows, and stale entries are the
 * caller's to skip (lazy deletion).
 */
export class MinHeap {
  private a: Int32Array;
  size = 0;

  constructor(
    private readonly key: Int32Array,
    capacity = 16,
  ) {
    this.a = new Int32Array(Math.max(1, capacity));
  }

  clear(): void {
    this.size = 0;
  }

  push(x: number): void {
    if (this.size === this.a.length) {
      const n = new Int32Array(this.a.length * 2);
      n.set(this.a);
      this.a = n;
    }
    const a = this.a;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(x, a[p])) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }

  /** The smallest id without removing it, or -1 when empty. */
  peek(): number {
    return this.size === 0 ? -1 : this.a[0];
  }

  pop(): number {
    const a = this.a;
    const top = a[0];
    a[0] = a[--this.size];
    this.resift();
    return top;
  }

  /** The top's key grew: moves it down to its place. */
  resift(): void {
    const a = this.a;
    const x = a[0];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && this.less(a[c + 1], a[c])) c++;
      if (!this.less(a[c], x)) break;
      a[i] = a[c];
      i = c;
    }
    a[i] = x;
  }

  private less(x: number, y: number): boolean {
    const kx = this.key[x];
    const ky = this.key[y];
    return kx < ky || (kx === ky && x < y);
  }
}
