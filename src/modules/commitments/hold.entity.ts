import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * What one task of a committed plan holds on its cluster: its node, its demand per metric and one task slot,
 * over [from, to) in wall-clock time. Written when the plan is committed, deleted when it is released; solves
 * on the cluster plan around them (their `reserved`), and commits are checked against them.
 */
@Entity('plan_holds')
@Index('ix_plan_holds_cluster_to', ['clusterId', 'toAt'])
export class HoldEntity {
  @PrimaryColumn({ type: 'uuid', name: 'plan_id' }) planId!: string;
  /** The assignment's position in the plan. */
  @PrimaryColumn({ type: 'int' }) seq!: number;
  @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  /** The customer whose plan holds it (quotas count holds per customer; customers see only their own). */
  @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Column({ type: 'text' }) job!: string;
  @Column({ type: 'text' }) node!: string;
  @Column({ type: 'timestamptz', name: 'from_at' }) fromAt!: Date;
  @Column({ type: 'timestamptz', name: 'to_at' }) toAt!: Date;
  /** Its plan went beyond its customer's quota (borrowing): a customer within its quota may take it back. */
  @Column({ type: 'boolean', default: false }) borrowing!: boolean;
  /** metric -> amount one task holds (metrics it does not use are left out). */
  @Column({ type: 'jsonb' }) demand!: Record<string, number>;
}
