import { isInt, isObject, show } from './json-values';
import type { Issue } from './types';

/** Most messages about frozen assignments: a re-plan of 10,000 started tasks with one mistake everywhere needs a few lines. */
const MAX_MESSAGES = 20;

/**
 * The issues of an instance's `frozen` (docs/FORMAT.md, Frozen assignments) that the document alone shows:
 * `nowSlot` an integer in [0, horizon.slots]; each assignment names a known job, one of its stages, a task of
 * it, a known node, a start in [0, nowSlot] (it has started by now) and, when given, fetchSlots an integer
 * >= 0; no task twice. What needs durations (a frozen task after its stage's predecessors, within the window,
 * the frozen tasks alone within capacity from nowSlot on) is checked on the compiled model (model/frozen.ts).
 */
export function frozenIssues(frozen: unknown, jobs: unknown, nodeIds: ReadonlySet<string>, slots: number): Issue[] {
  const issues: Issue[] = [];
  let more = 0;
  const bad = (path: string, message: string) => (issues.length < MAX_MESSAGES ? issues.push({ path, message }) : more++);
  if (!isObject(frozen)) return [{ path: 'frozen', message: 'must be an object { nowSlot, assignments }' }];
  const f = frozen as Record<string, unknown>;
  for (const k of Object.keys(f)) if (k !== 'nowSlot' && k !== 'assignments') bad(`frozen.${k}`, 'unknown field (expected nowSlot or assignments)');
  const now = f.nowSlot;
  const nowOk = isInt(now) && now >= 0 && (slots <= 0 || now <= slots);
  if (!nowOk) bad('frozen.nowSlot', `must be an integer in [0, ${slots > 0 ? slots : 'horizon.slots'}], got ${show(now)}`);
  if (!Array.isArray(f.assignments)) {
    bad('frozen.assignments', 'must be an array of { job, stage, task, node, start, fetchSlots? }');
    return issues;
  }
  const tasksOf = stageTasks(jobs);
  const seen = new Set<string>();
  f.assignments.forEach((raw, n) => {
    const p = `frozen.assignments[${n}]`;
    if (!isObject(raw)) return bad(p, 'must be an object { job, stage, task, node, start, fetchSlots? }');
    const a = raw as Record<string, unknown>;
    const stages = typeof a.job === 'string' ? tasksOf.get(a.job) : undefined;
    if (!stages) bad(`${p}.job`, `unknown job ${show(a.job)}`);
    const count = stages && typeof a.stage === 'string' ? stages.get(a.stage) : undefined;
    if (stages && count === undefined) bad(`${p}.stage`, `job "${a.job}" has no stage ${show(a.stage)}`);
    if (!isInt(a.task) || a.task < 0 || (count !== undefined && a.task >= count))
      bad(`${p}.task`, `must be an integer in [0, ${count !== undefined ? count - 1 : 'tasks - 1'}], got ${show(a.task)}`);
    if (typeof a.node !== 'string' || !nodeIds.has(a.node)) bad(`${p}.node`, `unknown node ${show(a.node)}`);
    if (!isInt(a.start) || a.start < 0 || (nowOk && a.start > (now as number)))
      bad(`${p}.start`, `must be an integer in [0, nowSlot${nowOk ? ` = ${now}` : ''}] (a frozen task has started), got ${show(a.start)}`);
    if (a.fetchSlots !== undefined && (!isInt(a.fetchSlots) || a.fetchSlots < 0)) bad(`${p}.fetchSlots`, `must be an integer >= 0, got ${show(a.fetchSlots)}`);
    const key = `${String(a.job)}\u0000${String(a.stage)}\u0000${String(a.task)}`;
    if (seen.has(key)) bad(p, `task ${String(a.job)}/${String(a.stage)}/${String(a.task)} is frozen twice`);
    seen.add(key);
  });
  if (more > 0) issues.push({ path: 'frozen.assignments', message: `and ${more} more problems` });
  return issues;
}

/** job id -> stage id -> task count, from whatever of `jobs` is well formed (the rest is reported elsewhere). */
function stageTasks(jobs: unknown): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  if (!Array.isArray(jobs)) return out;
  for (const raw of jobs) {
    const j = raw as { id?: unknown; stages?: unknown };
    if (!isObject(raw) || typeof j.id !== 'string' || !Array.isArray(j.stages)) continue;
    const stages = new Map<string, number>();
    for (const s of j.stages as { id?: unknown; tasks?: unknown }[]) if (isObject(s) && typeof s.id === 'string' && isInt(s.tasks)) stages.set(s.id, s.tasks);
    out.set(j.id, stages);
  }
  return out;
}
