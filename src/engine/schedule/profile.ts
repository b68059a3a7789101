import { CAPACITY_EPS, Model } from '../model/model';

/**
 * Resource usage per node, metric and slot, plus running task counts: the constructive strategies'
 * picture of what is still free. Checks are exact against FORMAT.md's rule (sum <= available + 1e-9).
 */
export class Profile {
  readonly used: Float64Array[];
  readonly count: Int32Array[];

  constructor(readonly model: Model) {
    this.used = model.avail.map((a) => new Float64Array(a.length));
    this.count = model.avail.map(() => new Int32Array(model.T));
  }

  /** True when a task of stage g fits alone on slot t of node k (resources and task slots). */
  slotFits(k: number, g: number, t: number): boolean {
    const { M, T } = this.model;
    if (this.count[k][t] >= this.model.taskLimit[k][t]) return false;
    const dem = this.model.stages[g].demand;
    const used = this.used[k];
    const av = this.model.avail[k];
    for (let m = 0; m < M; m++) {
      const d = dem[m];
      if (d > 0 && used[m * T + t] + d > av[m * T + t] + CAPACITY_EPS) return false;
    }
    return true;
  }

  fits(k: number, g: number, start: number): boolean {
    const d = this.model.stages[g].dur[k];
    if (start < 0 || start + d > this.model.T) return false;
    for (let t = start; t < start + d; t++) if (!this.slotFits(k, g, t)) return false;
    return true;
  }

  /**
   * Earliest start in [from, latest] at which a task of stage g fits on node k for `d` slots (default: its
   * compute; with priced transfers the caller adds its fetch), or -1. One pass over the slots: a run of `d`
   * consecutive fitting slots gives the answer.
   */
  earliestFit(k: number, g: number, from: number, latest: number, d = this.model.stages[g].dur[k]): number {
    const last = Math.min(latest, this.model.T - d);
    let runStart = Math.max(0, from);
    for (let t = runStart; runStart <= last; t++) {
      if (!this.slotFits(k, g, t)) runStart = t + 1;
      else if (t - runStart + 1 >= d) return runStart;
    }
    return -1;
  }

  /** Adds (sign 1) or takes back (-1) a task of stage g on node k for `d` slots from `start` (default: its compute). */
  add(k: number, g: number, start: number, sign = 1, d = this.model.stages[g].dur[k]): void {
    const { M, T } = this.model;
    const s = this.model.stages[g];
    const end = start + d;
    const used = this.used[k];
    for (let m = 0; m < M; m++) {
      const d = s.demand[m] * sign;
      if (d === 0) continue;
      const base = m * T;
      for (let t = start; t < end; t++) used[base + t] += d;
    }
    const c = this.count[k];
    for (let t = start; t < end; t++) c[t] += sign;
  }

  remove(k: number, g: number, start: number, d = this.model.stages[g].dur[k]): void {
    this.add(k, g, start, -1, d);
  }
}
