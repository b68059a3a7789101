import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS } from '../queue/queue.module';
import { HealthRepository } from './health.repository';

/** Probes the database and Redis together; Redis gets one second to answer. */
@Injectable()
export class HealthService {
  constructor(
    private readonly repo: HealthRepository,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async probe(): Promise<{ database: boolean; redis: boolean }> {
    const [database, redis] = await Promise.all([this.repo.ping(), withTimeout(this.redis.ping(), 1000).then((r) => r === 'PONG', () => false)]);
    return { database, redis };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
