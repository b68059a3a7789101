import { CustomerReportDto, FarmerReportDto, OperatorReportDto } from './accounting.dto';
import { toCsv } from './csv';

/** The main table of each report as CSV (`?format=csv`): the same numbers as the JSON, one row per line. */
export function customerCsv(r: CustomerReportDto): string {
  return toCsv(
    ['solve_id', 'batch_id', 'job', 'sla', 'deadline_at', 'end_at', 'period_start', 'currency', 'amount_due', 'penalty', 'net'],
    r.jobs.map((j) => [j.solveId, j.batchId, j.job, j.sla, j.deadlineAt, j.endAt, j.periodStart, r.currency, j.amountDue, j.penalty, j.net]),
  );
}

/** One `capacity_<metric>_hours` column per metric any row has, in name order. */
export function farmerCsv(r: FarmerReportDto): string {
  const metrics = [...new Set(r.clusters.flatMap((c) => Object.keys(c.capacityLent)))].sort();
  return toCsv(
    ['cluster_id', 'cluster_name', 'period_start', 'period_end', 'jobs_run', ...metrics.map((m) => `capacity_${m}_hours`), 'currency', 'revenue_basis', 'share_earned', 'incidents'],
    r.clusters.map((c) => [c.clusterId, c.clusterName, c.periodStart, c.periodEnd, c.jobsRun, ...metrics.map((m) => c.capacityLent[m] ?? 0), r.currency, c.revenueBasis, c.shareEarned, c.incidents]),
  );
}

export function operatorCsv(r: OperatorReportDto): string {
  return toCsv(
    ['period_start', 'period_end', 'currency', 'revenue', 'penalties', 'payouts', 'margin', 'pru', 'jcr', 'jobs_on_time', 'jobs_late', 'jobs_rejected', 'jobs_pending'],
    r.periods.map((p) => [p.periodStart, p.periodEnd, r.currency, p.revenue, p.penalties, p.payouts, p.margin, p.pru, p.jcr, p.jobsOnTime, p.jobsLate, p.jobsRejected, p.jobsPending]),
  );
}
