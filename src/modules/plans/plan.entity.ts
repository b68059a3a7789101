import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { PlanDoc } from '../../engine/model/types';

/**
 * A plan's life (issue 37): `proposed` when its solve ends; `committed` when its customer (or an operator)
 * commits it and its tasks hold their capacity on the cluster; `released` when given back; `completed` once
 * every task of a committed plan has ended.
 */
export const PLAN_STATUSES = ['proposed', 'committed', 'released', 'completed'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

@Entity('plans')
@Index('ix_plans_cluster_status', ['clusterId', 'status'])
export class PlanEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Column({ type: 'text', default: 'proposed' }) status!: PlanStatus;
  /** The cluster the plan was made on; null for a solve of a whole (inline) instance. */
  @Column({ type: 'uuid', name: 'cluster_id', nullable: true }) clusterId!: string | null;
  /** The window the plan was made for: slot t is [windowStartsAt + t * slotSeconds, + slotSeconds). */
  @Column({ type: 'timestamptz', name: 'window_starts_at' }) windowStartsAt!: Date;
  @Column({ type: 'double precision', name: 'slot_seconds' }) slotSeconds!: number;
  @Column({ type: 'int' }) slots!: number;
  /** When the plan's last task ends (windowStartsAt + makespan slots): a committed plan is completed after it. */
  @Column({ type: 'timestamptz', name: 'ends_at' }) endsAt!: Date;
  @Column({ type: 'timestamptz', name: 'committed_at', nullable: true }) committedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'released_at', nullable: true }) releasedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'completed_at', nullable: true }) completedAt!: Date | null;
  /** Committed beyond its customer's quota, on capacity others left idle: a customer within its quota may take it back. */
  @Column({ type: 'boolean', default: false }) borrowing!: boolean;
  /** Why it was released when its customer did not release it (its borrowed capacity taken back); null otherwise. */
  @Column({ type: 'text', name: 'release_reason', nullable: true }) releaseReason!: string | null;
  /** Unique: however often a solve is retried, it keeps exactly one plan. */
  @Index({ unique: true }) @Column({ type: 'uuid', name: 'solve_id' }) solveId!: string;
  @Column({ type: 'text' }) strategy!: string;
  @Column({ type: 'int', name: 'scheduled_tasks' }) scheduledTasks!: number;
  @Column({ type: 'int', name: 'makespan_slots' }) makespanSlots!: number;
  @Column({ type: 'boolean' }) optimal!: boolean;
  /** A re-plan's plan (POST /v1/plans/{id}/replan) supersedes the plan it re-planned: that plan's id; null for a solve's. */
  @Index('ix_plans_supersedes') @Column({ type: 'uuid', nullable: true }) supersedes!: string | null;
  /** The re-plan's plan that superseded this one (both are kept); null while it is the newest version. */
  @Column({ type: 'uuid', name: 'superseded_by', nullable: true }) supersededBy!: string | null;
  /** 1 for a solve's plan, one more than the plan it supersedes for a re-plan's. */
  @Column({ type: 'int', default: 1 }) version!: number;
  /** The fallow.plan/v1 document plus the service's additions (kpis, rejection reasons). */
  @Column({ type: 'jsonb' }) document!: PlanDoc & Record<string, unknown>;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}

/** One row per assignment, so large plans can be paged and filtered by node or job. */
@Entity('plan_assignments')
@Index('ix_plan_assignments_node', ['planId', 'node'])
@Index('ix_plan_assignments_job', ['planId', 'job'])
export class PlanAssignmentEntity {
  @PrimaryColumn({ type: 'uuid', name: 'plan_id' }) planId!: string;
  @PrimaryColumn({ type: 'int' }) seq!: number;
  @Column({ type: 'text' }) job!: string;
  @Column({ type: 'text' }) stage!: string;
  @Column({ type: 'int' }) task!: number;
  @Column({ type: 'text' }) node!: string;
  @Column({ type: 'int' }) start!: number;
  @Column({ type: 'int', name: 'end_slot' }) end!: number;
}
