import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Config, CONFIG } from '../config';
import { WorkQueues } from '../modules/queue/queue.module';
import { Reconciler, SweepResult } from '../modules/work/reconciler';
import { MAINTENANCE_QUEUE } from '../modules/work/work-kind';

/**
 * The deployment's housekeeping: a BullMQ job scheduler (one per deployment, however many workers upsert
 * it) makes a `reconcile` job every reconcileIntervalMs, and whichever worker takes it sweeps.
 */
@Processor(MAINTENANCE_QUEUE)
export class MaintenanceLoop extends WorkerHost implements OnApplicationBootstrap {
  private readonly log = new Logger('maintenance');

  constructor(
    private readonly reconciler: Reconciler,
    private readonly queues: WorkQueues,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    this.worker.on('error', (e) => this.log.error(`maintenance queue error: ${e.message}`));
    await this.queues.maintenance().upsertJobScheduler('reconcile', { every: this.config.reconcileIntervalMs }, { name: 'reconcile', opts: { removeOnComplete: 100, removeOnFail: 100 } });
  }

  process(): Promise<SweepResult> {
    return this.reconciler.sweep();
  }
}
