import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { Config, CONFIG } from '../../config';
import type { Issue } from '../../engine/model/types';
import { Principal, tenantScope } from '../auth/principal';
import { ClustersService } from '../clusters/clusters.service';
import { pageOf } from '../common/keyset-page';
import { invalid, notFound } from '../common/problem';
import { UUID } from '../common/uuid-param';
import { withTimeout } from '../common/with-timeout';
import { AllowList, checkUrl } from './allow-list';
import { CreateWebhookDto } from './webhook.dto';
import { WebhookDeliveryEntity, WebhookSubscriptionEntity } from './webhook.entity';
import { EVENTS_OF_ROLE, WEBHOOK_EVENTS, WebhookAudience, WebhookEvent } from './webhook-events';
import { WEBHOOK_JOB, WEBHOOK_QUEUE, webhookJobOptions } from './webhook-queue';
import { CALLER_SECRET, generateSecret, SecretBox } from './webhook-secrets';
import { WebhooksRepository } from './webhooks.repository';

type Page<T> = { items: T[]; nextCursor: string | null };

/** How long publishing waits for Redis to take the delivery jobs before it gives them up (the caller's work must not wait on webhooks). */
const QUEUE_ADD_TIMEOUT_MS = 3000;

/**
 * Webhook subscriptions (WebhooksController) and publishing events to them: `publish` is what other modules call
 * when something happens (SolvesService when a solve ends, PlanCommitmentService when a commit is refused).
 */
@Injectable()
export class WebhooksService {
  private readonly log = new Logger('webhooks');

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly clusters: ClustersService,
    private readonly box: SecretBox,
    private readonly allow: AllowList,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** A new subscription of the caller's tenant and role; its secret is returned this once. Every bad field is named at once, nothing is written then. */
  async create(p: Principal, dto: CreateWebhookDto): Promise<{ row: WebhookSubscriptionEntity; secret: string }> {
    const issues: Issue[] = [];
    const url = checkUrl(dto.url, this.allow);
    if ('issues' in url) issues.push(...url.issues);
    const events = this.eventIssues(p, dto.events);
    issues.push(...events);
    issues.push(...secretIssues(dto.secret));
    issues.push(...(await this.clusterIssues(p, dto.clusterId)));
    if (issues.length || 'issues' in url) throw invalid(issues);
    const secret = dto.secret ?? generateSecret();
    const id = randomUUID();
    const row = await this.repo.insertSubscription({
      id,
      tenantId: p.tenantId,
      role: p.role,
      url: url.url,
      events: dto.events,
      clusterId: dto.clusterId ?? null,
      secretSealed: this.box.seal(secret, id),
    });
    return { row, secret };
  }

  /** The caller's subscriptions (an operator's: everyone's), newest first. */
  async list(p: Principal, limit: number, cursor?: string): Promise<Page<WebhookSubscriptionEntity>> {
    return pageOf(await this.repo.pageSubscriptions(tenantScope(p), limit, cursor), limit, (s) => s);
  }

  /** The subscription if the caller's tenant has it (an operator: any), else 404. */
  async get(p: Principal, id: string): Promise<WebhookSubscriptionEntity> {
    const row = await this.repo.findSubscription(id, tenantScope(p));
    if (!row) throw notFound('webhook', id);
    return row;
  }

  /** Deletes the subscription and its delivery log; deliveries still queued find nothing and are dropped. */
  async remove(p: Principal, id: string): Promise<void> {
    if (!(await this.repo.deleteSubscription(id, tenantScope(p)))) throw notFound('webhook', id);
  }

  /** The subscription's delivery log, newest first. */
  async deliveries(p: Principal, id: string, limit: number, cursor?: string): Promise<Page<WebhookDeliveryEntity>> {
    await this.get(p, id);
    return pageOf(await this.repo.pageDeliveries(id, limit, cursor), limit, (d) => d);
  }

