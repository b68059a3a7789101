import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ConnectionOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Config, CONFIG } from '../../config';
import { WORK_KINDS } from '../work-kinds';
import { MAINTENANCE_QUEUE, WorkKind } from '../work/work-kind';
import { failFastRedis, redisOptions } from './redis-options';

export { redisConnection } from './redis-options';

/** The API's own Redis connection: rate limits, cancellations (publish), health. */
export const REDIS = Symbol('REDIS');

/** The queue of each kind of long work (registered with @nestjs/bullmq, looked up by kind once the application is initialised). */
export class WorkQueues {
  constructor(private readonly refs: ModuleRef) {}

  of(kind: WorkKind<any>): Queue {
    return this.refs.get<Queue>(getQueueToken(kind.queue), { strict: false });
  }

  all(): Queue[] {
    return WORK_KINDS.map((k) => this.of(k));
  }

  maintenance(): Queue {
    return this.refs.get<Queue>(getQueueToken(MAINTENANCE_QUEUE), { strict: false });
  }
}

/** Waits (up to 5 s) for the first connection, so the first requests do not fail while it is being made. */
function readyOrNot(redis: Redis): Promise<Redis> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve(redis);
    };
    const timer = setTimeout(done, 5000);
    redis.once('ready', done);
  });
}

@Global()
@Module({
  imports: [
    BullModule.forRootAsync({ inject: [CONFIG], useFactory: (c: Config) => ({ connection: redisOptions(c.redisUrl) as ConnectionOptions, prefix: c.queuePrefix }) }),
    BullModule.registerQueue(...WORK_KINDS.map((k) => ({ name: k.queue })), { name: MAINTENANCE_QUEUE }),
  ],
  providers: [
    { provide: REDIS, inject: [CONFIG], useFactory: (c: Config) => readyOrNot(failFastRedis(c.redisUrl)) },
    { provide: WorkQueues, inject: [ModuleRef], useFactory: (refs: ModuleRef) => new WorkQueues(refs) },
  ],
  exports: [REDIS, WorkQueues, BullModule],
})
export class QueueModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
