import { WorkerHost } from '@nestjs/bullmq';
import { NestFactory } from '@nestjs/core';
import { Config } from '../config';
import { createLogger, PinoNestLogger } from '../modules/common/logger';
import { redisConnection } from '../modules/queue/queue.module';
import { withTimeout } from '../modules/common/with-timeout';
import { cancelChannel } from '../modules/work/work-kind';
import { LongWorkProcessor } from '../modules/work/work.processor';
import { WORK_LOOPS, WorkerModule } from './worker.module';

export interface RunningWorker {
  /** Stops taking new work, lets the running work finish, then closes every connection. */
  close(): Promise<void>;
}

/**
 * The worker process: one BullMQ worker per kind of long work (@nestjs/bullmq, see work-loops.ts), each
 * with `workerConcurrency` jobs at once, each job in its own thread. A worker that dies loses its locks
 * after `lockMs`; another worker then retries its work.
 */
export async function startWorker(config: Config): Promise<RunningWorker> {
  const log = createLogger(config.logLevel, 'fallow-worker');
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: new PinoNestLogger(log) });
  const processor = app.get(LongWorkProcessor);
  const loops = app.get<WorkerHost[]>(WORK_LOOPS);
  const subscriber = redisConnection(config.redisUrl);
  const channels = new Map(processor.kinds.map((k) => [cancelChannel(config.queuePrefix, k), k]));
  if (channels.size) await subscriber.subscribe(...channels.keys());
  subscriber.on('message', (channel: string, id: string) => {
    const kind = channels.get(channel);
    if (kind) processor.cancel(kind, id);
  });
  log.info({ concurrency: config.workerConcurrency, prefix: config.queuePrefix, queues: loops.map((l) => l.worker.name) }, 'worker ready');
  return {
    async close() {
      log.info({ running: processor.activeCount }, 'worker stopping: finishing running work');
      // The queue loops first (no new work), then the running work ends (it still needs the database to
      // store its result). BullMQ's close never resolves while its Redis client is reconnecting
      // (taskforcesh/bullmq#4656, open): once our own work is done, the connections get a bounded wait.
      const loopsClosed = Promise.all(loops.map((l) => l.worker.close()));
      await processor.whenIdle();
      await withTimeout(loopsClosed, CLOSE_WAIT_MS).catch((e) => log.warn(`queue connections did not close (${(e as Error).message}): exiting anyway`));
      await withTimeout(subscriber.quit(), CLOSE_WAIT_MS).catch(() => subscriber.disconnect());
      await withTimeout(app.close(), CLOSE_WAIT_MS).catch((e) => log.warn(`closing the application: ${(e as Error).message}`));
    },
  };
}

/** How long a stopping worker waits for each of its connections to close once its work is done. */
const CLOSE_WAIT_MS = 5_000;
