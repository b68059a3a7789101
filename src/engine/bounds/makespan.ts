import { CAPACITY_EPS, Model, NO_TASK_LIMIT } from '../model/model';
import { earliestEnd } from './earliest-end';
import { packingBound } from './packing';

export interface MakespanBound {
  /** The best (largest) of the bounds below: no feasible schedule of the accepted jobs ends earlier. */
  makespanSlots: number;
  criticalPath: number;
  energy: number;
  taskSlots: number;
  throughput: number;
  /** Each stage's tasks packed on the nodes from its head, plus the packed chain after it (packing.ts). */
  jobPacking: number;
  /** Same-shape tasks of all jobs packed into the windows their heads and tails allow (packing.ts). */
  classPacking: number;
  /** Tasks of dominating shapes converted into a base shape's tasks, in windows by heads and tails (mixed-packing.ts). */
  mixedPacking: number;
}

/**
 * Lower bounds on the makespan of any feasible schedule that runs every job in `accepted` (all jobs
 * when omitted). Returns makespanSlots = T + 1 when some accepted task cannot run at all.
 */
export function makespanBound(model: Model, accepted?: ArrayLike<number>): MakespanBound {
  const isIn = (j: number) => !accepted || accepted[j] === 1;
  const eft = new Int32Array(model.stages.length);
  const criticalPath = criticalPathBound(model, isIn, eft);
  const energy = energyBound(model, isIn);
  const taskSlots = taskSlotBound(model, isIn);
  const throughput = throughputBound(model, isIn);
  const { jobPacking, classPacking, mixedPacking } = packingBound(model, isIn, eft);
  return {
    makespanSlots: Math.max(criticalPath, energy, taskSlots, throughput, jobPacking, classPacking, mixedPacking),
    criticalPath,
    energy,
    taskSlots,
    throughput,
    jobPacking,
    classPacking,
    mixedPacking,
  };
}

/**
 * Longest chain of stages from the job's release, each task taking its earliest possible finish on
 * any node if it ran alone against the time-varying availability (a stage cannot finish before its
 * task that fits first; its successors cannot start before that). Leaves the earliest ends in eft.
 */
function criticalPathBound(model: Model, isIn: (j: number) => boolean, eft: Int32Array): number {
  let best = 0;
  model.jobs.forEach((job, j) => {
    if (!isIn(j)) return;
    earliestFinishAlone(model, j, eft);
    for (const g of job.stages) best = Math.max(best, eft[g]);
  });
  return best;
}

/**
 * Writes into eft[g], for every stage g of job j, the earliest slot by which a task of g can end if
 * the job ran alone on the empty cluster from its release (the critical-path argument above); T + 1
 * when it cannot end within the window.
 */
export function earliestFinishAlone(model: Model, j: number, eft: Int32Array): void {
  const job = model.jobs[j];
  for (const g of job.stages) {
    const s = model.stages[g];
    let est = job.release;
    for (const p of s.preds) est = Math.max(est, eft[p]);
    eft[g] = earliestEnd(model, s, est);
  }
}

/**
 * Energy per metric: the demand-slots of the tasks released at or after r (each at its shortest
 * duration) must fit in the capacity available from r on. The smallest end C that satisfies this for
 * every release r is a bound.
 */
function energyBound(model: Model, isIn: (j: number) => boolean): number {
  const { T, M, K } = model;
  let best = 0;
  for (let m = 0; m < M; m++) {
    const perSlot = new Float64Array(T);
    for (let k = 0; k < K; k++) for (let t = 0; t < T; t++) perSlot[t] += model.avail[k][m * T + t];
    const needFrom = new Map<number, number>();
    model.jobs.forEach((job, j) => {
      if (!isIn(j)) return;
      let e = 0;
      for (const g of job.stages) e += model.stages[g].demand[m] * model.stages[g].minDur * model.stages[g].tasks;
      needFrom.set(job.release, (needFrom.get(job.release) ?? 0) + e);
    });
    best = Math.max(best, cumulativeBound(perSlot, needFrom, T));
  }
  return best;
}

