import { Model } from '../../model/model';
import { PreAllocation } from './prealloc';
import { TpsJobs } from './smr';

export interface SasResult {
  /** Jobs in the order SAS gave them their start (the sequence the final schedule is built in). */
  sequence: number[];
  /** Start SAS chose for each job of the sequence (-1 for the others). */
  planned: Int32Array;
  /** Jobs abandoned by SMR that SAS found room for by their deadline. */
  revived: number;
}

/**
 * Eq. 8 at slot t if job j started there: the resources that no further task can use (what is left of
 * each resource beyond the whole "containers" the scarcest resource still admits) over the resources in
 * use, each normalised by what the pool offers. The paper counts containers of one size; the container
 * here is the smallest per-task demand of any stage.
 */
function wasteRate(pa: PreAllocation, j: number, t: number): number {
  const { R, cap, unit } = pa.pool;
  const { length, demand } = pa.shapes[j];
  const T = pa.T;
  let fit = Infinity;
  const free = new Float64Array(R);
  let inUse = 0;
  for (let r = 0; r < R; r++) {
    const c = cap[r * T + t];
    const used = pa.load[r * T + t] - pa.held(j, r, t) + demand[r * length];
    free[r] = Math.max(0, c - used);
    if (c > 0) inUse += used / c;
    if (unit[r] > 0) fit = Math.min(fit, Math.floor(free[r] / unit[r] + 1e-9));
  }
  if (fit === Infinity) fit = 0;
  let wasted = 0;
  for (let r = 0; r < R; r++) {
    const c = cap[r * T + t];
    if (c > 0) wasted += Math.max(0, free[r] - fit * unit[r]) / c;
  }
  return inUse > 0 ? wasted / inUse : Infinity;
}

/**
 * Algorithm 2 (SAS). Walks the periods T forward from 0; at each, the jobs that can start there without
 * overloading any period of P_R (their own booking taken back first) form E_j, and the one with the
 * smallest waste rate starts at T; when E_j is empty T moves to the next period. A booked job is always
 * in E_j at its own latest start, so every booked job gets a start no later than SMR's. Jobs SMR
 * abandoned get the second chance the paper mentions: they join E_j whenever they fit in what P_R leaves
 * free and would still end by their deadline (only those that earn something on time: the rest wait for
 * the final build's leftovers).
 */
export function sas(model: Model, pa: PreAllocation, jobs: TpsJobs, abandoned: Uint8Array, stop: () => boolean): SasResult | null {
  const n = model.jobs.length;
  const planned = new Int32Array(n).fill(-1);
  const candidates: number[] = [];
  for (let j = 0; j < n; j++) {
    const job = model.jobs[j];
    if (pa.start[j] >= 0) candidates.push(j);
    else if (abandoned[j] && pa.shapes[j].runnable && job.hasRevenue && job.revenueOnTime > 0) candidates.push(j);
  }
  const sequence: number[] = [];
  let revived = 0;
  let T = 0;
  let steps = 0;
  while (candidates.length > 0 && T < model.T) {
    if ((++steps & 255) === 0 && stop()) return null;
    let best = -1;
    let bestW = Infinity;
    for (let c = 0; c < candidates.length; c++) {
      const j = candidates[c];
      if (model.jobs[j].release > T) continue;
      const booked = pa.start[j] >= 0;
      if (!booked && T + pa.shapes[j].length > jobs.due[j]) {
        // Too late to revive on time: leave it to the final build's leftovers.
        candidates[c--] = candidates[candidates.length - 1];
        candidates.pop();
        continue;
      }
      if (!pa.canBook(j, T)) continue;
      const w = wasteRate(pa, j, T);
      if (best < 0 || w < bestW - 1e-12 || (Math.abs(w - bestW) <= 1e-12 && tieBefore(j, best, jobs))) {
        best = j;
        bestW = w;
      }
    }
    if (best < 0) {
      T++;
      continue;
    }
    if (pa.start[best] < 0) revived++;
    pa.unbook(best);
    pa.book(best, T);
    planned[best] = T;
    sequence.push(best);
    candidates.splice(candidates.indexOf(best), 1);
  }
  return { sequence, planned, revived };
}

/** Equal waste: the job earning more per resource it holds first, then the earlier deadline, then instance order. */
function tieBefore(a: number, b: number, jobs: TpsJobs): boolean {
  return jobs.rate[a] > jobs.rate[b] || (jobs.rate[a] === jobs.rate[b] && (jobs.due[a] < jobs.due[b] || (jobs.due[a] === jobs.due[b] && a < b)));
}
