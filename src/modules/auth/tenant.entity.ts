import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { FcWeights } from '../../engine/evaluate/posum-score';

@Entity('tenants')
export class TenantEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text', unique: true }) name!: string;
  /**
   * A farmer's share of the positive revenue of the jobs run on its clusters, in basis points (0..10000),
   * set by the operator. Accounting applies the current value (it is not historised).
   */
  @Column({ type: 'int', name: 'revenue_share_bps', default: 0 }) revenueShareBps!: number;
  /**
   * POSUM's alpha, beta, gamma (Eq. 5) for this tenant's portfolio solves and posum simulations when a request
   * gives none, set by the operator; null: the product's defaults (1/1/1).
   */
  @Column({ type: 'jsonb', name: 'score_weights', nullable: true }) scoreWeights!: FcWeights | null;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
