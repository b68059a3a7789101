import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { RedisHealthIndicator } from './redis.health';

/** How long either dependency may take to answer before it counts as down. */
const PROBE_TIMEOUT_MS = 1000;

/** Probes the database and Redis together with Terminus's indicators, each within PROBE_TIMEOUT_MS. */
@Injectable()
export class HealthService {
  constructor(
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  async probe(): Promise<{ database: boolean; redis: boolean }> {
    const up = (r: Promise<HealthIndicatorResult>) => r.then((x) => Object.values(x).every((v) => v.status === 'up'), () => false);
    const [database, redis] = await Promise.all([up(this.database.pingCheck('database', { timeout: PROBE_TIMEOUT_MS })), up(this.redis.pingCheck('redis', PROBE_TIMEOUT_MS))]);
    return { database, redis };
  }
}
