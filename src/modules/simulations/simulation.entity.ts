import type { PortfolioParams } from '../../engine/policies/posum/params';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { InstanceDoc } from '../../engine/model/types';
import type { SimReport, UsageDoc } from '../../engine/simulation';
import type { ForecastChoice } from '../forecasts/forecast-choice';

export const SIMULATION_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type SimulationStatus = (typeof SIMULATION_STATUSES)[number];

/**
 * Where the actual utilisation came from: posted with the request, a forecast of the plan's cluster (for
 * instance one built later from what was recorded), or the plan's own instance usage (a perfect forecast).
 */
export const ACTUAL_SOURCES = ['usage', 'forecast', 'plan'] as const;
export type ActualSource = (typeof ACTUAL_SOURCES)[number];

/** A simulation is a resource like a forecast build: created queued, run by a worker, ending with a report or an error. */
@Entity('simulations')
@Index('ix_simulations_plan_created', ['planId', 'createdAt'])
export class SimulationEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  /** The plan's tenant, also when an operator asked for the simulation: whoever sees the plan sees it. */
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  /** The plan replayed; null when the simulation runs an online policy instead. */
  @Column({ type: 'uuid', name: 'plan_id', nullable: true }) planId!: string | null;
  /** The online policy run (fair, rws, hmjs, aco-bp, ...) instead of a plan; null for a plan replay. */
  @Column({ type: 'text', nullable: true }) policy!: string | null;
  /** The instance a policy runs on, composed from the cluster, batch and forecast when created. Not loaded by default. */
  @Column({ type: 'jsonb', nullable: true, select: false }) instance!: InstanceDoc | null;
  @Column({ type: 'text' }) status!: SimulationStatus;
  @Column({ type: 'text' }) qos!: string;
  /** How often the QoS controller checks each node, simulated seconds (at most the slot length); null: stored before the period existed, checked once per slot. */
  @Column({ type: 'double precision', name: 'qos_period_seconds', nullable: true }) qosPeriodSeconds!: number | null;
  @Column({ type: 'int' }) seed!: number;
  /** Share of a stage's predecessor tasks that must end before it may launch (Hadoop's reduce slow start); 1 is the strict barrier. */
  @Column({ type: 'double precision', name: 'reduce_slowstart', default: 1 }) reduceSlowstart!: number;
  /** What tasks really take where it differs from the instance (job -> stage -> seconds at speed 1), and a lognormal spread. */
  @Column({ type: 'jsonb', name: 'true_seconds', nullable: true }) trueSeconds!: Record<string, Record<string, number>> | null;
  @Column({ type: 'double precision', name: 'runtime_sigma', default: 0 }) runtimeSigma!: number;
  /** A policy run: the provisioning policy leasing nodes meanwhile (null: none), and POSUM's parameters. */
  @Column({ type: 'text', nullable: true }) provision!: string | null;
  @Column({ type: 'jsonb', nullable: true }) posum!: PortfolioParams | null;
  /** A policy run: the forecast its instance was assembled with, how it was chosen, the wall-clock time of slot 0, and what the caller should know (a stale forecast it allowed). Null for a plan replay (the plan's own). */
  @Column({ type: 'uuid', name: 'forecast_id', nullable: true }) forecastId!: string | null;
  @Column({ type: 'text', name: 'forecast_choice', nullable: true }) forecastChoice!: ForecastChoice | null;
  @Column({ type: 'timestamptz', name: 'starts_at', nullable: true }) startsAt!: Date | null;
  @Column({ type: 'jsonb', nullable: true }) warnings!: string[] | null;
  @Column({ type: 'text', name: 'actual_source' }) actualSource!: ActualSource;
  @Column({ type: 'uuid', name: 'actual_forecast_id', nullable: true }) actualForecastId!: string | null;
  /**
   * The actual utilisation replayed, as validated when the simulation was created (a forecast's usage is
   * copied, so deleting or re-posting it later changes nothing). Not loaded by default: it can be megabytes.
   */
  @Column({ type: 'jsonb', name: 'actual_usage', nullable: true, select: false }) actualUsage!: UsageDoc | null;
  /** The simulator's report, exactly what `fallow simulate` prints. */
  @Column({ type: 'jsonb', nullable: true }) report!: SimReport | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'int', default: 0 }) attempts!: number;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'cancel_requested_at', nullable: true }) cancelRequestedAt!: Date | null;
}
