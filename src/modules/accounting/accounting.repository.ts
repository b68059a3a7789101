import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountedSolve, FinishedTasks, JobTerms, PlanJobOutcome, SimulatedJob } from './lines';
import { slotEndSql } from '../common/sql-time';
import type { PlanStatus } from '../plans/plan.entity';

/**
 * The plans accounting counts (issue 37, point 6): committed plans, and completed ones (committed plans
 * whose tasks have all ended; one past its end reads committed until something reads it, and counts the
 * same). A proposal is an offer nobody took, and a released plan was given back: neither earns, costs, pays
 * a farmer or lends capacity, on any basis. On the actual basis too: execution events reported for a plan
 * nobody committed (or one since released) are not billed, because no customer agreed to pay for that work
 * and no capacity was held for it.
 */
export const BILLED_PLAN_STATUSES: readonly PlanStatus[] = ['committed', 'completed'];

/** Whose solves: a customer's (the tenant that asked for the solve), a farmer's (it owns the cluster) or all. */
export type SolveScope = { customerId: string } | { farmerId: string } | Record<string, never>;

export interface CapacityRow {
  solveId: string;
  job: string;
  metric: string;
  /** demand x duration, in metric-hours. */
  hours: number;
}

export interface Incident {
  eventId: string;
  solveId: string;
  clusterId: string;
  job: string;
  stage: string;
  task: number;
  node: string;
  at: Date;
  reason: string | null;
}

/**
 * The accounting reads, each one statement whatever the number of solves or jobs (no query per job). Plans
 * are read through their per-job KPIs (`document->'kpis'->'jobs'`), never their assignments, except for
 * the capacity lent, which is one aggregate over plan_assignments.
 * These are read-only report queries over the solve/plan tables (and tenants, clusters, execution events,
 * simulations): accounting owns no table and writes nothing. Used only inside AccountingModule.
 *
 * Which plans count (BILLED_PLAN_STATUSES) is decided in two places only: `solves`, whose ids every other
 * per-solve read (jobTerms, finished, simulatedJobs, plannedCapacity, actualCapacity) takes as its input,
 * and `incidents`, which starts from execution events instead.
 */
