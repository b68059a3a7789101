import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** A committed (or completed) plan holding capacity on a cluster, as the cluster's schedule lists it. */
export interface CommittedPlan {
  id: string;
  tenantId: string;
  status: 'committed' | 'completed';
  windowStartsAt: Date;
  slotSeconds: number;
  slots: number;
  committedAt: Date | null;
  endsAt: Date;
  /** Committed beyond its customer's quota: a customer within its quota may take the capacity back. */
  borrowing: boolean;
  /** Every task the plan holds on the cluster. */
  tasks: number;
  /** Those overlapping the window asked about. */
  tasksInWindow: number;
}

/** A committed plan that has not ended: what automatic re-planning may re-plan (issue 39). */
export interface RunningPlan {
  id: string;
  tenantId: string;
  clusterId: string;
  solveId: string;
  windowStartsAt: Date;
  slotSeconds: number;
  slots: number;
  endsAt: Date;
}

/** Which running plans `running` reads: those whose window has started by `now`, or that hold a node over a time. */
export interface RunningFilter {
  /** Only plans whose window started by now (a plan committed for later has not met the present yet). */
  started?: boolean;
  /** Only plans with a task held on this node over [fromMs, toMs) (toMs null: from fromMs on). */
  on?: { node: string; fromMs: number; toMs: number | null };
}

/**
 * Reads of committed plans by cluster: plan_holds (this module's table) say which plans hold capacity there,
 * the plans table (the plans module's) their status and window. A read only; plans are written by their module.
 */
@Injectable()
export class CommittedPlansRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Runs `work` in one REPEATABLE READ transaction, so the holds and the plans it reads are one snapshot (no commit half-seen). */
  snapshot<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction('REPEATABLE READ', work);
  }

  /**
   * The committed plans of a cluster that have not ended by `now` (a committed plan past its end reads as
   * completed), first committed first, narrowed by `filter`.
   */
  async running(clusterId: string, now: Date, filter: RunningFilter = {}): Promise<RunningPlan[]> {
    const on = filter.on;
    const rows: RunningRow[] = await this.db.query(
      `SELECT ${RUNNING_COLUMNS} FROM plans p
       WHERE p.cluster_id = $1 AND p.status = 'committed' AND p.ends_at > $2 AND (NOT $3::boolean OR p.window_starts_at <= $2)
         AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM plan_holds h WHERE h.plan_id = p.id AND h.node = $4 AND h.to_at > $5 AND ($6::timestamptz IS NULL OR h.from_at < $6)))
       ORDER BY p.committed_at, p.id`,
      [clusterId, now, filter.started ?? false, on?.node ?? null, on ? new Date(on.fromMs) : null, on && on.toMs !== null ? new Date(on.toMs) : null],
    );
    return rows.map(runningPlan);
  }

  /** The committed plans of these solves (on a cluster) that have not ended by `now`. */
  async runningOfSolves(solveIds: string[], now: Date): Promise<RunningPlan[]> {
    const rows: RunningRow[] = await this.db.query(
      `SELECT ${RUNNING_COLUMNS} FROM plans p
       WHERE p.solve_id = ANY($1::uuid[]) AND p.cluster_id IS NOT NULL AND p.status = 'committed' AND p.ends_at > $2
       ORDER BY p.committed_at, p.id`,
      [solveIds, now],
    );
    return rows.map(runningPlan);
  }

  /**
   * The committed or completed plans with a hold on the cluster overlapping [from, to), first-starting first;
   * only `tenantId`'s when given. A committed plan whose last task ended by `now` reads as completed, as
   * GET /v1/plans/{id} shows it.
   */
  async overlapping(tx: EntityManager, clusterId: string, from: Date, to: Date, tenantId: string | null, now: Date): Promise<CommittedPlan[]> {
    const rows: {
      id: string;
      tenant_id: string;
      status: 'committed' | 'completed';
      window_starts_at: Date;
      slot_seconds: number;
      slots: number;
      committed_at: Date | null;
      ends_at: Date;
      borrowing: boolean;
      tasks: number;
      tasks_in_window: number;
    }[] = await tx.query(
      `SELECT p.id, p.tenant_id, CASE WHEN p.status = 'committed' AND p.ends_at <= $5 THEN 'completed' ELSE p.status END AS status,
              p.window_starts_at, p.slot_seconds, p.slots, p.committed_at, p.ends_at, p.borrowing,
              count(*)::int AS tasks, count(*) FILTER (WHERE h.to_at > $2 AND h.from_at < $3)::int AS tasks_in_window
       FROM plans p JOIN plan_holds h ON h.plan_id = p.id
       WHERE p.status IN ('committed', 'completed') AND ($4::uuid IS NULL OR p.tenant_id = $4::uuid)
         AND p.id IN (SELECT plan_id FROM plan_holds WHERE cluster_id = $1 AND to_at > $2 AND from_at < $3)
       GROUP BY p.id
       ORDER BY min(h.from_at) FILTER (WHERE h.to_at > $2 AND h.from_at < $3), p.id`,
      [clusterId, from, to, tenantId, now],
    );
    return rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      status: r.status,
      windowStartsAt: r.window_starts_at,
      slotSeconds: Number(r.slot_seconds),
      slots: r.slots,
      committedAt: r.committed_at,
      endsAt: r.ends_at,
      borrowing: r.borrowing,
      tasks: r.tasks,
      tasksInWindow: r.tasks_in_window,
    }));
  }
}

const RUNNING_COLUMNS = 'p.id, p.tenant_id, p.cluster_id, p.solve_id, p.window_starts_at, p.slot_seconds, p.slots, p.ends_at';

interface RunningRow {
  id: string;
  tenant_id: string;
  cluster_id: string;
  solve_id: string;
  window_starts_at: Date;
  slot_seconds: number;
  slots: number;
  ends_at: Date;
}

function runningPlan(r: RunningRow): RunningPlan {
  return { id: r.id, tenantId: r.tenant_id, clusterId: r.cluster_id, solveId: r.solve_id, windowStartsAt: r.window_starts_at, slotSeconds: Number(r.slot_seconds), slots: r.slots, endsAt: r.ends_at };
}
