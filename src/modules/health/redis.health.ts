import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { REDIS } from '../queue/queue.module';

/** Terminus has no Redis indicator: a PING on the API's own connection, with a time limit. */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async pingCheck<K extends string>(key: K, timeoutMs: number): Promise<HealthIndicatorResult<K>> {
    const check = this.indicators.check(key);
    const pong = await withTimeout(this.redis.ping(), timeoutMs).then((r) => r === 'PONG', () => false);
    return pong ? check.up() : check.down({ message: 'no PONG in time' });
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
