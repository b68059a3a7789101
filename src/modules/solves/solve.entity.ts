import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { FcWeights } from '../../engine/evaluate/posum-score';
import type { StagePrediction } from '../../engine/predict';
import { InstanceDoc } from '../../engine/model/types';
import type { ForecastChoice } from '../forecasts/forecast-choice';
import { Objective, TransfersOption } from '../../engine/contracts/strategy';

export const SOLVE_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type SolveStatus = (typeof SOLVE_STATUSES)[number];
export const TERMINAL_STATUSES: readonly SolveStatus[] = ['succeeded', 'failed', 'cancelled'];

export interface SolveProgress {
  /** Since the worker took the solve (rows from before the heartbeat: the engine's own clock). */
  elapsedMs: number;
  /** starting (loading the instance, before the engine's first report), searching, finishing (bounds, placement, check), done. */
  phase?: 'starting' | 'searching' | 'finishing' | 'done';
  iterations: number;
  /** Best objective so far: more scheduled tasks first, then a smaller makespan (0 and 0: nothing found yet). */
  scheduledTasks: number;
  makespanSlots: number;
  /** Lower bound on the makespan of all jobs, once known. */
  boundSlots?: number | null;
  /** (makespan - bound) / bound when every task is scheduled, else null. */
  gap?: number | null;
}

/** What a solve is: a plan of a batch (or of an inline instance), or a re-plan of a running plan (POST /v1/plans/{id}/replan). */
export const SOLVE_KINDS = ['solve', 'replan'] as const;
export type SolveKind = (typeof SOLVE_KINDS)[number];

/** A task as the re-plan names it. */
export interface ReplanTask {
  job: string;
  stage: string;
  task: number;
}

/**
 * How a re-plan was set up and how it ended for the plan it re-planned (ReplansService): stored with the solve,
 * shown by GET /v1/solves/{id} as `replan`.
 */
export interface SolveReplan {
  /** The plan re-planned: the re-plan's plan supersedes it. */
  planId: string;
  /** The slot of now in the plan's window, and that instant: tasks not frozen start at or after it. */
  nowSlot: number;
  at: string;
  assumeStartedAsPlanned: boolean;
  /** current: the cluster's current version and its newest forecast covering now; none: the plan's instance as it was solved. */
  refresh: 'current' | 'none';
  /** Who asked: the plan's customer, an operator, or the service itself (its reason). */
  requestedBy: 'customer' | 'operator' | 'system';
  reason: string | null;
  /** Frozen assignments by why they are frozen (frozen-from-events.ts). */
  frozen: { explicit: number; running: number; finished: number; assumed: number };
  /** Tasks that had started and are planned again, by reason, and the first of them. */
  rerun: { killed: number; nodeLost: number; afterRerun: number; beforePredecessorsEnd: number; tasks: (ReplanTask & { reason: string })[] };
  /** Frozen starts changed from what the events said (see frozen-from-events.ts), and the first of them. */
  adjusted: { count: number; tasks: (ReplanTask & { from: number; to: number; reason: string })[] };
  /** Events not counted: after now, or of tasks the instance does not have. */
  ignoredEvents: number;
  /**
   * Once the re-plan's plan is stored: whether the commitment of the plan re-planned moved to it (null: that plan
   * was not committed), and why not when it did not.
   */
  commitment: { moved: boolean; reason: string | null } | null;
}

/** A solve is a resource: it is created queued, a worker runs it, and it ends with at most one plan. */
@Entity('solves')
export class SolveEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Column({ type: 'text' }) status!: SolveStatus;
  @Column({ type: 'text' }) strategy!: string;
  @Column({ type: 'int', name: 'time_budget_ms' }) timeBudgetMs!: number;
  @Column({ type: 'int' }) seed!: number;
  /** What the engine optimises (strategies without a revenue mode ignore it). */
  @Column({ type: 'text', default: 'tasks-then-makespan' }) objective!: Objective;
  /** Wall-clock time of slot 0 of the plan: accounting places slot s at startsAt + s * horizon.slotSeconds. */
  @Column({ type: 'timestamptz', name: 'starts_at' }) startsAt!: Date;
  /**
   * Wall-clock time of the plan's slot 0 on the cluster's time line: startsAt rounded down to the forecast's
   * slot when one is used (so plans made at different times on one forecast share slot boundaries), else
   * startsAt. Null only for solves stored before issue 37.
   */
  @Column({ type: 'timestamptz', name: 'window_starts_at', nullable: true }) windowStartsAt!: Date | null;
  /** Strategy portfolio: the alpha, beta, gamma its members were weighed with (the request's, else the tenant's default); null for the others. */
  @Column({ type: 'jsonb', name: 'score_weights', nullable: true }) scoreWeights!: FcWeights | null;
  /** After the search, the reduces are placed again where their shuffle arrives first over the links (placement/shuffle-aware.ts). */
  @Column({ type: 'boolean', name: 'shuffle_aware', default: false }) shuffleAware!: boolean;
  /**
   * Whether the plan prices each task's fetch when the instance gives network fields (SolveOptions.transfers):
   * what the request asked for; the plan's stats.transfers says what was done.
   */
  @Column({ type: 'text', default: 'priced' }) transfers!: TransfersOption;
  /** What the caller should know about how the solve was set up (a stale forecast it allowed); null: nothing. */
  @Column({ type: 'jsonb', nullable: true }) warnings!: string[] | null;
  /** Indexed for farmer accounting, which starts from the farmer's clusters. */
  @Index('ix_solves_cluster') @Column({ type: 'uuid', name: 'cluster_id', nullable: true }) clusterId!: string | null;
  @Column({ type: 'int', name: 'cluster_version', nullable: true }) clusterVersion!: number | null;
  @Column({ type: 'uuid', name: 'forecast_id', nullable: true }) forecastId!: string | null;
  /** How the forecast came to be used: named by the request, or chosen as the newest covering startsAt (ForecastChoice). */
  @Column({ type: 'text', name: 'forecast_choice' }) forecastChoice!: ForecastChoice;
  @Column({ type: 'uuid', name: 'batch_id', nullable: true }) batchId!: string | null;
  /** The whole problem as solved, so a plan can always be checked against exactly what produced it. */
  /** Not loaded by default: it can be megabytes, and listings only need the name. */
  @Column({ type: 'jsonb', select: false }) instance!: InstanceDoc;
  @Column({ type: 'text', name: 'instance_name' }) instanceName!: string;
  @Column({ type: 'jsonb', nullable: true }) progress!: SolveProgress | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'uuid', name: 'plan_id', nullable: true }) planId!: string | null;
  @Column({ type: 'int', default: 0 }) attempts!: number;
  /** The runtime predictor asked for stages without durations (auto, basic, standard, detailed). */
  @Column({ type: 'text', default: 'auto' }) predictor!: string;
  /** Per stage whose durations were predicted: predictor, seconds, samples; null when none was. Copied into the plan. */
  @Column({ type: 'jsonb', nullable: true }) predictions!: StagePrediction[] | null;
  @Column({ type: 'timestamptz', name: 'cancel_requested_at', nullable: true }) cancelRequestedAt!: Date | null;
  @Column({ type: 'text', default: 'solve' }) kind!: SolveKind;
  /** A re-plan's set-up and outcome (kind replan); null for a solve. */
  @Column({ type: 'jsonb', nullable: true }) replan!: SolveReplan | null;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true }) finishedAt!: Date | null;
}
