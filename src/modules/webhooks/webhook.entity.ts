import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '../auth/api-key.entity';

/**
 * A tenant's webhook subscription: where to POST which events. `role` is the role of the key that made it: it
 * decides which events it may ask for and hear (webhook-events.ts). The secret is sealed (webhook-secrets.ts),
 * never stored in clear, and not loaded unless asked for.
 */
@Entity('webhook_subscriptions')
export class WebhookSubscriptionEntity {
  /** Made by the service before the insert: the sealed secret is bound to it. */
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Index() @Column({ type: 'uuid', name: 'tenant_id' }) tenantId!: string;
  @Column({ type: 'text' }) role!: Role;
  @Column({ type: 'text' }) url!: string;
  @Column({ type: 'text', array: true }) events!: string[];
  /** Only this cluster's events; null: every event the subscription may hear. */
  @Column({ type: 'uuid', name: 'cluster_id', nullable: true }) clusterId!: string | null;
  @Column({ type: 'text', name: 'secret_sealed', select: false }) secretSealed!: string;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One attempt of a delivery, as its log keeps it. */
export interface DeliveryAttempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One event for one subscription, and its delivery log: pending until an attempt gets a 2xx (succeeded) or the
 * last attempt fails (failed). The body is kept as sent, so every retry sends the same bytes (with a new
 * signature time); deleted with its subscription.
 */
@Entity('webhook_deliveries')
@Index('ix_webhook_deliveries_subscription', ['subscriptionId', 'createdAt'])
export class WebhookDeliveryEntity {
  /** Also the `Fallow-Delivery` header and the id of its queue job. */
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ type: 'uuid', name: 'subscription_id' }) subscriptionId!: string;
  @Column({ type: 'text' }) event!: string;
  /** The event's id (the body's `id`): the same in every subscription's delivery of one event. */
  @Column({ type: 'uuid', name: 'event_id' }) eventId!: string;
  @Column({ type: 'text' }) body!: string;
  @Column({ type: 'text', default: 'pending' }) status!: DeliveryStatus;
  @Column({ type: 'int', default: 0 }) attempts!: number;
  /** The last attempt's HTTP status; null when it got no answer. */
  @Column({ type: 'int', name: 'status_code', nullable: true }) statusCode!: number | null;
  /** Why the last attempt failed; null after a success or before any attempt. */
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'jsonb', name: 'attempt_log', default: () => "'[]'" }) attemptLog!: DeliveryAttempt[];
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'last_attempt_at', nullable: true }) lastAttemptAt!: Date | null;
  /** When the next attempt is due (a retry's backoff); null when none will be made. */
  @Column({ type: 'timestamptz', name: 'next_attempt_at', nullable: true }) nextAttemptAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'delivered_at', nullable: true }) deliveredAt!: Date | null;
}
