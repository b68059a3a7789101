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
