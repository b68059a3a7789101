import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Config, CONFIG } from '../../config';
import { ProblemException } from '../common/problem';
import { REDIS } from '../queue/queue.module';

/**
 * Fixed one-minute windows per API key, counted in Redis so every API process shares the count.
 * Simple and cheap; a burst of twice the limit across a window edge is acceptable for this purpose.
 */
@Injectable()
export class RateLimiter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async check(keyId: string): Promise<void> {
    const limit = this.config.rateLimitPerMinute;
    if (limit === 0) return;
    const counter = `${this.config.queuePrefix}:ratelimit:${keyId}:${currentMinute()}`;
    let count: number;
    try {
      [[, count]] = (await onceMoreAfterATimeout(() => this.redis.multi().incr(counter).expire(counter, 120).exec())) as [[Error | null, number]];
    } catch (e) {
      // Redis away: refuse now (nothing is created) rather than hang and run the request later.
      throw new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, 'Service unavailable', `the rate limiter could not reach Redis (${(e as Error).message}); nothing was changed, try again shortly`, [], { 'Retry-After': '5' });
    }
    if (count > limit) throw tooMany(`at most ${limit} requests a minute per API key`);
  }

  /**
   * Requests without a valid key, per source address: past `authFailuresPerMinute` in the current minute the
   * address gets 429 before its key is even looked up (so guessing keys costs no database lookups).
   */
  async checkFailures(address: string): Promise<void> {
    const limit = this.config.authFailuresPerMinute;
    if (limit === 0) return;
    const count = Number((await this.redis.get(this.failureCounter(address)).catch(() => null)) ?? 0);
    if (count >= limit) throw tooMany(`at most ${limit} requests a minute without a valid API key per address`);
  }

  async recordFailure(address: string): Promise<void> {
    if (this.config.authFailuresPerMinute === 0) return;
    const counter = this.failureCounter(address);
    await this.redis.multi().incr(counter).expire(counter, 120).exec().catch(() => undefined);
  }

  private failureCounter(address: string): string {
    return `${this.config.queuePrefix}:authfail:${address}:${currentMinute()}`;
  }
}

/**
 * Runs a Redis command, and once more if it timed out. The 1 s command timeout (failFastRedis) is a timer on this
 * event loop: when another request held the loop longer (refusing a 7.7 MB body took 3.6 s on a loaded machine),
 * the timer fires before the answer already waiting on the socket is read, and a healthy Redis looked away (a 503
 * to an unrelated request). A second try is answered at once then; a Redis really away fails it too.
 */
async function onceMoreAfterATimeout<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (e) {
    if (!/timed out/i.test((e as Error).message)) throw e;
    return command();
  }
}

/** The fixed one-minute window the counters count in. */
const currentMinute = () => Math.floor(Date.now() / 60000);

/** A 429 that says when the current window ends. */
function tooMany(detail: string): ProblemException {
  const retryAfter = String(60 - (Math.floor(Date.now() / 1000) % 60));
  return new ProblemException(HttpStatus.TOO_MANY_REQUESTS, 'Too many requests', detail, [], { 'Retry-After': retryAfter });
}
