/** Binary min-heap of task ids keyed by a priority array. */
export class MinHeap {
  private readonly a: Int32Array;
  size = 0;
  constructor(
    capacity: number,
    private readonly key: Int32Array,
  ) {
    this.a = new Int32Array(capacity);
  }
  clear(): void {
    this.size = 0;
  }
  push(x: number): void {
    const a = this.a;
    const key = this.key;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (key[a[p]] <= key[x]) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }
  pop(): number {
    const a = this.a;
    const key = this.key;
    const top = a[0];
    const x = a[--this.size];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && key[a[c + 1]] < key[a[c]]) c++;
      if (key[x] <= key[a[c]]) break;
      a[i] = a[c];
      i = c;
    }
    a[i] = x;
    return top;
  }
}
