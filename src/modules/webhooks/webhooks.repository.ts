import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { DeliveryStatus, WebhookDeliveryEntity, WebhookSubscriptionEntity } from './webhook.entity';

/** A subscription with its sealed secret, as a delivery attempt needs it. */
export type SubscriptionWithSecret = WebhookSubscriptionEntity & { secretSealed: string };

/** What one attempt changes on its delivery. */
export interface AttemptRecord {
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/** The webhook_subscriptions and webhook_deliveries tables. */
@Injectable()
export class WebhooksRepository {
  constructor(
    @InjectRepository(WebhookSubscriptionEntity) private readonly subscriptions: Repository<WebhookSubscriptionEntity>,
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async insertSubscription(row: Omit<WebhookSubscriptionEntity, 'createdAt'>): Promise<WebhookSubscriptionEntity> {
    await this.subscriptions.insert(row);
    return this.subscriptions.findOneByOrFail({ id: row.id });
  }

  /** The subscription, if it is the tenant's (any tenant's without one). */
  findSubscription(id: string, scope: { tenantId?: string }): Promise<WebhookSubscriptionEntity | null> {
    return this.subscriptions.findOneBy({ id, ...scope });
  }

  /** Newest first, one more than `limit` (see keyset-page.ts). */
  pageSubscriptions(scope: { tenantId?: string }, limit: number, cursor?: string): Promise<WebhookSubscriptionEntity[]> {
    const q = this.subscriptions.createQueryBuilder('s');
    if (scope.tenantId) q.where('s.tenant_id = :tenantId', { tenantId: scope.tenantId });
    return newestFirst(q, 's', limit, cursor).getMany();
  }

  /** Deletes the subscription and its delivery log in one transaction; false when it was not there (for this scope). */
  deleteSubscription(id: string, scope: { tenantId?: string }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const r = await tx.delete(WebhookSubscriptionEntity, { id, ...scope });
      if (!r.affected) return false;
      await tx.delete(WebhookDeliveryEntity, { subscriptionId: id });
      return true;
    });
  }

  /**
   * The subscriptions that hear `event` about these tenants on this cluster: every operator's that asked for
   * it, and the tenants' own; one narrowed to a cluster only for that cluster's events.
   */
  matching(event: string, tenantIds: string[], clusterId: string | null): Promise<WebhookSubscriptionEntity[]> {
    const q = this.subscriptions
      .createQueryBuilder('s')
      .where(':event = ANY(s.events)', { event })
      .andWhere("(s.role = 'operator' OR s.tenant_id = ANY(:tenantIds::uuid[]))", { tenantIds })
      .andWhere(clusterId ? '(s.cluster_id IS NULL OR s.cluster_id = :clusterId)' : 's.cluster_id IS NULL', { clusterId });
    return q.getMany();
  }

  async insertDeliveries(rows: Pick<WebhookDeliveryEntity, 'id' | 'subscriptionId' | 'event' | 'eventId' | 'body'>[]): Promise<void> {
    if (rows.length) await this.deliveries.insert(rows.map((r) => ({ ...r, status: 'pending' as const, attemptLog: [] })));
  }

  /** Deliveries whose job the queue refused: nothing will attempt them. */
  async failUnqueued(ids: string[], error: string): Promise<void> {
    if (ids.length) await this.deliveries.update({ id: In(ids), status: 'pending' }, { status: 'failed', error, nextAttemptAt: null });
  }

  /** A subscription's deliveries, newest first, one more than `limit`. */
  pageDeliveries(subscriptionId: string, limit: number, cursor?: string): Promise<WebhookDeliveryEntity[]> {
    return newestFirst(this.deliveries.createQueryBuilder('d').where('d.subscription_id = :subscriptionId', { subscriptionId }), 'd', limit, cursor).getMany();
  }

  /** A delivery and its subscription (sealed secret included); null when either is gone (the subscription was deleted). */
  async forAttempt(deliveryId: string): Promise<{ delivery: WebhookDeliveryEntity; subscription: SubscriptionWithSecret } | null> {
    const delivery = await this.deliveries.findOneBy({ id: deliveryId });
    if (!delivery) return null;
    const subscription = await this.subscriptions.createQueryBuilder('s').addSelect('s.secretSealed').where('s.id = :id', { id: delivery.subscriptionId }).getOne();
    return subscription ? { delivery, subscription: subscription as SubscriptionWithSecret } : null;
  }

  /** Appends an attempt to a pending delivery's log and sets what it changed; false when the delivery was no longer pending. */
  async recordAttempt(id: string, r: AttemptRecord): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [, affected] = (await this.db.query(
      `UPDATE webhook_deliveries
         SET attempts = attempts + 1,
             attempt_log = attempt_log || jsonb_build_array(jsonb_build_object('attempt', attempts + 1, 'at', $2::text, 'statusCode', $3::int, 'error', $4::text, 'durationMs', $5::int)),
             status_code = $3, error = $4, last_attempt_at = $2::timestamptz, status = $6, next_attempt_at = $7,
             delivered_at = CASE WHEN $6 = 'succeeded' THEN $2::timestamptz ELSE NULL END
       WHERE id = $1 AND status = 'pending'`,
      [id, r.at.toISOString(), r.statusCode, r.error, r.durationMs, r.status, r.nextAttemptAt],
    )) as [unknown[], number];
    return affected > 0;
  }
}
