import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, Type } from '@nestjs/common';
import { Job } from 'bullmq';
import { Config } from '../config';
import { WorkJobData, WorkKind } from '../modules/work/work-kind';
import { LongWorkProcessor, WorkJobResult } from '../modules/work/work.processor';

/**
 * One @nestjs/bullmq processor per kind of long work, all handing their jobs to the kernel's one
 * processor. The classes are made here, per process, because @Processor takes its worker options when a
 * class is decorated, and Fallow's (concurrency, lock duration, stalled interval) come from the config.
 */
export function workLoop(kind: WorkKind<any>, config: Config): Type<WorkerHost> {
  @Processor(kind.queue, {
    concurrency: config.workerConcurrency,
    lockDuration: config.lockMs,
    stalledInterval: config.stalledIntervalMs,
    maxStalledCount: 2,
  })
  class WorkLoop extends WorkerHost {
    private readonly log = new Logger(`${kind.queue}-queue`);

    constructor(@Inject(LongWorkProcessor) private readonly processor: LongWorkProcessor) {
      super();
    }

    process(job: Job<WorkJobData>, token?: string): Promise<WorkJobResult> {
      return this.processor.process(kind, job, token);
    }

    onApplicationBootstrap(): void {
      this.worker.on('error', (e) => this.log.error(`${kind.noun} queue error: ${e.message}`));
    }
  }
  Object.defineProperty(WorkLoop, 'name', { value: `WorkLoop(${kind.queue})` });
  return WorkLoop;
}
