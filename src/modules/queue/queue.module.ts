import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import IORedis, { Redis } from 'ioredis';
import { Config, CONFIG } from '../../config';
import { FORECAST_BUILD_QUEUE_NAME } from './forecast-build-jobs';
import { SIMULATION_QUEUE_NAME } from './simulation-jobs';
import { SOLVE_QUEUE_NAME } from './solve-jobs';

export const REDIS = Symbol('REDIS');
export const SOLVE_QUEUE = Symbol('SOLVE_QUEUE');
export const FORECAST_BUILD_QUEUE = Symbol('FORECAST_BUILD_QUEUE');
export const SIMULATION_QUEUE = Symbol('SIMULATION_QUEUE');

export function redisConnection(url: string): Redis {
  // BullMQ needs maxRetriesPerRequest: null for its blocking commands.
  return new IORedis(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

@Global()
@Module({
  providers: [
    { provide: REDIS, inject: [CONFIG], useFactory: (c: Config) => redisConnection(c.redisUrl) },
    {
      provide: SOLVE_QUEUE,
      inject: [CONFIG, REDIS],
      useFactory: (c: Config, redis: Redis) => new Queue(SOLVE_QUEUE_NAME, { connection: redis, prefix: c.queuePrefix }),
    },
    {
      provide: FORECAST_BUILD_QUEUE,
      inject: [CONFIG, REDIS],
      useFactory: (c: Config, redis: Redis) => new Queue(FORECAST_BUILD_QUEUE_NAME, { connection: redis, prefix: c.queuePrefix }),
    },
    {
      provide: SIMULATION_QUEUE,
      inject: [CONFIG, REDIS],
      useFactory: (c: Config, redis: Redis) => new Queue(SIMULATION_QUEUE_NAME, { connection: redis, prefix: c.queuePrefix }),
    },
  ],
  exports: [REDIS, SOLVE_QUEUE, FORECAST_BUILD_QUEUE, SIMULATION_QUEUE],
})
export class QueueModule implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SOLVE_QUEUE) private readonly queue: Queue,
    @Inject(FORECAST_BUILD_QUEUE) private readonly builds: Queue,
    @Inject(SIMULATION_QUEUE) private readonly simulations: Queue,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.queue.close(), this.builds.close(), this.simulations.close()]);
    await this.redis.quit().catch(() => undefined);
  }
}
