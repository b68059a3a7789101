import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ClusterEventType } from '../../engine/commitments/node-loss';

/**
 * A change of a cluster's nodes a farmer (or an operator) reports (issue 39): a node taken back by the regular
 * customers (`node-lost`, from `at` until `until` or a later `node-back`) or returned (`node-back`). Solves on
 * the cluster see a lost node as unavailable over its loss (src/engine/commitments/node-loss.ts).
 */
@Entity('cluster_events')
@Index('ix_cluster_events_cluster_created', ['clusterId', 'createdAt'])
export class ClusterEventEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  /** Who reported it: the cluster's farmer, or an operator's tenant. */
  @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Column({ type: 'text' }) type!: ClusterEventType;
  @Column({ type: 'text' }) node!: string;
  /** When it happened (or will: a farmer may announce a node taken back soon). */
  @Column({ type: 'timestamptz' }) at!: Date;
  /** node-lost only: when the node is expected back; null: until a node-back event. */
  @Column({ type: 'timestamptz', nullable: true }) until!: Date | null;
  @Column({ type: 'text', nullable: true }) reason!: string | null;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
