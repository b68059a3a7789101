import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BuildModel } from '../forecasts/forecast-provenance';

export const BUILD_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];

/** A forecast build is a resource like a solve: created queued, run by a worker, ending with a forecast or an error. */
@Entity('forecast_builds')
export class ForecastBuildEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  /** The cluster owner's tenant, also when an operator asked for the build (like posted forecasts). */
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Index() @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  /** The cluster version when the build was asked for: its nodes and metrics are trained on and forecast. */
  @Column({ type: 'int', name: 'cluster_version' }) clusterVersion!: number;
  @Column({ type: 'text' }) status!: BuildStatus;
  @Column({ type: 'text' }) model!: BuildModel;
  @Column({ type: 'double precision' }) quantile!: number;
  @Column({ type: 'double precision', name: 'slot_seconds' }) slotSeconds!: number;
  @Column({ type: 'int', name: 'horizon_slots' }) horizonSlots!: number;
  @Column({ type: 'int', name: 'training_days' }) trainingDays!: number;
  /** GBT only: the forecast is raised by this share of capacity, never above a node's history maximum. */
  @Column({ type: 'double precision', default: 0 }) headroom!: number;
  @Column({ type: 'uuid', name: 'forecast_id', nullable: true }) forecastId!: string | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'int', default: 0 }) attempts!: number;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'cancel_requested_at', nullable: true }) cancelRequestedAt!: Date | null;
}
