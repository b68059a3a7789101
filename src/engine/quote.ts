import type { JobOutcome } from './evaluate/job-outcome';
import type { RejectionReason } from './evaluate/rejections';
import { loadInstance } from './model/model';
import type { InstanceDoc } from './model/types';
import { solveWithOutcome } from './solve';

/** The strategy a quote plans with: greedy and deterministic, a few milliseconds on a job of a hundred tasks. */
export const QUOTE_STRATEGY = 'rffd';
const QUOTE_BUDGET_MS = 250;

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
 * `reserved`, capped to the customer's quota) planned with a fast greedy strategy, each job's end and revenue,
 * and why each job that does not fit is out: capacity (what is free cannot hold it), deadline (it cannot end
 * within the window, or ends past its deadline), quota (it is out, or late, with the cap and fits without it:
 * `uncapped`, the same instance without the quota's cap, when the quota caps anything).
 */
export async function quote(instance: InstanceDoc, uncapped: InstanceDoc | null): Promise<Quote> {
  const planned = await plan(instance);
  const free = uncapped && planned.jobs.some((j) => !fits(j)) ? await plan(uncapped) : null;
  const freeFits = new Set(free?.jobs.filter(fits).map((j) => j.id) ?? []);
  const why = new Map(planned.rejections.map((r) => [r.job, r]));
  const jobs = planned.jobs.map((j): QuotedJob => {
    const ok = fits(j);
    const out = { id: j.id, accepted: j.accepted, fits: ok, endSlot: j.endSlot, deadlineSlot: j.deadlineSlot, onTime: j.onTime, revenue: j.revenue };
    if (ok) return { ...out, reason: null, detail: null };
    if (freeFits.has(j.id)) return { ...out, reason: 'quota', detail: "it fits on the cluster, but not within the customer's quota" };
    if (j.accepted) return { ...out, reason: 'deadline', detail: `it would end at slot ${j.endSlot}, past its deadline slot ${j.deadlineSlot}` };
    const r = why.get(j.id);
    return { ...out, reason: r?.code === 'misses-window' ? 'deadline' : 'capacity', detail: r?.reason ?? null };
  });
  return { strategy: QUOTE_STRATEGY, jobs, revenue: jobs.reduce((s, j) => s + (j.accepted ? j.revenue : 0), 0) };
}

function fits(j: JobOutcome): boolean {
  return j.accepted && j.onTime !== false;
}

async function plan(instance: InstanceDoc): Promise<{ jobs: JobOutcome[]; rejections: RejectionReason[] }> {
  const out = await solveWithOutcome(loadInstance(instance), { strategy: QUOTE_STRATEGY, timeBudgetMs: QUOTE_BUDGET_MS, seed: 1 });
  return { jobs: out.kpis.jobs as JobOutcome[], rejections: out.rejections };
}
