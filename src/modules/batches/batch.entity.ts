import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { JobSpec } from '../../engine/model/types';

@Entity('batches')
export class BatchEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'jsonb' }) jobs!: JobSpec[];
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
