import { Model, stageKey } from '../model/model';
import { AssignmentDoc, PLAN_FORMAT, PlanDoc } from '../model/types';
import { Schedule } from './schedule';

/**
 * End slot of each assignment of `plan`, in order: its start plus its stage's duration on its node.
 * For a plan the evaluator accepts (every job, stage and node of an assignment is in the model).
 */
export function assignmentEnds(model: Model, plan: PlanDoc): number[] {
  return plan.assignments.map((a) => a.start + model.stages[model.stageIndex.get(stageKey(a.job, a.stage))!].dur[model.nodeIndex.get(a.node)!]);
}

/** Writes a schedule as a `fallow.plan/v1` document (assignments in task order, rejected jobs by id). */
export function toPlanDoc(model: Model, schedule: Schedule, strategy: string): PlanDoc {
  const assignments: AssignmentDoc[] = [];
  const rejected: string[] = [];
  let makespan = 0;
  model.jobs.forEach((job, j) => {
    if (!schedule.accepted[j]) {
      rejected.push(job.id);
      return;
    }
    for (const g of job.stages) {
      const s = model.stages[g];
      for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
        const k = schedule.node[i];
        assignments.push({ job: job.id, stage: s.id, task: i - s.firstTask, node: model.nodeIds[k], start: schedule.start[i] });
        makespan = Math.max(makespan, schedule.start[i] + s.dur[k]);
      }
    }
  });
  return {
    format: PLAN_FORMAT,
    instance: model.name,
    strategy,
    assignments,
    rejected,
    objective: { scheduledTasks: assignments.length, makespanSlots: makespan },
  };
}

/** Reads a plan's assignments back into a schedule (used to warm-start a search from a given plan). */
export function fromPlanDoc(model: Model, plan: PlanDoc): Schedule {
  const s = new Schedule(model);
  const rejected = new Set(plan.rejected ?? []);
  model.jobs.forEach((job, j) => (s.accepted[j] = rejected.has(job.id) ? 0 : 1));
  for (const a of plan.assignments) {
    const g = model.stageIndex.get(`${a.job}\u0000${a.stage}`);
    if (g === undefined) continue;
    const i = model.stages[g].firstTask + a.task;
    s.node[i] = model.nodeIndex.get(a.node) ?? -1;
    s.start[i] = a.start;
  }
  return s;
}
