import { Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

export const EVENT_TYPES = ['started', 'finished', 'killed'] as const;
export const EVENT_LOCALITIES = ['node', 'rack', 'remote'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * What actually happened to one task of a planned job on a node: reported by the farmer running the
 * cluster (or the customer of an inline solve). `event_id` is the client's id, unique per reporting tenant,
 * which makes a retried report idempotent.
 */
@Entity('execution_events')
@Unique('uq_execution_events_tenant_event', ['tenantId', 'eventId'])
@Index('ix_execution_events_solve', ['solveId', 'job'])
export class ExecutionEventEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  /** The tenant that reported it (scope of `eventId`). */
  @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Column({ type: 'text', name: 'event_id' }) eventId!: string;
  @Column({ type: 'uuid', name: 'solve_id' }) solveId!: string;
  @Column({ type: 'text' }) job!: string;
  @Column({ type: 'text' }) stage!: string;
  @Column({ type: 'int' }) task!: number;
  @Column({ type: 'text' }) node!: string;
  @Column({ type: 'text' }) type!: EventType;
  @Column({ type: 'timestamptz' }) at!: Date;
  @Column({ type: 'text', nullable: true }) reason!: string | null;
  /** What the farmer's monitoring saw of the task (all optional; the runtime predictors learn from them). */
  @Column({ type: 'bigint', name: 'input_bytes', nullable: true }) inputBytes!: string | null;
  @Column({ type: 'bigint', name: 'output_bytes', nullable: true }) outputBytes!: string | null;
  @Column({ type: 'text', nullable: true }) locality!: (typeof EVENT_LOCALITIES)[number] | null;
  /** A reduce's finished event: when its shuffle and its merge ended. */
  @Column({ type: 'timestamptz', name: 'shuffle_end_at', nullable: true }) shuffleEndAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'merge_end_at', nullable: true }) mergeEndAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'received_at', default: () => 'now()' }) receivedAt!: Date;
}
