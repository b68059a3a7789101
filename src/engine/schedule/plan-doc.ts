import { Model, stageKey } from '../model/model';
import { AssignmentDoc, PLAN_FORMAT, PlanDoc, TRANSFERS_PRICED } from '../model/types';
import { Schedule } from './schedule';

/**
 * End slot of each assignment of `plan`, in order: its start plus its stage's duration on its node, plus its
 * fetchSlots in a plan with priced transfers (the task holds its node through its fetch and its compute).
 * For a plan the evaluator accepts (every job, stage and node of an assignment is in the model).
 */
export function assignmentEnds(model: Model, plan: PlanDoc): number[] {
  const priced = plan.transfers === TRANSFERS_PRICED;
  return plan.assignments.map(
    (a) => a.start + (priced ? (a.fetchSlots ?? 0) : 0) + model.stages[model.stageIndex.get(stageKey(a.job, a.stage))!].dur[model.nodeIndex.get(a.node)!],
  );
}

/**
 * Writes a schedule as a `fallow.plan/v1` document (assignments in task order, rejected jobs by id). A schedule
 * with priced transfers (Schedule.fetch) gives a plan that says so, each assignment with its fetchSlots.
 */
export function toPlanDoc(model: Model, schedule: Schedule, strategy: string): PlanDoc {
  const assignments: AssignmentDoc[] = [];
  const rejected: string[] = [];
  const { fetch } = schedule;
  let makespan = 0;
  model.jobs.forEach((job, j) => {
    if (!schedule.accepted[j]) {
      rejected.push(job.id);
      return;
    }
    for (const g of job.stages) {
      const s = model.stages[g];
      for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
        const a: AssignmentDoc = { job: job.id, stage: s.id, task: i - s.firstTask, node: model.nodeIds[schedule.node[i]], start: schedule.start[i] };
        if (fetch) a.fetchSlots = fetch[i];
        // A frozen task keeps the fetchSlots it gave, priced plan or not (FORMAT.md, Frozen assignments).
        else if (model.frozen && model.frozen.fetch[i] >= 0) a.fetchSlots = model.frozen.fetch[i];
        assignments.push(a);
        makespan = Math.max(makespan, schedule.end(i));
      }
    }
  });
  return {
    format: PLAN_FORMAT,
    instance: model.name,
    strategy,
    ...(fetch ? { transfers: TRANSFERS_PRICED } : {}),
    assignments,
    rejected,
    objective: { scheduledTasks: assignments.length, makespanSlots: makespan },
  };
}

/**
 * Reads a plan's assignments back into a schedule (a replay's planned nodes and starts; a pass over a stored
 * plan). A plan with priced transfers gives a priced schedule (Schedule.fetch from each fetchSlots), so that
 * its ends and toPlanDoc's plan keep the fetch rather than silently becoming compute only.
 */
export function fromPlanDoc(model: Model, plan: PlanDoc): Schedule {
  const s = new Schedule(model);
  const rejected = new Set(plan.rejected ?? []);
  if (plan.transfers === TRANSFERS_PRICED) s.fetch = new Int32Array(model.nTasks);
  model.jobs.forEach((job, j) => (s.accepted[j] = rejected.has(job.id) ? 0 : 1));
  for (const a of plan.assignments) {
    const g = model.stageIndex.get(stageKey(a.job, a.stage));
    if (g === undefined) continue;
    const i = model.stages[g].firstTask + a.task;
    s.node[i] = model.nodeIndex.get(a.node) ?? -1;
    s.start[i] = a.start;
    if (s.fetch) s.fetch[i] = a.fetchSlots ?? 0;
  }
  return s;
}
