import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { AttemptResult, WebhookDeliveryService } from '../modules/webhooks/webhook-delivery.service';
import { WEBHOOK_QUEUE, WebhookJobData } from '../modules/webhooks/webhook-queue';

/**
 * Deliveries a worker runs at once. An attempt mostly waits on the receiver (up to FALLOW_WEBHOOK_TIMEOUT_MS), and
 * it never takes a slot of long work: slow receivers delay other deliveries, never solves.
 */
const WEBHOOK_CONCURRENCY = 16;

/** The worker's loop over the webhooks queue: each job is one attempt of one delivery; BullMQ retries failed ones with backoff. */
@Processor(WEBHOOK_QUEUE, { concurrency: WEBHOOK_CONCURRENCY })
export class WebhookLoop extends WorkerHost implements OnApplicationBootstrap {
  private readonly log = new Logger('webhooks-queue');

  constructor(private readonly deliveries: WebhookDeliveryService) {
    super();
  }

  process(job: Job<WebhookJobData>): Promise<AttemptResult> {
    return this.deliveries.attempt(job.data.deliveryId, job.attemptsMade, job.opts.attempts ?? 1);
  }

  onApplicationBootstrap(): void {
    this.worker.on('error', (e) => this.log.error(`webhooks queue error: ${e.message}`));
  }
}