  /**
   * Tells every subscription that hears it (webhook-events.ts: the audience's tenants' own, every operator's
   * asking for it; a cluster's subscriptions only that cluster's events) that `event` happened: one delivery row
   * each, then one queue job each, which a worker delivers. Never throws: an event that cannot be recorded
   * or queued is logged (and its deliveries marked failed), and the caller's work goes on. Answers the number of
   * deliveries queued.
   */
  async publish(event: WebhookEvent, about: WebhookAudience & { payload: Record<string, unknown> }): Promise<number> {
    try {
      const subscriptions = await this.repo.matching(event, about.tenantIds, about.clusterId ?? null);
      if (!subscriptions.length) return 0;
      const eventId = randomUUID();
      const body = JSON.stringify({ id: eventId, type: event, createdAt: new Date().toISOString(), data: about.payload });
      const rows = subscriptions.map((s) => ({ id: randomUUID(), subscriptionId: s.id, event, eventId, body }));
      await this.repo.insertDeliveries(rows);
      try {
        const jobs = rows.map((r) => ({ name: WEBHOOK_JOB, data: { deliveryId: r.id }, opts: webhookJobOptions(r.id, this.config) }));
        await withTimeout(this.queue.addBulk(jobs), QUEUE_ADD_TIMEOUT_MS, `no answer from Redis in ${QUEUE_ADD_TIMEOUT_MS} ms`);
      } catch (e) {
        await this.repo.failUnqueued(rows.map((r) => r.id), `could not be queued: ${(e as Error).message}`);
        throw e;
      }
      return rows.length;
    } catch (e) {
      this.log.error(`publishing ${event} failed: ${(e as Error).message}`);
      return 0;
    }
  }

  private eventIssues(p: Principal, events: unknown): Issue[] {
    const allowed = EVENTS_OF_ROLE[p.role];
    if (!Array.isArray(events) || events.length === 0 || events.length > WEBHOOK_EVENTS.length)
      return [{ path: 'events', message: `must be a list of 1 to ${WEBHOOK_EVENTS.length} of ${allowed.join(', ')}` }];
    return events.flatMap((e: unknown, i): Issue[] => {
      const path = `events[${i}]`;
      if (typeof e !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(e)) return [{ path, message: `must be one of ${WEBHOOK_EVENTS.join(', ')}, got ${JSON.stringify(e)?.slice(0, 60)}` }];
      if (!allowed.includes(e as WebhookEvent)) return [{ path, message: `a ${p.role}'s subscription cannot hear ${e}; it may ask for ${allowed.join(', ')}` }];
      if (events.indexOf(e) < i) return [{ path, message: `${e} is listed twice` }];
      return [];
    });
  }

  /** A cluster filter must name a cluster the key can see: a farmer's own, a lendable one for a customer, any for an operator. */
  private async clusterIssues(p: Principal, clusterId: unknown): Promise<Issue[]> {
    if (clusterId === undefined || clusterId === null) return [];
    if (typeof clusterId !== 'string' || !UUID.test(clusterId)) return [{ path: 'clusterId', message: `must be a cluster id (a UUID), got ${JSON.stringify(clusterId)?.slice(0, 60)}` }];
    const cluster = await this.clusters.findById(clusterId);
    const visible = cluster && (p.role === 'operator' || cluster.tenantId === p.tenantId || (p.role === 'customer' && cluster.lendable));
    return visible ? [] : [{ path: 'clusterId', message: `no cluster ${clusterId} that this key can see` }];
  }
}

function secretIssues(secret: unknown): Issue[] {
  if (secret === undefined) return [];
  const { min, max, pattern } = CALLER_SECRET;
  if (typeof secret !== 'string' || secret.length < min || secret.length > max || !pattern.test(secret))
    return [{ path: 'secret', message: `must be ${min} to ${max} printable ASCII characters without spaces (or left out: the server generates one)` }];
  return [];
}
