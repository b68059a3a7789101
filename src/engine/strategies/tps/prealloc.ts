import { JobShape, Pool } from './shape';

/** Slack on aggregated comparisons: loads are sums of many float demands. */
const EPS = 1e-6;

/**
 * P_R of Algorithms 1 and 2: each booked job holds its alone shape from its booked start, and `load`
 * sums them per aggregated resource and slot. A slot is overloaded when some resource's load exceeds
 * what the pool offers there (the paper's R_i > TR).
 */
export class PreAllocation {
  readonly load: Float64Array;
  /** Booked start of each job, -1 when it holds nothing. */
  readonly start: Int32Array;

  constructor(
    readonly pool: Pool,
    readonly shapes: readonly JobShape[],
    readonly T: number,
  ) {
    this.load = new Float64Array(pool.R * T);
    this.start = new Int32Array(shapes.length).fill(-1);
  }

  book(j: number, s: number, sign = 1): void {
    const { length, demand } = this.shapes[j];
    const { R } = this.pool;
    for (let r = 0; r < R; r++)
      for (let dt = 0; dt < length; dt++) {
        const d = demand[r * length + dt];
        if (d !== 0) this.load[r * this.T + s + dt] += sign * d;
      }
    this.start[j] = sign > 0 ? s : -1;
  }

  unbook(j: number): void {
    if (this.start[j] >= 0) this.book(j, this.start[j], -1);
  }

  /** What job j holds of resource r at slot t where it is booked now (0 outside its span). */
  held(j: number, r: number, t: number): number {
    const s = this.start[j];
    const { length, demand } = this.shapes[j];
    return s >= 0 && t >= s && t < s + length ? demand[r * length + t - s] : 0;
  }

  overloaded(t: number): boolean {
    const { R, cap } = this.pool;
    for (let r = 0; r < R; r++) if (this.load[r * this.T + t] > cap[r * this.T + t] + EPS) return true;
    return false;
  }

  /**
   * Algorithm 2 lines 4-6: whether job j can be (re)booked at s without overloading any slot, once its
   * current booking is taken back. Only the slots of the new span can get more load.
   */
  canBook(j: number, s: number): boolean {
    const { length, demand } = this.shapes[j];
    if (s < 0 || s + length > this.T) return false;
    if (this.start[j] === s) return true;
    const { R, cap } = this.pool;
    for (let dt = 0; dt < length; dt++) {
      const t = s + dt;
      for (let r = 0; r < R; r++) {
        const d = demand[r * length + dt];
        if (d === 0) continue;
        const i = r * this.T + t;
        if (this.load[i] - this.held(j, r, t) + d > cap[i] + EPS) return false;
      }
    }
    return true;
  }
}
