import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { PlanDoc } from '../../engine/model/types';

@Entity('plans')
export class PlanEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  /** Unique: however often a solve is retried, it keeps exactly one plan. */
  @Index({ unique: true }) @Column({ type: 'uuid', name: 'solve_id' }) solveId!: string;
  @Column({ type: 'text' }) strategy!: string;
  @Column({ type: 'int', name: 'scheduled_tasks' }) scheduledTasks!: number;
  @Column({ type: 'int', name: 'makespan_slots' }) makespanSlots!: number;
  @Column({ type: 'boolean' }) optimal!: boolean;
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
