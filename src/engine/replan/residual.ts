import { compile, Model, stageKey } from '../model/model';
import type { InstanceDoc, JobSpec, StageSpec } from '../model/types';

/** The part of a re-planned instance still to plan, as an instance of its own, and how its tasks map back. */
export interface Residual {
  model: Model;
  /** Per task of the residual model, the task of the full model it stands for. */
  toFull: Int32Array;
  /** Per job of the residual model, the job of the full model. */
  jobToFull: Int32Array;
}

/**
 * What a strategy searches when an instance has `frozen` (docs/FORMAT.md, Frozen assignments): the tasks not
 * frozen, as an instance without `frozen` that any strategy can plan. Each job is released at nowSlot at the
 * earliest; a stage whose tasks are all frozen is left out (and out of its successors' `after`); what the frozen
 * tasks hold from nowSlot on (compute plus the fetchSlots they give) is `reserved`, on top of what was.
 * It leaves out that a stage must also wait for the frozen tasks of the stages before it and that a shuffle
 * also reads the frozen tasks' output: the plan is decoded again on the whole instance (replan/replan.ts), where
 * both count. null when nothing is left to plan.
 */
export function residualOf(model: Model): Residual | null {
  const fz = model.frozen;
  if (!fz) throw new Error('residualOf: the instance has no frozen tasks');
  const { doc, T } = model;
  const jobs: JobSpec[] = [];
  const jobToFull: number[] = [];
  doc.jobs.forEach((job, j) => {
    const kept = job.stages.filter((s) => remaining(model, job.id, s) > 0);
    if (kept.length === 0) return;
    const ids = new Set(kept.map((s) => s.id));
    jobs.push({
      ...job,
      releaseSlot: Math.max(job.releaseSlot ?? 0, fz.now),
      stages: kept.map((s) => residualStage(model, job.id, s, ids)),
    });
    jobToFull.push(j);
  });
  if (jobs.length === 0) return null;
  const residual: InstanceDoc = { ...doc, jobs, reserved: reservedWithFrozen(model), frozen: undefined };
  delete residual.frozen;
  const out = compile(residual);
  const toFull = new Int32Array(out.nTasks);
  out.stages.forEach((s) => {
    const g = model.stageIndex.get(stageKey(out.jobs[s.job].id, s.id))!;
    const free = fz.free[g];
    for (let q = 0; q < s.tasks; q++) toFull[s.firstTask + q] = free ? free[q] : model.stages[g].firstTask + q;
  });
  if (T !== out.T) throw new Error('residualOf: the horizon changed');
  return { model: out, toFull, jobToFull: Int32Array.from(jobToFull) };
}

function remaining(model: Model, job: string, s: StageSpec): number {
  const free = model.frozen!.free[model.stageIndex.get(stageKey(job, s.id))!];
  return free ? free.length : s.tasks;
}

function residualStage(model: Model, job: string, s: StageSpec, kept: Set<string>): StageSpec {
  const g = model.stageIndex.get(stageKey(job, s.id))!;
  const free = model.frozen!.free[g];
  const out: StageSpec = { ...s, tasks: remaining(model, job, s) };
  if (s.after) out.after = s.after.filter((a) => kept.has(a));
  if (free && s.blocks) out.blocks = Array.from(free, (i) => s.blocks![i - model.stages[g].firstTask]);
  return out;
}

/** The instance's `reserved` plus what the frozen tasks hold from nowSlot on, per node, metric and `tasks`. */
function reservedWithFrozen(model: Model): Record<string, Record<string, number[]>> {
  const fz = model.frozen!;
  const { T, doc } = model;
  const out: Record<string, Record<string, number[]>> = {};
  for (const [node, per] of Object.entries(doc.reserved ?? {})) {
    out[node] = {};
    for (const [m, series] of Object.entries(per)) out[node][m] = series.slice();
  }
  const series = (node: string, key: string): number[] => {
    const per = (out[node] ??= {});
    const s = (per[key] ??= []);
    while (s.length < T) s.push(0);
    return s;
  };
  for (const i of fz.tasks) {
    const k = fz.node[i];
    const s = model.stages[model.taskStage[i]];
    const a = Math.max(fz.now, fz.start[i]);
    const b = Math.min(T, fz.start[i] + Math.max(0, fz.fetch[i]) + s.dur[k]);
    if (a >= b) continue;
    const node = model.nodeIds[k];
    model.metrics.forEach((m, mi) => {
      if (s.demand[mi] === 0) return;
      const r = series(node, m);
      for (let t = a; t < b; t++) r[t] += s.demand[mi];
    });
    if (doc.nodes[k].maxTasks !== undefined) {
      const r = series(node, 'tasks');
      for (let t = a; t < b; t++) r[t] += 1;
    }
  }
  return out;
}