/** The same argument with concurrent task slots (maxTasks) as the resource. */
function taskSlotBound(model: Model, isIn: (j: number) => boolean): number {
  const { T, K } = model;
  let perSlotTasks = 0;
  for (let k = 0; k < K; k++) {
    if (model.maxTasks[k] === NO_TASK_LIMIT) return 0;
    perSlotTasks += model.maxTasks[k];
  }
  const perSlot = new Float64Array(T).fill(perSlotTasks);
  const needFrom = new Map<number, number>();
  model.jobs.forEach((job, j) => {
    if (!isIn(j)) return;
    let e = 0;
    for (const g of job.stages) e += model.stages[g].minDur * model.stages[g].tasks;
    needFrom.set(job.release, (needFrom.get(job.release) ?? 0) + e);
  });
  return cumulativeBound(perSlot, needFrom, T);
}

/**
 * Work throughput on heterogeneous nodes (the energy bound above charges every task its fastest
 * duration, which is far too kind when most nodes are slow). Each running task of a `work` stage on
 * node k processes at most r_k = max_g work_g / (dur_gk * slotSeconds) GFLOP per second, and node k
 * runs at most conc_k(t) such tasks at slot t: maxTasks, and per metric floor(available / smallest
 * demand of any such task). The GFLOP of the tasks released at or after r must fit in the throughput
 * from r on. Tasks given by durationSeconds are left out, which keeps it a valid bound.
 */
function throughputBound(model: Model, isIn: (j: number) => boolean): number {
  const { T, M, K, slotSeconds } = model;
  const minDemand = new Float64Array(M).fill(Infinity);
  const rate = new Float64Array(K);
  const needFrom = new Map<number, number>();
  model.jobs.forEach((job, j) => {
    if (!isIn(j)) return;
    let w = 0;
    for (const g of job.stages) {
      const st = model.stages[g];
      if (st.work === null) continue;
      w += st.work * st.tasks;
      for (let m = 0; m < M; m++) minDemand[m] = Math.min(minDemand[m], st.demand[m]);
      for (let k = 0; k < K; k++) rate[k] = Math.max(rate[k], st.work / (st.dur[k] * slotSeconds));
    }
    if (w > 0) needFrom.set(job.release, (needFrom.get(job.release) ?? 0) + w);
  });
  if (needFrom.size === 0) return 0;
  const perSlot = new Float64Array(T);
  for (let k = 0; k < K; k++) {
    for (let t = 0; t < T; t++) {
      let conc = model.maxTasks[k] === NO_TASK_LIMIT ? Infinity : model.maxTasks[k];
      for (let m = 0; m < M; m++)
        if (minDemand[m] > 0 && minDemand[m] !== Infinity)
          // n tasks fit when n * demand <= available + 1e-9 (FORMAT.md); rounding up keeps the bound valid.
          conc = Math.min(conc, Math.floor((model.avail[k][m * T + t] + CAPACITY_EPS) / minDemand[m] + 1e-9));
      if (conc === Infinity) return 0; // nothing limits concurrency: no bound from throughput
      perSlot[t] += conc * rate[k] * slotSeconds;
    }
  }
  return cumulativeBound(perSlot, needFrom, T);
}

/** Smallest C with sum(need of releases >= r) <= capacity in [r, C) for every r; T + 1 if none. */
function cumulativeBound(perSlot: Float64Array, needFrom: Map<number, number>, T: number): number {
  const releases = [...needFrom.keys()].sort((a, b) => b - a);
  let best = 0;
  let need = 0;
  for (const r of releases) {
    need += needFrom.get(r)!;
    if (need <= 1e-9) continue;
    let acc = 0;
    let c = r;
    while (c < T && acc + 1e-9 < need) acc += perSlot[c++];
    best = Math.max(best, acc + 1e-9 < need ? T + 1 : c);
  }
  return best;
}
