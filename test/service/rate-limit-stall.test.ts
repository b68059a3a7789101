/**
 * A stalled event loop must not make a healthy Redis look away. The rate limiter's Redis command has a 1 s
 * timeout, a timer on the API's event loop: when another request holds the loop longer (the fuzz test found
 * refusing a 7.7 MB body took 3.6 s on a loaded machine), the timer fires before the answer waiting on the socket
 * is read, and an unrelated request got a 503 "could not reach Redis". Against the real Redis.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { loadConfig } from '../../src/config';
import { RateLimiter } from '../../src/modules/auth/rate-limiter';
import { failFastRedis } from '../../src/modules/queue/redis-options';

/** Holds this thread's event loop, as a slow request would hold the API's. */
function holdTheLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('the rate limiter while the event loop stalls', () => {
  let redis: Redis;
  const config = { ...loadConfig(), queuePrefix: `fallow-stall-${randomBytes(3).toString('hex')}`, rateLimitPerMinute: 600 };
  before(async () => {
    redis = failFastRedis(config.redisUrl);
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve)); // no offline queue: commands need the connection
    await redis.ping();
  });
  after(async () => {
    const keys = await redis.keys(`${config.queuePrefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('a check whose command outlived its timeout only because the loop was held is answered, not a 503', async () => {
    const limiter = new RateLimiter(redis, config);
    for (let i = 0; i < 3; i++) {
      const check = limiter.check('stalled-key');
      holdTheLoop(1500); // past the 1 s command timeout, with Redis's answer waiting on the socket
      await check;
    }
    // every check was counted (summed over the minutes' counters: the test may straddle a minute)
    const counters = await redis.keys(`${config.queuePrefix}:ratelimit:stalled-key:*`);
    const counted = (await Promise.all(counters.map((k) => redis.get(k)))).reduce((sum, v) => sum + Number(v), 0);
    assert.ok(counted >= 3, `counted ${counted} of 3 checks`);
  });

  it('a Redis that is really away is still a 503 at once', async () => {
    const away = failFastRedis('redis://127.0.0.1:1');
    try {
      await assert.rejects(new RateLimiter(away, config).check('any-key'), (e: any) => e.getStatus?.() === 503 && /could not reach Redis/.test(e.message + JSON.stringify(e.getResponse?.() ?? {})));
    } finally {
      away.disconnect();
    }
  });
});
