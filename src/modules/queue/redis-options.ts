import IORedis, { Redis, RedisOptions } from 'ioredis';

/** ioredis options from a redis:// or rediss:// URL (BullMQ then opens and closes its own connections). */
export function redisOptions(url: string): RedisOptions {
  const u = new URL(url);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: Number.isInteger(db) ? db : undefined,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    // BullMQ needs maxRetriesPerRequest: null for its blocking commands.
    maxRetriesPerRequest: null,
  };
}

export function redisConnection(url: string): Redis {
  return new IORedis(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

/**
 * The API's own connection (rate limits, cancellations, health): requests must not wait for Redis, so a
 * command fails at once while it is disconnected and after 1 s without an answer (the caller answers 503).
 */
export function failFastRedis(url: string): Redis {
  const redis = new IORedis(url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: 1000, lazyConnect: false });
  redis.on('error', () => undefined); // an outage shows in each command's error (a 503), not as an unhandled event
  return redis;
}
