import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('tenants')
export class TenantEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text', unique: true }) name!: string;
  /**
   * A farmer's share of the positive revenue of the jobs run on its clusters, in basis points (0..10000),
   * set by the operator. Accounting applies the current value (it is not historised).
   */
  @Column({ type: 'int', name: 'revenue_share_bps', default: 0 }) revenueShareBps!: number;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
