import { Model, NO_TASK_LIMIT } from '../../model/model';
import { Builder } from '../../schedule/sgs';

/**
 * The aggregated resources SMR and SAS book against (the paper's TR and P_R). The paper counts identical
 * containers; Fallow has several metrics on heterogeneous nodes whose availability varies by slot, so a
 * "resource" here is one metric summed over the nodes, slot by slot, plus the concurrent task slots when
 * every node limits them (maxTasks plays the part of the container count then).
 */
export interface Pool {
  /** Number of aggregated resources R: the M metrics, plus one for task slots when counted. */
  R: number;
  /** cap[r * T + t]: what resource r offers at slot t over all nodes that can run anything. */
  cap: Float64Array;
  /** Per resource, the smallest non-zero per-task demand of any stage (the paper's container; for Eq. 8). */
  unit: Float64Array;
}

/**
 * A job as the pre-allocation sees it: how long it takes and what it holds slot by slot when it runs
 * alone on the empty cluster. This replaces Eq. 4's ceil(ms/M)*mt + ceil(rs/M)*rt, which assumes
 * identical containers and a map -> reduce pair; on that platform the two agree exactly.
 */
export interface JobShape {
  /** False when the job cannot run at all within the window. */
  runnable: boolean;
  /** Slots from its start to its end when alone. */
  length: number;
  /** demand[r * length + dt]: resource r held dt slots after the start. */
  demand: Float64Array;
}

export function buildPool(model: Model): Pool {
  const { T, M, K } = model;
  const countTasks = K > 0 && Array.from(model.maxTasks).every((c) => c !== NO_TASK_LIMIT);
  const R = M + (countTasks ? 1 : 0);
  const cap = new Float64Array(R * T);
  for (let k = 0; k < K; k++) {
    if (model.maxTasks[k] < 1) continue;
    const av = model.avail[k];
    for (let i = 0; i < M * T; i++) cap[i] += av[i];
    if (countTasks) for (let t = 0; t < T; t++) cap[M * T + t] += model.taskLimit[k][t];
  }
  const unit = new Float64Array(R).fill(Infinity);
  for (const s of model.stages) {
    for (let m = 0; m < M; m++) if (s.demand[m] > 0) unit[m] = Math.min(unit[m], s.demand[m]);
    if (countTasks) unit[M] = 1;
  }
  for (let r = 0; r < R; r++) if (unit[r] === Infinity) unit[r] = 0;
  return { R, cap, unit };
}

/**
 * Runs each job alone on the empty cluster with the real list scheduler (heterogeneous nodes, per-node
 * durations, availability, maxTasks, any stage DAG) from its release, and records its length and its
 * aggregated demand profile. earliestFinishAlone (bounds/makespan.ts) would give only the critical path
 * of single tasks, which ignores that 400 maps on 80 containers take five rounds; this is Eq. 4's
 * "rounds" generalised. With time-varying availability the shape is taken at the release and shifted as
 * is: an approximation the pre-allocation can live with, since the final schedule is built for real.
 */
export function jobShapes(model: Model, pool: Pool, stop: () => boolean): JobShape[] | null {
  const { M, T } = model;
  const b = new Builder(model, null);
  const shapes: JobShape[] = [];
  for (let j = 0; j < model.jobs.length; j++) {
    if (j % 8 === 0 && stop()) return null;
    const job = model.jobs[j];
    if (!b.placeJob(j)) {
      shapes.push({ runnable: false, length: T + 1, demand: new Float64Array(0) });
      continue;
    }
    let end = job.release;
    for (const g of job.stages) end = Math.max(end, b.stageEnd[g]);
    const length = Math.max(1, end - job.release);
    const demand = new Float64Array(pool.R * length);
    const { node, start } = b.schedule;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
      const s = model.stages[model.taskStage[i]];
      const from = start[i] - job.release;
      const to = from + s.dur[node[i]];
      for (let m = 0; m < M; m++) {
        const d = s.demand[m];
        if (d !== 0) for (let dt = from; dt < to; dt++) demand[m * length + dt] += d;
      }
      if (pool.R > M) for (let dt = from; dt < to; dt++) demand[M * length + dt] += 1;
    }
    b.unplaceJob(j);
    shapes.push({ runnable: true, length, demand });
  }
  return shapes;
}
