import { HttpStatus, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Config, CONFIG } from '../../config';
import { ProblemException } from '../common/problem';
import { REDIS } from '../queue/queue.module';

export const EVENT_STREAM_KEY = 'fallow:event-stream';
/** Marks a text/event-stream handler: it takes one of the key's FALLOW_MAX_STREAMS_PER_KEY slots while open. */
export const EventStream = () => SetMetadata(EVENT_STREAM_KEY, true);

/** A slot lives this long unless its stream renews it: the slots of an API process that died free themselves. */
const LEASE_MS = 30_000;
const RENEW_MS = 10_000;
/** What a refused follower is told to wait: slots free when streams end, which cannot be foretold. */
const RETRY_AFTER_S = 5;

/** Drops lapsed leases, then takes a slot if fewer than the cap are held (atomic: one script). */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * Open event streams per API key, counted in Redis so the cap holds across every API process: a sorted set
 * per key of stream ids scored by their lease's end. A stream renews its lease while open and gives its slot
 * back when its response closes (the stream ended or the client went away).
 */
@Injectable()
export class StreamSlots {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Takes a slot for `keyId` (429 when all are held) and returns the function that gives it back. */
  async acquire(keyId: string): Promise<() => void> {
    const cap = this.config.maxStreamsPerKey;
    if (cap === 0) return () => undefined;
    const set = `${this.config.queuePrefix}:streams:${keyId}`;
    const id = randomUUID();
    let taken: number;
    try {
      taken = (await this.redis.eval(ACQUIRE, 1, set, Date.now(), cap, Date.now() + LEASE_MS, id, LEASE_MS * 2)) as number;
    } catch (e) {
      throw new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, 'Service unavailable', `the stream limiter could not reach Redis (${(e as Error).message}); try again shortly`, [], { 'Retry-After': '5' });
    }
    if (!taken)
      throw new ProblemException(HttpStatus.TOO_MANY_REQUESTS, 'Too many requests', `at most ${cap} event streams open at once per API key (FALLOW_MAX_STREAMS_PER_KEY); close one first`, [], {
        'Retry-After': String(RETRY_AFTER_S),
      });
    // A failed renewal is not fatal: at worst the lease lapses and the key may open one stream more. A renewal
    // racing the release may put the id back: its lease then lapses unrenewed.
    const renew = setInterval(() => void this.redis.multi().zadd(set, Date.now() + LEASE_MS, id).pexpire(set, LEASE_MS * 2).exec().catch(() => undefined), RENEW_MS);
    renew.unref();
    return () => {
      clearInterval(renew);
      void this.redis.zrem(set, id).catch(() => undefined);
    };
  }
}
