import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Hold } from '../../engine/commitments/holds';

/** A hold with the customer whose plan holds it. */
export type TenantHold = Hold & { tenantId: string; planId: string; borrowing: boolean };

/** The plan_holds table: what committed plans hold on their clusters, in wall-clock time. */
@Injectable()
export class HoldsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Runs `work` in one transaction holding the cluster's commit lock: commits and releases on a cluster take
   * their turn, whatever the number of API processes (a Postgres advisory lock, released with the transaction).
   */
  withClusterLock<T>(clusterId: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await this.lockCluster(tx, clusterId);
      return work(tx);
    });
  }

  /** Takes the cluster's commit lock in the caller's transaction (held until it ends). */
  async lockCluster(tx: EntityManager, clusterId: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`commit:${clusterId}`]);
  }

  /** Holds on the cluster overlapping [from, to), but those of `exceptPlan`; through `tx` when given (under the lock). */
  async overlapping(clusterId: string, from: Date, to: Date, exceptPlan: string | null, tx?: EntityManager): Promise<TenantHold[]> {
    const rows: { plan_id: string; tenant_id: string; borrowing: boolean; job: string; node: string; from_ms: string; to_ms: string; demand: Record<string, number> }[] = await (tx ?? this.db).query(
      `SELECT plan_id, tenant_id, borrowing, job, node, (extract(epoch FROM from_at) * 1000)::float8 AS from_ms, (extract(epoch FROM to_at) * 1000)::float8 AS to_ms, demand
       FROM plan_holds WHERE cluster_id = $1 AND to_at > $2 AND from_at < $3 AND ($4::uuid IS NULL OR plan_id <> $4::uuid)`,
      [clusterId, from, to, exceptPlan],
    );
    return rows.map((r) => ({ planId: r.plan_id, tenantId: r.tenant_id, borrowing: r.borrowing, job: r.job, node: r.node, fromMs: Number(r.from_ms), toMs: Number(r.to_ms), demand: r.demand }));
  }

  /** Writes a plan's holds (one statement for any number: arrays unnested server-side). */
  async insert(tx: EntityManager, planId: string, clusterId: string, tenantId: string, borrowing: boolean, holds: Hold[]): Promise<void> {
    if (!holds.length) return;
    await tx.query(
      `INSERT INTO plan_holds (plan_id, seq, cluster_id, tenant_id, borrowing, job, node, from_at, to_at, demand)
       SELECT $1, h.seq, $2, $3, $10, h.job, h.node, to_timestamp(h.from_ms / 1000.0), to_timestamp(h.to_ms / 1000.0), h.demand
       FROM unnest($4::int[], $5::text[], $6::text[], $7::float8[], $8::float8[], $9::jsonb[]) AS h(seq, job, node, from_ms, to_ms, demand)`,
      [planId, clusterId, tenantId, holds.map((_, i) => i), holds.map((h) => h.job), holds.map((h) => h.node), holds.map((h) => h.fromMs), holds.map((h) => h.toMs), holds.map((h) => JSON.stringify(h.demand)), borrowing],
    );
  }

  async deleteOf(tx: EntityManager, planId: string): Promise<void> {
    await tx.query('DELETE FROM plan_holds WHERE plan_id = $1', [planId]);
  }
}
