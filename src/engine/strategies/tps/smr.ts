import { Model } from '../../model/model';
import { chooseAdjustment, PfChoice } from './adjust';
import { PreAllocation } from './prealloc';
import { JobShape, Pool } from './shape';

/** Per-job inputs of both phases. */
export interface TpsJobs {
  /** Deadline used for planning: the job's own, or the end of the window when it has none. */
  due: Int32Array;
  /** Eq. 6: Sp = |a - b|, what a job loses by ending late (0 without a revenue function). */
  sp: Float64Array;
  /**
   * Sp per unit of resources the job holds (its shape's demand-slots, each resource counted as a share
   * of what the pool offers per slot): the "revenue rate" the abstract says SMR pre-allocates by. Two
   * jobs of equal Sp are not worth the same when one holds the cluster three times as long.
   */
  rate: Float64Array;
}

export function tpsJobs(model: Model, pool: Pool, shapes: readonly JobShape[]): TpsJobs {
  const n = model.jobs.length;
  const { T } = model;
  const due = new Int32Array(n);
  const sp = new Float64Array(n);
  const rate = new Float64Array(n);
  const meanCap = new Float64Array(pool.R);
  for (let r = 0; r < pool.R; r++) {
    for (let t = 0; t < T; t++) meanCap[r] += pool.cap[r * T + t] / T;
  }
  model.jobs.forEach((job, j) => {
    due[j] = job.deadline < 0 ? T : Math.min(job.deadline, T);
    sp[j] = job.hasRevenue ? Math.abs(job.revenueOnTime - job.revenueLate) : 0;
    const { length, demand } = shapes[j];
    let area = 0;
    for (let r = 0; r < pool.R; r++) {
      if (meanCap[r] <= 0) continue;
      for (let dt = 0; dt < length; dt++) area += demand[r * length + dt] / meanCap[r];
    }
    rate[j] = sp[j] / Math.max(area, 1e-9);
  });
  return { due, sp, rate };
}

/** One way of running SMR: which job value Eq. 7 sums, and which end of the score wins. */
export interface SmrVariant {
  value: 'rate' | 'sp';
  choice: PfChoice;
}

export interface SmrResult {
  /** 1 for jobs SMR gave up on (line 19), or that cannot end by their deadline even alone. */
  abandoned: Uint8Array;
  abandonedBySmr: number;
  lateEvenAlone: number;
  overloadPeriodsResolved: number;
}

/**
 * Algorithm 1 (SMR). Every runnable job is booked at its initial latest start (Eq. 4: deadline minus its
 * length alone); then the overloaded periods are resolved from the last one backwards: the jobs of the
 * chosen adjustment strategy get the latest start that ends them before the period (Eq. 5), or are
 * abandoned when that falls before their release (the paper's T_ls <= 0, time 0 being its release).
 * A period is one slot (Fallow's sampling period). Advancing only moves load to earlier slots, so once
 * slot t is resolved no later slot overloads again and one backward sweep suffices.
 */
export function smr(model: Model, pa: PreAllocation, jobs: TpsJobs, variant: SmrVariant, stop: () => boolean): SmrResult | null {
  const { T } = model;
  const n = model.jobs.length;
  const { R } = pa.pool;
  const abandoned = new Uint8Array(n);
  let lateEvenAlone = 0;
  for (let j = 0; j < n; j++) {
    const sh = pa.shapes[j];
    if (!sh.runnable) continue;
    const ls = jobs.due[j] - sh.length;
    if (ls >= model.jobs[j].release) pa.book(j, ls);
    else (abandoned[j] = 1), lateEvenAlone++;
  }

  let abandonedBySmr = 0;
  let resolved = 0;
  const excess = new Float64Array(R);
  for (let t = T - 1; t >= 0; t--) {
    if ((t & 63) === 0 && stop()) return null;
    while (pa.overloaded(t)) {
      const ju: number[] = [];
      for (let j = 0; j < n; j++) {
        const s = pa.start[j];
        if (s >= 0 && s <= t && t < s + pa.shapes[j].length) ju.push(j);
      }
      const held = new Float64Array(ju.length * R);
      ju.forEach((j, u) => {
        for (let r = 0; r < R; r++) held[u * R + r] = pa.held(j, r, t);
      });
      for (let r = 0; r < R; r++) excess[r] = Math.max(0, pa.load[r * T + t] - pa.pool.cap[r * T + t]);
      const js = chooseAdjustment({ jobs: ju, held, excess, R }, variant.value === 'rate' ? jobs.rate : jobs.sp, variant.choice);
      if (js.length === 0) break; // cannot happen: all of Ju always covers the excess
      for (const j of js) {
        pa.unbook(j);
        // Eq. 5 with T_cs = t; and if that span is booked full already, the latest earlier start that
        // overloads nothing: otherwise every job advanced past t lands on the same slots and they shove
        // each other back one slot per period until most fall before their release.
        let ls = t - pa.shapes[j].length;
        while (ls >= model.jobs[j].release && !pa.canBook(j, ls)) ls--;
        if (ls >= model.jobs[j].release) pa.book(j, ls);
        else (abandoned[j] = 1), abandonedBySmr++;
      }
      resolved++;
    }
  }
  return { abandoned, abandonedBySmr, lateEvenAlone, overloadPeriodsResolved: resolved };
}
