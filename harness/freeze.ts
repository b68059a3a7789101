import { loadInstance } from '../src/engine/model/model';
import type { AssignmentDoc, InstanceDoc, PlanDoc } from '../src/engine/model/types';
import { assignmentEnds } from '../src/engine/schedule/plan-doc';

/**
 * The instance a running plan is re-planned on at `now`: its tasks that started before now are frozen where
 * the plan put them (with their fetchSlots in a priced plan), except those `killed` says (they run again).
 */
export function freezeAt(instance: InstanceDoc, plan: PlanDoc, now: number, killed: (a: AssignmentDoc, end: number) => boolean = () => false): InstanceDoc {
  const ends = assignmentEnds(loadInstance(instance), plan);
  const assignments = plan.assignments
    .map((a, n) => ({ a, end: ends[n] }))
    .filter(({ a, end }) => a.start < now && !killed(a, end))
    .map(({ a }) => ({ job: a.job, stage: a.stage, task: a.task, node: a.node, start: a.start, ...(a.fetchSlots !== undefined ? { fetchSlots: a.fetchSlots } : {}) }));
  return { ...instance, frozen: { nowSlot: now, assignments } };
}

/** The instance with node `node` taken back from slot `from` on: its usage 1 on every metric (nothing available). */
export function nodeLost(instance: InstanceDoc, node: string, from: number): InstanceDoc {
  const T = instance.horizon.slots;
  const usage = { ...(instance.usage ?? {}) };
  const per: Record<string, number[]> = {};
  for (const m of instance.metrics) {
    const old = usage[node]?.[m] ?? new Array<number>(T).fill(0);
    per[m] = old.map((u, t) => (t >= from ? 1 : u));
  }
  usage[node] = per;
  return { ...instance, usage };
}
