import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** What sets off an automatic re-plan of a cluster's running plans. */
export const REPLAN_TRIGGERS = ['node-lost', 'task-killed', 'forecast-miss'] as const;
export type ReplanTriggerKind = (typeof REPLAN_TRIGGERS)[number];

/**
 * A cluster's automatic re-planning (issue 39), set by its farmer or an operator: on which triggers its running
 * plans are re-planned, the forecast miss that counts, and how often one plan may be re-planned at most.
 */
@Entity('cluster_replanning')
export class ReplanningSettingsEntity {
  @PrimaryColumn({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  @Column({ type: 'boolean' }) enabled!: boolean;
  /** The triggers that re-plan, each at most once (REPLAN_TRIGGERS). */
  @Column({ type: 'jsonb' }) triggers!: ReplanTriggerKind[];
  /** forecast-miss: the mean absolute miss (a fraction of capacity) above which a plan is re-planned. */
  @Column({ type: 'double precision', name: 'forecast_miss_threshold' }) forecastMissThreshold!: number;
  /** forecast-miss: how far back from the newest posted sample the miss is measured. */
  @Column({ type: 'int', name: 'forecast_miss_window_seconds' }) forecastMissWindowSeconds!: number;
  /** Least time between two automatic re-plans of one plan. */
  @Column({ type: 'int', name: 'min_interval_seconds' }) minIntervalSeconds!: number;
  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' }) updatedAt!: Date;
}

/** Where an automatic re-plan request is: asked for, handed to the re-planning service (its solve), or refused by it. */
export const AUTO_REPLAN_STATUSES = ['requested', 'queued', 'failed'] as const;
export type AutoReplanStatus = (typeof AUTO_REPLAN_STATUSES)[number];

/** One automatic re-plan of a running plan, requested because a trigger fired (at most once per minIntervalSeconds per plan). */
@Entity('auto_replans')
@Index('ix_auto_replans_cluster_created', ['clusterId', 'createdAt'])
export class AutoReplanEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  @Column({ type: 'uuid', name: 'plan_id' }) planId!: string;
  @Column({ type: 'text' }) trigger!: ReplanTriggerKind;
  /** What fired, in words (what the re-plan is asked for with). */
  @Column({ type: 'text' }) reason!: string;
  /** What fired, as data: the event, the killed tasks, the miss measured. */
  @Column({ type: 'jsonb' }) detail!: Record<string, unknown>;
  @Column({ type: 'text', default: 'requested' }) status!: AutoReplanStatus;
  /** The re-plan's solve, once queued. */
  @Column({ type: 'uuid', name: 'solve_id', nullable: true }) solveId!: string | null;
  /** Why the re-planning service refused it, when it did. */
  @Column({ type: 'text', nullable: true }) error!: string | null;
  /** When it was requested. */
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' }) updatedAt!: Date;
}

/**
 * When a plan was last re-planned automatically: the debounce. One row per plan (its first version: a re-plan's
 * plan is the same plan to its customer), moved forward by one
 * conditional upsert, so two API processes firing at once cannot both pass (ReplanningRepository.request).
 */
@Entity('auto_replan_gates')
export class AutoReplanGateEntity {
  /** The plan's first version. */
  @PrimaryColumn({ type: 'uuid', name: 'plan_id' }) planId!: string;
  @Column({ type: 'timestamptz', name: 'last_requested_at' }) lastRequestedAt!: Date;
}
