import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { withTimeout } from '../common/with-timeout';
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
