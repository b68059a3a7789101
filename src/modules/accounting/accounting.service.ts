import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { notFound } from '../common/problem';
import { AccountingQuery } from './accounting-query';
import { AccountingRepository, CapacityRow, SolveScope } from './accounting.repository';
import {
  BatchTotalsDto,
  BillTotalsDto,
  CustomerReportDto,
  FarmerClusterPeriodDto,
  FarmerReportDto,
  FarmerTotalsDto,
  OperatorFiguresDto,
  OperatorReportDto,
} from './accounting.dto';
import { groupBy, LedgerLine, split, totals } from './ledger';
import { actualLines, planLines, simulatedLines } from './lines';
import { inRange, periodEnd, periodOf } from './periods';

/** The three accounting views over one set of ledger lines per request. */
@Injectable()
export class AccountingService {
  constructor(
    private readonly repo: AccountingRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async customer(customerId: string, q: AccountingQuery): Promise<CustomerReportDto> {
    await this.mustExist(customerId, 'customer');
    const lines = await this.lines({ customerId }, q);
    const bills = [...groupBy(lines, (l) => periodOf(l.at, q.period).periodStart)].map(([start, ls]) => ({
      periodStart: start,
      periodEnd: periodEnd(new Date(start), q.period).toISOString(),
      ...bill(ls),
    }));
    const batches: BatchTotalsDto[] = [...groupBy(lines, (l) => l.batchId ?? '')].map(([batchId, ls]) => ({ batchId: batchId || null, ...bill(ls) }));
    return {
      ...this.header(q),
      customerId,
      jobs: lines.map((l) => ({
        solveId: l.solveId,
        batchId: l.batchId,
        job: l.job,
        sla: l.sla,
        deadlineAt: l.deadlineAt?.toISOString() ?? null,
        endAt: l.endAt?.toISOString() ?? null,
        at: l.at.toISOString(),
        periodStart: periodOf(l.at, q.period).periodStart,
        ...money(l.revenue),
      })),
      batches,
      bills,
      totals: bill(lines),
    };
  }

  async farmer(farmerId: string, q: AccountingQuery): Promise<FarmerReportDto> {
    await this.mustExist(farmerId, 'farmer');
    const lines = await this.lines({ farmerId }, q);
    const solveIds = [...new Set(lines.map((l) => l.solveId))];
    // The simulator's reports keep no per-task times, so the simulated basis lends what the plans planned.
    const capacity = solveIds.length ? await (q.basis === 'actual' ? this.repo.actualCapacity(solveIds) : this.repo.plannedCapacity(solveIds)) : [];
    const incidents = await this.repo.incidents(farmerId, q.range);
    const clusterIds = [...new Set([...lines.map((l) => l.clusterId!), ...incidents.map((i) => i.clusterId)])];
    const names = await this.repo.clusterNames(clusterIds);

    // Capacity counts where its job counts: in the job's period, and only for jobs inside the range.
    const capacityOf = groupBy(capacity, (c) => `${c.solveId}\u0000${c.job}`);
    const rows = new Map<string, FarmerClusterPeriodDto>();
    const row = (clusterId: string, at: Date): FarmerClusterPeriodDto => {
      const p = periodOf(at, q.period);
      const key = `${p.periodStart}\u0000${clusterId}`;
      let r = rows.get(key);
      if (!r) rows.set(key, (r = { clusterId, clusterName: names.get(clusterId) ?? '', ...p, ...emptyFarmerTotals() }));
      return r;
    };
    for (const l of lines) {
      const r = row(l.clusterId!, l.at);
      if (l.sla === 'on-time' || l.sla === 'late') {
        r.jobsRun++;
        r.revenueBasis += split(l.revenue).amountDue;
        r.shareEarned += l.payout;
      }
      addCapacity(r.capacityLent, capacityOf.get(`${l.solveId}\u0000${l.job}`) ?? []);
    }
    for (const i of incidents) row(i.clusterId, i.at).incidents++;
    const clusters = [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, r]) => r);
    // Rows that hold only pending jobs without capacity yet carry no information.
    const shown = clusters.filter((r) => r.jobsRun || r.incidents || Object.keys(r.capacityLent).length);
    const total = emptyFarmerTotals();
    for (const r of shown) {
      total.jobsRun += r.jobsRun;
      total.revenueBasis += r.revenueBasis;
      total.shareEarned += r.shareEarned;
      total.incidents += r.incidents;
      for (const [m, h] of Object.entries(r.capacityLent)) total.capacityLent[m] = (total.capacityLent[m] ?? 0) + h;
    }
    return {
      ...this.header(q),
      farmerId,
      shareBps: await this.repo.shareBps(farmerId),
      clusters: shown,
      incidents: incidents.map((i) => ({ ...i, at: i.at.toISOString() })),
      totals: total,
    };
  }

  async operator(q: AccountingQuery): Promise<OperatorReportDto> {
    const lines = await this.lines({}, q);
    const byPeriod = <K extends string>(ls: LedgerLine[], key: (l: LedgerLine) => string | null, name?: K) => {
      const out: Record<string, unknown>[] = [];
      for (const [k, group] of groupBy(ls.filter((l) => key(l) !== null), (l) => `${periodOf(l.at, q.period).periodStart}\u0000${key(l)}`)) {
        const [start, id] = k.split('\u0000');
        out.push({ periodStart: start, periodEnd: periodEnd(new Date(start), q.period).toISOString(), ...(name ? { [name]: id } : {}), ...figures(group) });
      }
      return out;
    };
    return {
      ...this.header(q),
      periods: byPeriod(lines, () => '') as never,
      farmers: byPeriod(lines, (l) => l.farmerId, 'farmerId') as never,
      customers: byPeriod(lines, (l) => l.customerId, 'customerId') as never,
      totals: figures(lines),
    };
  }

  /** The ledger lines of the solves in scope on the requested basis, restricted to the time range. */
  private async lines(scope: SolveScope, q: AccountingQuery): Promise<LedgerLine[]> {
    const solves = await this.repo.solves(scope, q.range, q.basis === 'plan');
    let lines: LedgerLine[];
    const ids = solves.map((s) => s.solveId);
    if (q.basis === 'plan') lines = solves.flatMap(planLines);
    else if (q.basis === 'simulated') {
      const [terms, runs] = ids.length ? await Promise.all([this.repo.jobTerms(ids), this.repo.simulatedJobs(ids)]) : [new Map(), new Map()];
      lines = solves.flatMap((s) => simulatedLines(s, terms.get(s.solveId) ?? new Map(), runs.get(s.solveId)));
    } else {
      const [terms, finished] = ids.length ? await Promise.all([this.repo.jobTerms(ids), this.repo.finished(ids)]) : [new Map(), new Map()];
      lines = solves.flatMap((s) => actualLines(s, terms.get(s.solveId) ?? new Map(), finished.get(s.solveId) ?? new Map()));
    }
    return lines.filter((l) => inRange(l.at, q.range)).sort((a, b) => a.at.getTime() - b.at.getTime() || cmp(a.solveId, b.solveId) || cmp(a.job, b.job));
  }

  private header(q: AccountingQuery) {
    return { currency: this.config.currency, basis: q.basis, period: q.period, from: q.range.from?.toISOString() ?? null, to: q.range.to?.toISOString() ?? null };
  }

  private async mustExist(tenantId: string, what: string): Promise<void> {
    if (!(await this.repo.tenantExists(tenantId))) throw notFound(what, tenantId);
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function money(revenue: number): { amountDue: number; penalty: number; net: number } {
  return split(revenue);
}

function bill(lines: LedgerLine[]): BillTotalsDto {
  const t = totals(lines);
  return { jobs: t.jobs, onTime: t.onTime, late: t.late, rejected: t.rejected, pending: t.pending, amountDue: t.amountDue, penalties: t.penalties, net: t.net };
}

function figures(lines: LedgerLine[]): OperatorFiguresDto {
  const t = totals(lines);
  return {
    revenue: t.amountDue,
    penalties: t.penalties,
    payouts: t.payouts,
    margin: t.margin,
    pru: t.pru,
    jcr: t.jcr,
    jobsOnTime: t.onTime,
    jobsLate: t.late,
    jobsRejected: t.rejected,
    jobsPending: t.pending,
  };
}

function emptyFarmerTotals(): FarmerTotalsDto {
  return { jobsRun: 0, capacityLent: {}, revenueBasis: 0, shareEarned: 0, incidents: 0 };
}

function addCapacity(into: Record<string, number>, rows: CapacityRow[]): void {
  for (const c of rows) into[c.metric] = (into[c.metric] ?? 0) + c.hours;
}
