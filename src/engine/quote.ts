import { explainRejections, RejectionReason } from './evaluate/rejections';
import { edfOrder, rffdOnce } from './lists/job-orders';
import { loadInstance, Model } from './model/model';
import type { InstanceDoc, PlanDoc } from './model/types';
import { Random } from './random';
import { jobRevenue } from './schedule/revenue';
import { Schedule } from './schedule/schedule';
import { buildFromJobOrder } from './schedule/sgs';

/** How a quote plans: a few greedy builds, kept when more jobs fit (the answer of a form, not of a solve). */
export const QUOTE_STRATEGY = 'quote-greedy';
/** Random First Fit Decreasing builds tried besides the deadline-first one: a fixed count, so the answer never depends on the machine's speed. */
const RFFD_BUILDS = 3;

export type QuoteReason = 'capacity' | 'deadline' | 'quota';

export interface QuotedJob {
  id: string;
  accepted: boolean;
  /** Accepted and, with a deadline, on time. */
  fits: boolean;
  endSlot: number | null;
  deadlineSlot: number | null;
  onTime: boolean | null;
  revenue: number;
  reason: QuoteReason | null;
  detail: string | null;
}

export interface Quote {
  strategy: string;
  jobs: QuotedJob[];
  revenue: number;
}

/**
 * "If these jobs were added now, what would they get" (issue 37, quotes): the instance (committed plans as
 * `reserved`, capped to the customer's quota) planned greedily, each job's end and revenue, and why each job
 * that does not fit is out: capacity (what is free cannot hold it), deadline (it cannot end within the window,
 * or ends past its deadline), quota (it is out, or late, with the cap and fits without it: `uncapped`, the
 * same instance without the quota's cap, when the quota caps anything). No bound is proved and nothing is
 * placed: a quote must answer within a form's patience; a solve then plans for real.
 */
export function quote(instance: InstanceDoc, uncapped: InstanceDoc | null): Quote {
  const planned = plan(loadInstance(instance));
  const free = uncapped && planned.jobs.some((j) => !j.fits) ? plan(loadInstance(uncapped)) : null;
  const freeFits = new Set(free?.jobs.filter((j) => j.fits).map((j) => j.id) ?? []);
  const why = new Map(planned.rejections.map((r) => [r.job, r]));
  const jobs = planned.jobs.map((j): QuotedJob => {
    if (j.fits) return { ...j, reason: null, detail: null };
    if (freeFits.has(j.id)) return { ...j, reason: 'quota', detail: "it fits on the cluster, but not within the customer's quota" };
    if (j.accepted) return { ...j, reason: 'deadline', detail: `it would end at slot ${j.endSlot}, past its deadline slot ${j.deadlineSlot}` };
    const r = why.get(j.id);
    return { ...j, reason: r?.code === 'misses-window' ? 'deadline' : 'capacity', detail: r?.reason ?? null };
  });
  return { strategy: QUOTE_STRATEGY, jobs, revenue: jobs.reduce((s, j) => s + j.revenue, 0) };
}

type Outcome = Omit<QuotedJob, 'reason' | 'detail'>;

/** The best of a deadline-first build and a few rffd builds: most jobs fitting, then most tasks, then the earliest ends. */
function plan(model: Model): { jobs: Outcome[]; rejections: RejectionReason[] } {
  const rng = new Random(1);
  const builds: Schedule[] = Array.from({ length: RFFD_BUILDS }, () => rffdOnce(model, rng));
  builds.push(buildFromJobOrder(model, edfOrder(model), rng, 'earliestStart'));
  let best: Outcome[] = [];
  let bestKey: number[] | null = null;
  let bestSchedule = builds[0];
  for (const s of builds) {
    const jobs = outcomes(model, s);
    const key = [jobs.filter((j) => j.fits).length, s.scheduledTasks(), -jobs.reduce((t, j) => t + (j.endSlot ?? 0), 0)];
    if (bestKey === null || greater(key, bestKey)) {
      best = jobs;
      bestKey = key;
      bestSchedule = s;
    }
  }
  const rejected = model.jobs.filter((_, j) => !bestSchedule.accepted[j]).map((j) => j.id);
  return { jobs: best, rejections: explainRejections(model, { rejected } as PlanDoc) };
}

/** Lexicographic a > b. */
function greater(a: number[], b: number[]): boolean {
  const i = a.findIndex((x, k) => x !== b[k]);
  return i >= 0 && a[i] > b[i];
}

/** Each job's outcome in a schedule, as the evaluator reports it (Kpis.jobs): end, deadline, on time, revenue. */
function outcomes(model: Model, s: Schedule): Outcome[] {
  return model.jobs.map((job, j) => {
    const accepted = s.accepted[j] === 1;
    const endSlot = accepted ? s.jobEnd(j) : null;
    const deadlineSlot = job.deadline >= 0 ? job.deadline : null;
    const onTime = accepted ? deadlineSlot === null || endSlot! <= deadlineSlot : null;
    return { id: job.id, accepted, fits: accepted && onTime !== false, endSlot, deadlineSlot, onTime, revenue: accepted ? jobRevenue(job, endSlot!) : 0 };
  });
}
