/**
 * One seeded generator per solve (sfc32): fast, 32-bit, and the same sequence for the same seed on
 * every platform, which is what makes iteration-limited solves reproducible.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Standard normal (Box-Muller). */
  gaussian(): number {
    const u = 1 - this.next(); // (0, 1]: log(0) is not a number
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }

  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = xs[i];
      xs[i] = xs[j];
      xs[j] = t;
    }
    return xs;
  }

  /**
   * shuffle() of an Int32Array, the same permutation and the same generator state after, with the generator's
   * state in locals: a list scheduler shuffles its K nodes for every task (Builder with a generator).
   */
  shuffleInts(xs: Int32Array): Int32Array {
    let { a, b, c, d } = this;
    for (let i = xs.length - 1; i > 0; i--) {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
      const j = Math.floor(((t >>> 0) / 4294967296) * (i + 1));
      const x = xs[i];
      xs[i] = xs[j];
      xs[j] = x;
    }
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    return xs;
  }

  /** A new independent generator derived from this one (for sub-searches and worker threads). */
  fork(): Random {
    return new Random(this.nextU32());
  }
}
