import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { NetworkSpec, NodeSpec } from '../../engine/model/types';

@Entity('clusters')
export class ClusterEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Column({ type: 'text' }) name!: string;
  /** Offered to customers' solves through the operator (the point of Fallow); they still cannot read it. */
  @Column({ type: 'boolean', default: true }) lendable!: boolean;
  /** The current version; every update writes a new row in cluster_versions. */
  @Column({ type: 'int' }) version!: number;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}

@Entity('cluster_versions')
@Unique('uq_cluster_versions_cluster_version', ['clusterId', 'version'])
export class ClusterVersionEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  @Column({ type: 'int' }) version!: number;
  @Column({ type: 'jsonb' }) metrics!: string[];
  @Column({ type: 'jsonb' }) nodes!: NodeSpec[];
  /** Intra- and inter-rack bandwidth (instance `network`); null when the farmer gives none. */
  @Column({ type: 'jsonb', nullable: true }) network!: NetworkSpec | null;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
