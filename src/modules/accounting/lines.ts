import { clampedDate } from '../../engine/model/input-bounds';
import { JobOutcome } from '../../engine/evaluate/evaluate';
import { actualStatus, farmerShare, jobRevenue, LedgerLine, planStatus, simulatedStatus, SlaStatus, toMinor } from './ledger';
import { slotTime } from './periods';

/** A solve with a stored plan, as accounting reads it (no assignments: only the plan's per-job KPIs). */
export interface AccountedSolve {
  solveId: string;
  customerId: string;
  batchId: string | null;
  clusterId: string | null;
  farmerId: string | null;
  /** The farmer's current revenue share; 0 without a farmer. */
  shareBps: number;
  startsAt: Date;
  slotSeconds: number;
  slots: number;
  pru: number;
  /** kpis.jobs of the plan (the evaluator's per-job outcomes). */
  jobs: PlanJobOutcome[];
}

/** The evaluator's per-job outcome, as stored in a plan's kpis.jobs. */
export type PlanJobOutcome = JobOutcome;

/** What the actual basis needs of the instance's job: its revenue function and how many tasks it has. */
export interface JobTerms {
  revenue?: { onTime?: number; late?: number };
  tasks: number;
}

/** A job's outcome in a simulation report (src/engine/simulate JobRun): seconds from the plan's slot 0. */
export interface SimulatedJob {
  accepted: boolean;
  endSeconds: number | null;
}

export interface FinishedTasks {
  finished: number;
  endAt: Date;
}

/**
 * When a job without an end counts (rejected, or pending on the actual basis): at its deadline when that is
 * inside the plan's window, else at the window's end. Keeps every plan-basis time inside the window.
 */
function unendedAt(s: AccountedSolve, j: PlanJobOutcome): Date {
  return slotTime(s.startsAt, Math.min(j.deadlineSlot ?? s.slots, s.slots), s.slotSeconds);
}

function line(s: AccountedSolve, j: PlanJobOutcome, sla: SlaStatus, endAt: Date | null, at: Date, revenue: number): LedgerLine {
  return {
    solveId: s.solveId,
    batchId: s.batchId,
    customerId: s.customerId,
    clusterId: s.clusterId,
    farmerId: s.farmerId,
    job: j.id,
    sla,
    deadlineAt: j.deadlineSlot === null ? null : slotTime(s.startsAt, j.deadlineSlot, s.slotSeconds),
    endAt,
    at,
    revenue,
    payout: s.farmerId ? farmerShare(revenue, s.shareBps) : 0,
    planPru: s.pru,
  };
}

/** Plan basis: the plan's verdict and revenue per job; a job counts at startsAt + endSlot * slotSeconds. */
export function planLines(s: AccountedSolve): LedgerLine[] {
  return s.jobs.map((j) => {
    const endAt = j.accepted && j.endSlot !== null ? slotTime(s.startsAt, j.endSlot, s.slotSeconds) : null;
    return line(s, j, planStatus(j), endAt, endAt ?? unendedAt(s, j), toMinor(j.revenue));
  });
}

/** Actual basis: the execution events decide status, end and revenue; incomplete jobs are pending, with no amount. */
export function actualLines(s: AccountedSolve, terms: Map<string, JobTerms>, finished: Map<string, FinishedTasks>): LedgerLine[] {
  return s.jobs.map((j) => {
    const t = terms.get(j.id) ?? { tasks: 0 };
    const f = finished.get(j.id);
    const deadlineAt = j.deadlineSlot === null ? null : slotTime(s.startsAt, j.deadlineSlot, s.slotSeconds);
    const sla = actualStatus({ acceptedInPlan: j.accepted, totalTasks: t.tasks, finishedTasks: f?.finished ?? 0, endAt: f?.endAt ?? null, deadlineAt });
    const complete = sla === 'on-time' || sla === 'late';
    const plannedAt = j.accepted && j.endSlot !== null ? slotTime(s.startsAt, j.endSlot, s.slotSeconds) : unendedAt(s, j);
    return line(s, j, sla, complete ? f!.endAt : null, complete ? f!.endAt : plannedAt, jobRevenue(sla, t.revenue));
  });
}

/**
 * Simulated basis: the plan's latest succeeded simulation decides status, end and revenue (`runs` is undefined
 * when the plan has none: its jobs are pending). The end is placed in time like the other bases:
 * startsAt + endSeconds; incomplete jobs count where the actual basis counts them, with no amount.
 */
export function simulatedLines(s: AccountedSolve, terms: Map<string, JobTerms>, runs: Map<string, SimulatedJob> | undefined): LedgerLine[] {
  return s.jobs.map((j) => {
    const run = runs?.get(j.id);
    const deadlineAt = j.deadlineSlot === null ? null : slotTime(s.startsAt, j.deadlineSlot, s.slotSeconds);
    const endAt = run && run.endSeconds !== null ? clampedDate(s.startsAt.getTime() + run.endSeconds * 1000) : null;
    const sla = simulatedStatus({ simulated: run !== undefined, accepted: run?.accepted ?? false, endAt, deadlineAt });
    const complete = sla === 'on-time' || sla === 'late';
    const plannedAt = j.accepted && j.endSlot !== null ? slotTime(s.startsAt, j.endSlot, s.slotSeconds) : unendedAt(s, j);
    return line(s, j, sla, complete ? endAt : null, complete ? endAt! : plannedAt, jobRevenue(sla, terms.get(j.id)?.revenue));
  });
}
