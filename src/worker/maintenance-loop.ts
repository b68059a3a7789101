import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Config, CONFIG } from '../config';
import { WorkQueues } from '../modules/queue/queue.module';
import { Reconciler, SweepResult } from '../modules/work/reconciler';
import { MAINTENANCE_QUEUE } from '../modules/work/work-kind';

const SCHEDULER_ID = 'reconcile';

/**
 * The deployment's housekeeping: a BullMQ job scheduler (one per deployment, however many workers upsert
 * it) makes a `reconcile` job every reconcileIntervalMs, and whichever worker takes it sweeps.
 *
 * The scheduler lives in Redis: a Redis that restarts empty (no persistence) or is flushed under running
 * workers loses it, and the sweeps stopped until a worker restarted (a queued solve whose job was lost stayed
 * queued 3 minutes while new solves ran). So each worker also checks once a period that the scheduler is
 * there and registers it again when it is not; Redis's own upsert keeps that one scheduler per deployment.
 */
@Processor(MAINTENANCE_QUEUE)
export class MaintenanceLoop extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('maintenance');
  private watch?: NodeJS.Timeout;
  /** A check waiting for Redis (its commands wait while it reconnects): the next tick does not pile another on it. */
  private checking = false;

  constructor(
    private readonly reconciler: Reconciler,
    private readonly queues: WorkQueues,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    this.worker.on('error', (e) => this.log.error(`maintenance queue error: ${e.message}`));
    await this.schedule();
    this.watch = setInterval(() => void this.ensureScheduled(), this.config.reconcileIntervalMs);
  }

  onModuleDestroy(): void {
    clearInterval(this.watch);
  }

  process(): Promise<SweepResult> {
    return this.reconciler.sweep();
  }

  private schedule(): Promise<unknown> {
    return this.queues.maintenance().upsertJobScheduler(SCHEDULER_ID, { every: this.config.reconcileIntervalMs }, { name: 'reconcile', opts: { removeOnComplete: 100, removeOnFail: 100 } });
  }

  private async ensureScheduled(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      if (await this.queues.maintenance().getJobScheduler(SCHEDULER_ID)) return;
      await this.schedule();
      this.log.warn('the reconciler\'s job scheduler was missing from Redis (Redis lost its data): registered again');
    } catch (e) {
      this.log.warn(`checking the reconciler's job scheduler: ${(e as Error).message}`);
    } finally {
      this.checking = false;
    }
  }
}
