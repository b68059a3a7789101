import { CAPACITY_EPS, Model, NO_TASK_LIMIT } from '../model/model';

export interface MakespanBound {
  /** The best (largest) of the bounds below: no feasible schedule of the accepted jobs ends earlier. */
  makespanSlots: number;
  criticalPath: number;
  energy: number;
  taskSlots: number;
}

/**
 * Lower bounds on the makespan of any feasible schedule that runs every job in `accepted` (all jobs
 * when omitted). Returns makespanSlots = T + 1 when some accepted task cannot run at all.
 */
export function makespanBound(model: Model, accepted?: ArrayLike<number>): MakespanBound {
  const isIn = (j: number) => !accepted || accepted[j] === 1;
  const criticalPath = criticalPathBound(model, isIn);
  const energy = energyBound(model, isIn);
  const taskSlots = taskSlotBound(model, isIn);
  return { makespanSlots: Math.max(criticalPath, energy, taskSlots), criticalPath, energy, taskSlots };
}

/**
 * Longest chain of stages from the job's release, each task taking its earliest possible finish on
 * any node if it ran alone against the time-varying availability (a stage cannot finish before its
 * task that fits first; its successors cannot start before that).
 */
function criticalPathBound(model: Model, isIn: (j: number) => boolean): number {
  const { T, M, K } = model;
  const eft = new Int32Array(model.stages.length);
  let best = 0;
  model.jobs.forEach((job, j) => {
    if (!isIn(j)) return;
    for (const g of job.stages) {
      const s = model.stages[g];
      let est = job.release;
      for (const p of s.preds) est = Math.max(est, eft[p]);
      let finish = T + 1;
      for (let k = 0; k < K; k++) {
        if (model.maxTasks[k] < 1) continue;
        const d = s.dur[k];
        const av = model.avail[k];
        let run = est;
        for (let t = est; run + d <= T && run + d < finish; t++) {
          let ok = true;
          for (let m = 0; m < M && ok; m++) ok = s.demand[m] <= av[m * T + t] + CAPACITY_EPS;
          if (!ok) run = t + 1;
          else if (t - run + 1 >= d) {
            finish = run + d;
            break;
          }
        }
      }
      eft[g] = finish;
      best = Math.max(best, finish);
    }
  });
  return best;
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
