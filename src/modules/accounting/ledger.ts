/**
 * The accounting rules, as pure functions over one line per job. Every amount is an integer number of minor
 * units of the configured currency (cents for EUR): the instance's `revenue.onTime` / `revenue.late` are
 * read as minor units and rounded half away from zero, per job, before anything is summed, so every total
 * is the exact sum of the lines it covers whichever way they are grouped.
 */

export const SLA_STATUSES = ['on-time', 'late', 'rejected', 'pending'] as const;
export type SlaStatus = (typeof SLA_STATUSES)[number];

/** `x` in integer minor units, rounding half away from zero (2.5 -> 3, -2.5 -> -3). */
export function toMinor(x: number): number {
  const r = Math.sign(x) * Math.round(Math.abs(x));
  return r === 0 ? 0 : r; // never -0 (it would print as "-0" in some clients)
}

/** Plan basis: the evaluator's verdict on the job in the plan. */
export function planStatus(outcome: { accepted: boolean; onTime: boolean | null }): SlaStatus {
  if (!outcome.accepted) return 'rejected';
  return outcome.onTime === false ? 'late' : 'on-time';
}

/**
 * Actual basis: a job is complete once every task of it has a `finished` event (a task killed and then
 * finished counts as finished); it is on time iff its last finish is at or before its deadline (always,
 * without a deadline). A job the plan rejected that never ran stays rejected; anything else is pending.
 */
export function actualStatus(j: { acceptedInPlan: boolean; totalTasks: number; finishedTasks: number; endAt: Date | null; deadlineAt: Date | null }): SlaStatus {
  if (j.totalTasks > 0 && j.finishedTasks >= j.totalTasks && j.endAt) return !j.deadlineAt || j.endAt.getTime() <= j.deadlineAt.getTime() ? 'on-time' : 'late';
  if (!j.acceptedInPlan && j.finishedTasks === 0) return 'rejected';
  return 'pending';
}

/**
 * Simulated basis: the job's outcome in its plan's latest succeeded simulation. A job the simulation did not
 * run is rejected; one it left unfinished (or a plan not simulated yet) is pending; otherwise it is on time iff
 * its simulated end is at or before its deadline (always, without a deadline), exactly as on the actual basis.
 */
export function simulatedStatus(j: { simulated: boolean; accepted: boolean; endAt: Date | null; deadlineAt: Date | null }): SlaStatus {
  if (!j.simulated) return 'pending';
  if (!j.accepted) return 'rejected';
  if (!j.endAt) return 'pending';
  return !j.deadlineAt || j.endAt.getTime() <= j.deadlineAt.getTime() ? 'on-time' : 'late';
}

/** Revenue of a job (FORMAT.md, two-stage Eq. 2-3): onTime, late, 0 when rejected, pending or without a revenue function. */
export function jobRevenue(status: SlaStatus, revenue: { onTime?: number; late?: number } | undefined): number {
  if (!revenue) return 0;
  if (status === 'on-time') return toMinor(revenue.onTime ?? 0);
  if (status === 'late') return toMinor(revenue.late ?? 0);
  return 0;
}

/** What a job's revenue means for money: positive revenue is due from the customer; negative is a penalty the operator pays back. */
export function split(revenue: number): { amountDue: number; penalty: number; net: number } {
  return { amountDue: Math.max(0, revenue), penalty: Math.max(0, -revenue), net: revenue };
}

/**
 * The farmer's share of one job run on its cluster: shareBps of the amount due, rounded down to a minor unit
 * (the operator keeps the fraction). Penalties are borne by the operator alone, so the share is never negative.
 * Computed per job so the farmer's and the operator's views add up to the same payouts.
 */
export function farmerShare(amountDue: number, shareBps: number): number {
  return Math.floor((Math.max(0, amountDue) * shareBps) / 10_000);
}

export interface LedgerLine {
  solveId: string;
  batchId: string | null;
  customerId: string;
  clusterId: string | null;
  farmerId: string | null;
  job: string;
  sla: SlaStatus;
  deadlineAt: Date | null;
  /** Planned (plan basis) or actual (actual basis) end; null when rejected or pending. */
  endAt: Date | null;
  /** When the job counts: its end; for a rejected or pending job, its deadline or else its planned end / window end. */
  at: Date;
  /** Signed revenue in minor units. */
  revenue: number;
  /** The farmer's share of this job (0 without a farmer). */
  payout: number;
  /** PRU of the job's plan (two-stage Eq. 9). */
  planPru: number;
}

export interface Totals {
  jobs: number;
  onTime: number;
  late: number;
  rejected: number;
  pending: number;
  amountDue: number;
  penalties: number;
  net: number;
  payouts: number;
  /** amountDue - penalties - payouts: what the operator keeps. */
  margin: number;
  /** Accepted-job-weighted mean of the plans' PRU: each accepted job counts its plan's PRU once. */
  pru: number;
  /** Two-stage Eq. 10 over these jobs: on-time jobs / all jobs (rejected and pending included). */
  jcr: number;
}

/** Sums lines into totals; the identities net = amountDue - penalties and margin = net - payouts always hold. */
export function totals(lines: readonly LedgerLine[]): Totals {
  const t: Totals = { jobs: 0, onTime: 0, late: 0, rejected: 0, pending: 0, amountDue: 0, penalties: 0, net: 0, payouts: 0, margin: 0, pru: 0, jcr: 0 };
  let pruSum = 0;
  let accepted = 0;
  for (const l of lines) {
    t.jobs++;
    if (l.sla === 'on-time') t.onTime++;
    else if (l.sla === 'late') t.late++;
    else if (l.sla === 'rejected') t.rejected++;
    else t.pending++;
    const m = split(l.revenue);
    t.amountDue += m.amountDue;
    t.penalties += m.penalty;
    t.payouts += l.payout;
    if (l.sla !== 'rejected') {
      pruSum += l.planPru;
      accepted++;
    }
  }
  t.net = t.amountDue - t.penalties;
  t.margin = t.net - t.payouts;
  t.pru = accepted > 0 ? pruSum / accepted : 0;
  t.jcr = t.jobs > 0 ? t.onTime / t.jobs : 0;
  return t;
}

/** Groups lines by a key, keeping keys in sorted order (periods sort by their ISO start). */
export function groupBy<T>(items: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of items) {
    const k = key(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return new Map([...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
