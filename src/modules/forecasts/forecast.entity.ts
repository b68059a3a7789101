import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForecastProvenance } from './forecast-provenance';

/** Forecast utilisation by the regular customers: U(k,m,t) of Salamander Eq. 1, per node, metric and slot. */
@Entity('forecasts')
export class ForecastEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Index() @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  /** The cluster version the forecast was validated against. */
  @Column({ type: 'int', name: 'cluster_version' }) clusterVersion!: number;
  @Column({ type: 'double precision', name: 'slot_seconds' }) slotSeconds!: number;
  @Column({ type: 'int' }) slots!: number;
  /** Wall-clock time slot 0 stands for: built ones, the end of their history; posted ones, as given or their creation. */
  @Column({ type: 'timestamptz', name: 'starts_at' }) startsAt!: Date;
  /** Which quantile of the predicted distribution these fractions are (0.5 = median). */
  @Column({ type: 'double precision' }) quantile!: number;
  @Column({ type: 'jsonb' }) usage!: Record<string, Record<string, number[]>>;
  /** How a built forecast was made (model, training window, scores); null for a posted forecast. */
  @Column({ type: 'jsonb', nullable: true }) provenance!: ForecastProvenance | null;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
