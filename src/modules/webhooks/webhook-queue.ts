import type { JobsOptions } from 'bullmq';
import type { Config } from '../../config';

/** The BullMQ queue of webhook deliveries: the API and workers add to it, workers run it (src/worker/webhook-loop.ts). */
export const WEBHOOK_QUEUE = 'webhooks';
export const WEBHOOK_JOB = 'deliver';

export interface WebhookJobData {
  deliveryId: string;
}

/**
 * One job per delivery, its id the delivery's (adding it twice never delivers twice). BullMQ retries a failed
 * attempt after webhookBackoffMs, then twice as long each time (exponential), up to webhookAttempts attempts.
 */
export function webhookJobOptions(deliveryId: string, config: Pick<Config, 'webhookAttempts' | 'webhookBackoffMs'>): JobsOptions {
  return {
    jobId: deliveryId,
    attempts: config.webhookAttempts,
    backoff: { type: 'exponential', delay: config.webhookBackoffMs },
    removeOnComplete: { age: 24 * 3600, count: 10000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** When the retry after failed attempt number `attempt` is due (BullMQ's exponential backoff: delay x 2^(attempt-1)). */
export function retryDelayMs(attempt: number, backoffMs: number): number {
  return backoffMs * 2 ** (attempt - 1);
}
