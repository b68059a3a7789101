import { ValidationError } from '../model/errors';
import { isInt, isObject, show } from '../model/json-values';
import { Model, stageKey } from '../model/model';
import { Issue, PLAN_FORMAT, PlanDoc, TRANSFERS_PRICED } from '../model/types';
import { Schedule } from '../schedule/schedule';

/**
 * A previous plan as a re-plan's hint (SolveOptions.previous): per task of the model the node and start it had
 * (-1: the task was not in that plan, its job rejected or new), and every task in the order of those starts
 * (ties: task order), the tasks it did not have last.
 */
export interface Previous {
  node: Int32Array;
  start: Int32Array;
  /** fetchSlots per task in a priced previous plan (-1: not given). */
  fetch: Int32Array;
  order: Int32Array;
}

/** How far a plan is from the previous one, over the tasks that are not frozen. */
export interface Disruption {
  /** Tasks of the previous plan now on another node or at another start. */
  movedTasks: number;
  /** Tasks of the previous plan where they were. */
  keptTasks: number;
  /** Tasks planned now that the previous plan did not have. */
  newTasks: number;
  /** Tasks of the previous plan whose job is now rejected. */
  droppedTasks: number;
}

/**
 * Reads a previous plan against the model. Its shape is checked (ValidationError naming `previous.…`); what
 * no longer exists (a job, stage, task or node the instance has lost) is skipped: those tasks are new.
 */
export function previousOf(model: Model, raw: unknown): Previous {
  const plan = checkedPrevious(raw);
  const node = new Int32Array(model.nTasks).fill(-1);
  const start = new Int32Array(model.nTasks).fill(-1);
  const fetch = new Int32Array(model.nTasks).fill(-1);
  const priced = plan.transfers === TRANSFERS_PRICED;
  const rejected = new Set(plan.rejected ?? []);
  for (const a of plan.assignments) {
    const g = model.stageIndex.get(stageKey(a.job, a.stage));
    const k = model.nodeIndex.get(a.node);
    if (g === undefined || k === undefined || rejected.has(a.job) || a.task >= model.stages[g].tasks) continue;
    const i = model.stages[g].firstTask + a.task;
    node[i] = k;
    start[i] = a.start;
    if (priced && Number.isInteger(a.fetchSlots) && a.fetchSlots! >= 0) fetch[i] = a.fetchSlots!;
  }
  const ids = Array.from({ length: model.nTasks }, (_, i) => i);
  const had = ids.filter((i) => node[i] >= 0).sort((a, b) => start[a] - start[b] || a - b);
  const order = Int32Array.from([...had, ...ids.filter((i) => node[i] < 0)]);
  return { node, start, fetch, order };
}

function checkedPrevious(raw: unknown): PlanDoc {
  const issues: Issue[] = [];
  const bad = (path: string, message: string) => issues.length < 20 && issues.push({ path, message });
  if (!isObject(raw)) throw new ValidationError('previous plan', [{ path: 'previous', message: 'must be a fallow.plan/v1 object' }]);
  const plan = raw as Record<string, unknown>;
  if (plan.format !== PLAN_FORMAT) bad('previous.format', `must be "${PLAN_FORMAT}", got ${show(plan.format)}`);
  if (plan.rejected !== undefined && (!Array.isArray(plan.rejected) || plan.rejected.some((r) => typeof r !== 'string')))
    bad('previous.rejected', 'must be an array of job ids');
  if (!Array.isArray(plan.assignments)) bad('previous.assignments', 'must be an array');
  else
    plan.assignments.forEach((a: unknown, n: number) => {
      const p = `previous.assignments[${n}]`;
      if (!isObject(a)) return bad(p, 'must be an object { job, stage, task, node, start }');
      const x = a as Record<string, unknown>;
      for (const k of ['job', 'stage', 'node']) if (typeof x[k] !== 'string') bad(`${p}.${k}`, `must be a string, got ${show(x[k])}`);
      for (const k of ['task', 'start']) if (!isInt(x[k]) || (x[k] as number) < 0) bad(`${p}.${k}`, `must be an integer >= 0, got ${show(x[k])}`);
    });
  if (issues.length > 0) throw new ValidationError('previous plan', issues);
  return raw as PlanDoc;
}

/**
 * The tasks of a stage are interchangeable (but for the block each reads), so a schedule may name them in any
 * order: this one names them as the previous plan did where a (node, start) of the stage is the same, so that
 * an unchanged placement does not count as moved. Frozen tasks and stages with `blocks` keep their names.
 */
export function keepLabels(model: Model, s: Schedule, previous: Previous): Schedule {
  const out = s.clone();
  const fz = model.frozen;
  const key = (k: number, t: number) => k * (model.T + 1) + t;
  for (const st of model.stages) {
    if (st.blocks || !s.accepted[st.job]) continue;
    const tasks: number[] = [];
    for (let i = st.firstTask; i < st.firstTask + st.tasks; i++) if (!fz || fz.node[i] < 0) tasks.push(i);
    const waiting = new Map<number, number[]>();
    for (const i of tasks) if (previous.node[i] >= 0) {
      const kk = key(previous.node[i], previous.start[i]);
      const list = waiting.get(kk);
      if (list) list.push(i);
      else waiting.set(kk, [i]);
    }
    const name = new Int32Array(tasks.length).fill(-1);
    const taken = new Set<number>();
    tasks.forEach((i, n) => {
      const match = waiting.get(key(s.node[i], s.start[i]))?.pop();
      if (match !== undefined) (name[n] = match), taken.add(match);
    });
    const spare = tasks.filter((i) => !taken.has(i));
    tasks.forEach((i, n) => {
      const to = name[n] >= 0 ? name[n] : spare.pop()!;
      out.node[to] = s.node[i];
      out.start[to] = s.start[i];
      if (out.fetch) out.fetch[to] = s.fetch![i];
    });
  }
  return out;
}

/** Moved, kept, new and dropped tasks of `s` against the previous plan (all zero without one). */
export function countDisruption(model: Model, s: Schedule, previous: Previous | null): Disruption {
  const d: Disruption = { movedTasks: 0, keptTasks: 0, newTasks: 0, droppedTasks: 0 };
  if (!previous) return d;
  const fz = model.frozen;
  for (let i = 0; i < model.nTasks; i++) {
    if (fz && fz.node[i] >= 0) continue;
    const had = previous.node[i] >= 0;
    if (!s.accepted[model.taskJob[i]]) {
      if (had) d.droppedTasks++;
    } else if (!had) d.newTasks++;
    else if (s.node[i] === previous.node[i] && s.start[i] === previous.start[i]) d.keptTasks++;
    else d.movedTasks++;
  }
  return d;
}
