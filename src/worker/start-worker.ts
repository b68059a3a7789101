import { NestFactory } from '@nestjs/core';
import { Worker } from 'bullmq';
import { Config } from '../config';
import { createLogger, PinoNestLogger } from '../modules/common/logger';
import { redisConnection } from '../modules/queue/queue.module';
import { cancelChannel, WorkJobData } from '../modules/work/work-kind';
import { LongWorkProcessor, WorkJobResult } from '../modules/work/work.processor';
import { WorkerModule } from './worker.module';

export interface RunningWorker {
  /** Stops taking new work, lets the running work finish, then closes every connection. */
  close(): Promise<void>;
}

/**
 * The worker process: one BullMQ worker per kind of long work, each with `workerConcurrency` jobs at
 * once (each in its own thread) and its own connection. A worker that dies loses its locks after
 * `lockMs`; another worker then retries its work.
 */
export async function startWorker(config: Config): Promise<RunningWorker> {
  const log = createLogger(config.logLevel, 'fallow-worker');
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: new PinoNestLogger(log) });
  const processor = app.get(LongWorkProcessor);
  const loops = processor.kinds.map((kind) => {
    const connection = redisConnection(config.redisUrl);
    const worker = new Worker<WorkJobData, WorkJobResult>(kind.queue, (job) => processor.process(kind, job), {
      connection,
      prefix: config.queuePrefix,
      concurrency: config.workerConcurrency,
      lockDuration: config.lockMs,
      stalledInterval: config.stalledIntervalMs,
      maxStalledCount: 2,
    });
    worker.on('error', (e) => log.error({ err: e }, `${kind.noun} queue error`));
    return { worker, connection };
  });
  const subscriber = redisConnection(config.redisUrl);
  const channels = new Map(processor.kinds.filter((k) => k.cancellable).map((k) => [cancelChannel(config.queuePrefix, k), k]));
  if (channels.size) await subscriber.subscribe(...channels.keys());
  subscriber.on('message', (channel: string, id: string) => {
    const kind = channels.get(channel);
    if (kind) processor.cancel(kind, id);
  });
  log.info({ concurrency: config.workerConcurrency, prefix: config.queuePrefix, kinds: processor.kinds.map((k) => k.queue) }, 'worker ready');
  return {
    async close() {
      log.info({ running: processor.activeCount }, 'worker stopping: finishing running work');
      await Promise.all(loops.map((l) => l.worker.close()));
      for (const l of loops) l.connection.disconnect(); // BullMQ leaves connections it was given open
      await subscriber.quit().catch(() => undefined);
      await app.close();
    },
  };
}