@Injectable()
export class AccountingRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Solves with a stored plan (succeeded, or cancelled keeping their best plan) that is committed or
   * completed, in scope, whose jobs can fall in [from, to): nothing of a solve counts before its slot 0; on
   * the plan basis nothing counts after the end of its window either (on the actual basis a late job may end
   * after it). Every basis reads its solves here, so a proposed or released plan counts on none.
   */
  async solves(scope: SolveScope, range: { from?: Date; to?: Date }, planBasis: boolean): Promise<AccountedSolve[]> {
    const params: unknown[] = [];
    const param = (v: unknown) => `$${params.push(v)}`;
    const where = [`s.status IN ('succeeded', 'cancelled')`, `p.status = ANY(${param(BILLED_PLAN_STATUSES)}::text[])`];
    if ('customerId' in scope) where.push(`s.tenant_id = ${param(scope.customerId)}`);
    if ('farmerId' in scope) where.push(`c.tenant_id = ${param(scope.farmerId)}`);
    if (range.to) where.push(`s.starts_at < ${param(range.to)}`);
    if (range.from && planBasis) where.push(`${slotEndSql('s.starts_at', "s.instance->'horizon'->>'slots'", "s.instance->'horizon'->>'slotSeconds'")} >= ${param(range.from)}`);
    const rows = await this.db.query(
      `SELECT s.id AS solve_id, s.tenant_id AS customer_id, s.batch_id, s.cluster_id, c.tenant_id AS farmer_id,
              COALESCE(ft.revenue_share_bps, 0) AS share_bps, s.starts_at,
              (s.instance->'horizon'->>'slotSeconds')::float8 AS slot_seconds, (s.instance->'horizon'->>'slots')::float8 AS slots,
              COALESCE((p.document->'kpis'->>'pru')::float8, 0) AS pru, COALESCE(p.document->'kpis'->'jobs', '[]'::jsonb) AS jobs
       FROM solves s JOIN plans p ON p.solve_id = s.id
       LEFT JOIN clusters c ON c.id = s.cluster_id LEFT JOIN tenants ft ON ft.id = c.tenant_id
       WHERE ${where.join(' AND ')}
       ORDER BY s.starts_at, s.id`,
      params,
    );
    return rows.map(
      (r: any): AccountedSolve => ({
        solveId: r.solve_id,
        customerId: r.customer_id,
        batchId: r.batch_id,
        clusterId: r.cluster_id,
        farmerId: r.farmer_id,
        shareBps: Number(r.share_bps),
        startsAt: r.starts_at,
        slotSeconds: Number(r.slot_seconds),
        slots: Number(r.slots),
        pru: Number(r.pru),
        jobs: r.jobs as PlanJobOutcome[],
      }),
    );
  }

  /*
   * The per-solve reads below take the ids `solves` returned and filter no plan status again, on purpose:
   * one report then counts one set of plans. Filtering again would let a plan released while a report is
   * built keep its jobs (read by `solves`) but lose its capacity or events (read here), a report that
   * agrees with no state of the database.
   */

  /** Each job's revenue function and task count, from the instances the solves ran on. */
  async jobTerms(solveIds: string[]): Promise<Map<string, Map<string, JobTerms>>> {
    const rows = await this.db.query(
      `SELECT s.id AS solve_id, j->>'id' AS job, j->'revenue' AS revenue,
              (SELECT COALESCE(sum((st->>'tasks')::int), 0) FROM jsonb_array_elements(j->'stages') st)::int AS tasks
       FROM solves s CROSS JOIN LATERAL jsonb_array_elements(s.instance->'jobs') j
       WHERE s.id = ANY($1::uuid[])`,
      [solveIds],
    );
    const out = new Map<string, Map<string, JobTerms>>();
    for (const r of rows) nested(out, r.solve_id).set(r.job, { revenue: r.revenue ?? undefined, tasks: r.tasks });
    return out;
  }

  /** Per job, how many of its tasks have finished and the last finish (the latest finished event per task wins). */
  async finished(solveIds: string[]): Promise<Map<string, Map<string, FinishedTasks>>> {
    const rows = await this.db.query(
      `WITH t AS (SELECT solve_id, job, stage, task, max(at) AS at FROM execution_events
                  WHERE solve_id = ANY($1::uuid[]) AND type = 'finished' GROUP BY 1, 2, 3, 4)
       SELECT solve_id, job, count(*)::int AS finished, max(at) AS end_at FROM t GROUP BY 1, 2`,
      [solveIds],
    );
    const out = new Map<string, Map<string, FinishedTasks>>();
    for (const r of rows) nested(out, r.solve_id).set(r.job, { finished: r.finished, endAt: r.end_at });
    return out;
  }

  /**
   * Per solve, each job's outcome in the latest succeeded simulation of its plan (solves without one are
   * absent). Simulations of a plan made while it was still proposed count once it is committed: the plan
   * simulated is the one committed (a plan never changes), so its simulation tells as much of it.
   */
  async simulatedJobs(solveIds: string[]): Promise<Map<string, Map<string, SimulatedJob>>> {
    const rows = await this.db.query(
      `SELECT DISTINCT ON (p.solve_id) p.solve_id, sim.report->'jobs' AS jobs
       FROM simulations sim JOIN plans p ON p.id = sim.plan_id
       WHERE p.solve_id = ANY($1::uuid[]) AND sim.status = 'succeeded'
       ORDER BY p.solve_id, sim.created_at DESC, sim.id DESC`,
      [solveIds],
    );
    const out = new Map<string, Map<string, SimulatedJob>>();
    for (const r of rows) {
      const jobs = nested(out, r.solve_id);
      for (const j of r.jobs as { id: string; accepted: boolean; endSeconds: number | null }[]) jobs.set(j.id, { accepted: j.accepted, endSeconds: j.endSeconds });
    }
    return out;
  }

  /**
   * Plan basis capacity lent: demand x planned duration of every assignment, per job and metric, in
   * metric-hours. One aggregate: assignments summed per stage first, then joined to the stage demands
   * unnested from the instance (a hash join, so thousands of jobs cost no more than one pass each).
   * Only the solves `solves` counted: a proposal lends nothing, whatever its assignments say.
   */
  async plannedCapacity(solveIds: string[]): Promise<CapacityRow[]> {
    return this.capacity(
      `SELECT p.solve_id, a.job, a.stage, sum(a.end_slot - a.start)::float8 * (s.instance->'horizon'->>'slotSeconds')::float8 / 3600 AS hours
       FROM plans p JOIN solves s ON s.id = p.solve_id JOIN plan_assignments a ON a.plan_id = p.id
       WHERE p.solve_id = ANY($1::uuid[]) GROUP BY p.solve_id, a.job, a.stage, s.instance->'horizon'->>'slotSeconds'`,
      solveIds,
    );
  }

  /**
   * Actual basis capacity lent: per task, from its first `started` to its last `finished` (or, when it never
   * finished, its last `killed`): a killed task held the capacity until it was killed.
   */
  async actualCapacity(solveIds: string[]): Promise<CapacityRow[]> {
    return this.capacity(
      `SELECT solve_id, job, stage, sum(extract(epoch FROM e - s))::float8 / 3600 AS hours FROM (
         SELECT solve_id, job, stage, task, min(at) FILTER (WHERE type = 'started') AS s,
                COALESCE(max(at) FILTER (WHERE type = 'finished'), max(at) FILTER (WHERE type = 'killed')) AS e
         FROM execution_events WHERE solve_id = ANY($1::uuid[]) GROUP BY 1, 2, 3, 4) t
       WHERE s IS NOT NULL AND e > s GROUP BY 1, 2, 3`,
      solveIds,
    );
  }

  /** `durations` gives hours per (solve, job, stage); this multiplies them by each metric's demand. */
  private async capacity(durations: string, solveIds: string[]): Promise<CapacityRow[]> {
    const rows = await this.db.query(
      `WITH d AS (${durations}),
       sd AS (SELECT s.id AS solve_id, j->>'id' AS job, st->>'id' AS stage, m.key AS metric, m.value::float8 AS demand
              FROM solves s CROSS JOIN LATERAL jsonb_array_elements(s.instance->'jobs') j
              CROSS JOIN LATERAL jsonb_array_elements(j->'stages') st CROSS JOIN LATERAL jsonb_each_text(st->'demand') m
              WHERE s.id = ANY($1::uuid[]))
       SELECT d.solve_id, d.job, sd.metric, sum(sd.demand * d.hours) AS hours
       FROM d JOIN sd ON sd.solve_id = d.solve_id AND sd.job = d.job AND sd.stage = d.stage
       GROUP BY 1, 2, 3`,
      [solveIds],
    );
    return rows.map((r: any) => ({ solveId: r.solve_id, job: r.job, metric: r.metric, hours: Number(r.hours) }));
  }

  /**
   * Killed tasks on a farmer's clusters in [from, to): the interference its regular load caused to work
   * the farmer's cluster had agreed to host, so only tasks of committed or completed plans. A task of a plan
   * nobody committed ran on capacity nothing held for it: the farmer's load killing it broke no commitment.
   * A released plan's incidents go with its other figures, as issue 37 asks of everything a released plan
   * counted. Read from the events (not from `solves`' ids) because an incident counts at its own time, not
   * at its job's.
   */
  async incidents(farmerId: string, range: { from?: Date; to?: Date }): Promise<Incident[]> {
    const params: unknown[] = [farmerId, BILLED_PLAN_STATUSES];
    const where = [`c.tenant_id = $1`, `e.type = 'killed'`, `p.status = ANY($2::text[])`];
    if (range.from) where.push(`e.at >= $${params.push(range.from)}`);
    if (range.to) where.push(`e.at < $${params.push(range.to)}`);
    const rows = await this.db.query(
      `SELECT e.event_id, e.solve_id, s.cluster_id, e.job, e.stage, e.task, e.node, e.at, e.reason
       FROM execution_events e JOIN solves s ON s.id = e.solve_id JOIN clusters c ON c.id = s.cluster_id
       JOIN plans p ON p.solve_id = s.id
       WHERE ${where.join(' AND ')} ORDER BY e.at, e.event_id`,
      params,
    );
    return rows.map((r: any) => ({ eventId: r.event_id, solveId: r.solve_id, clusterId: r.cluster_id, job: r.job, stage: r.stage, task: r.task, node: r.node, at: r.at, reason: r.reason }));
  }

  /** Names of the given clusters (for the farmer's report). */
  async clusterNames(ids: string[]): Promise<Map<string, string>> {
    const rows = await this.db.query(`SELECT id, name FROM clusters WHERE id = ANY($1::uuid[])`, [ids]);
    return new Map(rows.map((r: any) => [r.id, r.name]));
  }

  async tenantExists(id: string): Promise<boolean> {
    return (await this.db.query(`SELECT 1 FROM tenants WHERE id = $1`, [id])).length > 0;
  }

  async shareBps(tenantId: string): Promise<number> {
    const rows = await this.db.query(`SELECT revenue_share_bps FROM tenants WHERE id = $1`, [tenantId]);
    return rows.length ? Number(rows[0].revenue_share_bps) : 0;
  }
}

function nested<V>(m: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = m.get(key);
  if (!inner) m.set(key, (inner = new Map()));
  return inner;
}
