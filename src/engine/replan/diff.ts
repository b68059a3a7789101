/**
 * What changed from one plan to another (a re-plan against the plan it supersedes, or any two plans of one
 * cluster): tasks moved (another node or another start), added (run by the second plan only), dropped (run by
 * the first only), each job's end and revenue, and the totals. Pure: each plan is read on its own instance
 * (a re-plan's cluster may have changed under it), task ends are assignmentEnds' and a job's revenue
 * jobRevenue's, as the evaluator counts them.
 */
import type { Model } from '../model/model';
import type { PlanDoc } from '../model/types';
import { assignmentEnds } from '../schedule/plan-doc';
import { jobRevenue } from '../schedule/revenue';

/** One plan as the diff reads it. */
export interface DiffSide {
  /** The plan's instance, compiled. */
  model: Model;
  plan: PlanDoc;
  /**
   * Added to every slot of this plan to express it in the slots of the plan diffed against `before`
   * (0 for plans of one window; two windows on one slot grid differ by whole slots).
   */
  offsetSlots?: number;
}

export interface TaskPlace {
  node: string;
  start: number;
  end: number;
}

export interface TaskRef {
  job: string;
  stage: string;
  task: number;
}

export type PlacedTask = TaskRef & TaskPlace;
export type MovedTask = TaskRef & { before: TaskPlace; after: TaskPlace };

/** A job in one plan: run or rejected, when it ends and what it earns (null without a revenue function). */
export interface JobState {
  accepted: boolean;
  endSlot: number | null;
  revenue: number | null;
}

export interface JobChange {
  job: string;
  before: JobState | null;
  after: JobState | null;
  /** after.endSlot - before.endSlot when the job runs in both plans; null otherwise. */
  endChange: number | null;
}

export interface PlanDiff {
  counts: { moved: number; added: number; dropped: number; kept: number; jobsChanged: number };
  moved: MovedTask[];
  added: PlacedTask[];
  dropped: PlacedTask[];
  /** The jobs whose acceptance, end or revenue differ (jobs of one plan only among them). */
  jobs: JobChange[];
  makespan: { before: number; after: number };
  /** Totals of the jobs' revenue; null when no job of either plan has a revenue function. */
  revenue: { before: number; after: number; change: number } | null;
  /** Whether moved, added, dropped or jobs were cut at `limit` entries each (the counts are whole). */
  truncated: boolean;
}

interface SideRead {
  tasks: Map<string, TaskRef & TaskPlace>;
  jobs: Map<string, JobState>;
  makespan: number;
  hasRevenue: boolean;
}

const taskKey = (t: TaskRef) => `${t.job}\u0000${t.stage}\u0000${t.task}`;

function read(side: DiffSide): SideRead {
  const { model, plan } = side;
  const offset = side.offsetSlots ?? 0;
  const ends = assignmentEnds(model, plan);
  const tasks = new Map<string, TaskRef & TaskPlace>();
  const jobEnd = new Map<string, number>();
  let makespan = 0;
  plan.assignments.forEach((a, n) => {
    const t = { job: a.job, stage: a.stage, task: a.task, node: a.node, start: a.start + offset, end: ends[n] + offset };
    tasks.set(taskKey(t), t);
    jobEnd.set(a.job, Math.max(jobEnd.get(a.job) ?? 0, t.end));
    makespan = Math.max(makespan, t.end);
  });
  const rejected = new Set(plan.rejected);
  const jobs = new Map<string, JobState>();
  let hasRevenue = false;
  for (const job of model.jobs) {
    hasRevenue ||= job.hasRevenue;
    const accepted = !rejected.has(job.id) && jobEnd.has(job.id);
    const endSlot = accepted ? jobEnd.get(job.id)! : null;
    // jobRevenue reads the job's deadline in this plan's own slots.
    jobs.set(job.id, { accepted, endSlot, revenue: !job.hasRevenue ? null : accepted ? jobRevenue(job, endSlot! - offset) : 0 });
  }
  return { tasks, jobs, makespan, hasRevenue };
}

const same = (a: TaskPlace, b: TaskPlace) => a.node === b.node && a.start === b.start;
const sameJob = (a: JobState | null, b: JobState | null) => a !== null && b !== null && a.accepted === b.accepted && a.endSlot === b.endSlot && a.revenue === b.revenue;

/** What changed from `before` to `after`; each list holds at most `limit` entries, in `after`'s (then `before`'s) order. */
export function planDiff(before: DiffSide, after: DiffSide, limit = Infinity): PlanDiff {
  const b = read(before);
  const a = read(after);
  const moved: MovedTask[] = [];
  const added: PlacedTask[] = [];
  const dropped: PlacedTask[] = [];
  let kept = 0;
  let nMoved = 0;
  let nAdded = 0;
  let nDropped = 0;
  for (const [key, t] of a.tasks) {
    const was = b.tasks.get(key);
    if (!was) {
      if (nAdded++ < limit) added.push(t);
    } else if (same(was, t)) kept++;
    else if (nMoved++ < limit) moved.push({ job: t.job, stage: t.stage, task: t.task, before: place(was), after: place(t) });
  }
  for (const [key, t] of b.tasks) if (!a.tasks.has(key) && nDropped++ < limit) dropped.push(t);

  const jobs: JobChange[] = [];
  let nJobs = 0;
  for (const id of new Set([...a.jobs.keys(), ...b.jobs.keys()])) {
    const x = b.jobs.get(id) ?? null;
    const y = a.jobs.get(id) ?? null;
    if (sameJob(x, y)) continue;
    const endChange = x?.endSlot != null && y?.endSlot != null ? y.endSlot - x.endSlot : null;
    if (nJobs++ < limit) jobs.push({ job: id, before: x, after: y, endChange });
  }
  const total = (s: SideRead) => [...s.jobs.values()].reduce((sum, j) => sum + (j.revenue ?? 0), 0);
  const revenue = a.hasRevenue || b.hasRevenue ? { before: total(b), after: total(a), change: total(a) - total(b) } : null;
  return {
    counts: { moved: nMoved, added: nAdded, dropped: nDropped, kept, jobsChanged: nJobs },
    moved,
    added,
    dropped,
    jobs,
    makespan: { before: b.makespan, after: a.makespan },
    revenue,
    truncated: nMoved > moved.length || nAdded > added.length || nDropped > dropped.length || nJobs > jobs.length,
  };
}

const place = (t: TaskPlace): TaskPlace => ({ node: t.node, start: t.start, end: t.end });

