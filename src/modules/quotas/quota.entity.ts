import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The customer a row is for: a tenant id, or `default` for every customer without a quota of its own. */
export const DEFAULT_QUOTA = 'default';

/**
 * A customer's quota on a cluster (issue 37, Kueue's nominal quota and borrowing): per metric, the share of
 * the cluster's lendable capacity it may hold at once, and whether it may borrow beyond it while capacity is idle.
 */
@Entity('cluster_quotas')
export class QuotaEntity {
  @PrimaryColumn({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  /** A tenant id, or DEFAULT_QUOTA. */
  @PrimaryColumn({ type: 'text' }) customer!: string;
  /** metric -> fraction in [0, 1]; metrics left out are not limited. */
  @Column({ type: 'jsonb' }) shares!: Record<string, number>;
  @Column({ type: 'boolean', default: false }) borrow!: boolean;
  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' }) updatedAt!: Date;
}
