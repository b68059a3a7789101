import { CAPACITY_EPS, Model } from '../../model/model';

/**
 * Time windows of every stage for schedules that end by `horizon`, and the start slots at which a
 * task of the stage can run on each node at all. These are what keep the time-indexed MILP small:
 * a variable exists only for a (stage, node, slot) that some feasible schedule could use.
 */
export interface Windows {
  horizon: number;
  /** Earliest start of any task of the stage (release and predecessors' earliest finishes). */
  es: Int32Array;
  /** Earliest finish of any task of the stage: before it no task of the stage can have ended. */
  ef: Int32Array;
  /** Latest finish of every task of the stage so that all successors still fit before the horizon. */
  lf: Int32Array;
  /** slots[g][k]: increasing start slots in [es, lf - dur] at which one task of g fits alone on k. */
  slots: Int32Array[][];
  /** False when some stage of the job has no usable slot: the job cannot run within the horizon. */
  jobFeasible: Uint8Array;
}

/**
 * Forward/backward pass over each job's stage graph. Both passes only use facts every feasible
 * schedule satisfies (a task needs `dur` consecutive slots where it fits alone, a stage waits for all
 * tasks of its predecessors), so the windows never cut off a feasible schedule ending by the horizon.
 */
export function computeWindows(model: Model, horizon: number): Windows {
  const { K, T } = model;
  const H = Math.min(horizon, T);
  const nG = model.stages.length;
  const es = new Int32Array(nG);
  const ef = new Int32Array(nG);
  const lf = new Int32Array(nG);
  const fitsFrom = model.stages.map((_, g) => Array.from({ length: K }, (_, k) => runStarts(model, g, k, H)));
  const slots: Int32Array[][] = [];
  const jobFeasible = new Uint8Array(model.jobs.length).fill(1);
  model.jobs.forEach((job, j) => {
    for (const g of job.stages) {
      const s = model.stages[g];
      let start = job.release;
      for (const p of s.preds) start = Math.max(start, ef[p]);
      es[g] = start;
      let finish = Infinity;
      for (let k = 0; k < K; k++) {
        const t = firstAtLeast(fitsFrom[g][k], start);
        if (t >= 0) finish = Math.min(finish, t + s.dur[k]);
      }
      if (finish === Infinity) jobFeasible[j] = 0;
      ef[g] = finish === Infinity ? H + 1 : finish;
    }
    for (let q = job.stages.length - 1; q >= 0; q--) {
      const g = job.stages[q];
      const s = model.stages[g];
      let finish = H;
      for (const h of s.succs) {
        // Latest start of the successor: the last slot where one of its tasks still fits before lf[h].
        let latest = -1;
        for (let k = 0; k < K; k++) latest = Math.max(latest, lastAtMost(fitsFrom[h][k], lf[h] - model.stages[h].dur[k]));
        finish = Math.min(finish, latest);
      }
      lf[g] = finish;
    }
  });
  model.stages.forEach((s, g) => {
    const perNode: Int32Array[] = [];
    let any = false;
    for (let k = 0; k < K; k++) {
      const all = fitsFrom[g][k];
      const lo = es[g];
      const hi = lf[g] - s.dur[k];
      const picked = all.filter((t) => t >= lo && t <= hi);
      perNode.push(picked);
      if (picked.length > 0) any = true;
    }
    if (!any || ef[g] > lf[g]) jobFeasible[s.job] = 0;
    slots.push(perNode);
  });
  return { horizon: H, es, ef, lf, slots, jobFeasible };
}

/** Start slots t with t + dur <= H at which one task of stage g fits alone on node k. */
function runStarts(model: Model, g: number, k: number, H: number): Int32Array {
  const { M, T } = model;
  const s = model.stages[g];
  const d = s.dur[k];
  const out: number[] = [];
  if (model.maxTasks[k] < 1) return new Int32Array(0);
  const av = model.avail[k];
  let runStart = 0;
  for (let t = 0; t < H; t++) {
    let ok = true;
    for (let m = 0; m < M && ok; m++) ok = s.demand[m] <= av[m * T + t] + CAPACITY_EPS;
    if (!ok) runStart = t + 1;
    else if (t - runStart + 1 >= d) out.push(t - d + 1);
  }
  return Int32Array.from(out);
}

function firstAtLeast(xs: Int32Array, v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < xs.length ? xs[lo] : -1;
}

/** Index of the last element <= v in an increasing array, or -1. */
export function lastIndexAtMost(xs: Int32Array, v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

function lastAtMost(xs: Int32Array, v: number): number {
  const i = lastIndexAtMost(xs, v);
  return i < 0 ? -1 : xs[i];
}
