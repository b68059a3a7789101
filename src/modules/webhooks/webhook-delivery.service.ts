import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { Config, CONFIG } from '../../config';
import { AllowList } from './allow-list';
import { postWebhook } from './post-webhook';
import { retryDelayMs } from './webhook-queue';
import { SecretBox, signatureHeader } from './webhook-secrets';
import { WebhooksRepository } from './webhooks.repository';

/** What an attempt came to, for the job's return value (the queue board shows it). */
export type AttemptResult = 'succeeded' | 'gone' | 'already ended';

/**
 * One attempt of one delivery, run by a worker (src/worker/webhook-loop.ts): signs the stored body with the
 * subscription's secret and the time of this attempt, POSTs it to an allowed address only, and logs the attempt
 * on the delivery. A failed attempt throws, so BullMQ retries it after its backoff; the last one, or one whose
 * address is not allowed (UnrecoverableError: retrying cannot help), leaves the delivery failed.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly log = new Logger('webhooks');

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly box: SecretBox,
    private readonly allow: AllowList,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** `attemptsBefore`: attempts the queue made of this job before this one; `maxAttempts`: how many it will make. */
  async attempt(deliveryId: string, attemptsBefore: number, maxAttempts: number): Promise<AttemptResult> {
    const found = await this.repo.forAttempt(deliveryId);
    if (!found) return 'gone'; // its subscription was deleted, and the log with it
    const { delivery, subscription } = found;
    if (delivery.status !== 'pending') return 'already ended';
    let secret: string;
    try {
      secret = this.box.open(subscription.secretSealed, subscription.id);
    } catch (e) {
      const error = `the subscription's secret cannot be opened (was FALLOW_WEBHOOK_KEY changed?): ${(e as Error).message}`;
      await this.repo.recordAttempt(delivery.id, { at: new Date(), statusCode: null, error, durationMs: 0, status: 'failed', nextAttemptAt: null });
      throw new UnrecoverableError(error);
    }
    const at = new Date();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Fallow-Webhooks/1',
      'fallow-event': delivery.event,
      'fallow-delivery': delivery.id,
      'fallow-signature': signatureHeader(secret, delivery.body, Math.floor(at.getTime() / 1000)),
    };
    const out = await postWebhook(subscription.url, headers, delivery.body, this.allow, this.config.webhookTimeoutMs);
    const last = out.refused || attemptsBefore + 1 >= maxAttempts;
    const status = out.ok ? 'succeeded' : last ? 'failed' : 'pending';
    const nextAttemptAt = status === 'pending' ? new Date(Date.now() + retryDelayMs(attemptsBefore + 1, this.config.webhookBackoffMs)) : null;
    await this.repo.recordAttempt(delivery.id, { at, statusCode: out.statusCode, error: out.error, durationMs: out.durationMs, status, nextAttemptAt });
    if (out.ok) return 'succeeded';
    if (status === 'failed') this.log.warn(`webhook delivery ${delivery.id} (${delivery.event}) failed for good: ${out.error}`);
    if (out.refused) throw new UnrecoverableError(out.error ?? 'refused');
    throw new Error(out.error ?? 'failed');
  }
}
