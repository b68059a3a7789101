/**
 * Starts the real service for medium and end-to-end tests: a fresh database on the Postgres server of
 * DATABASE_URL (migrated), a private queue prefix on the Redis of REDIS_URL, the API in this process on a
 * free port, and worker processes on demand. close() stops everything and drops what it created.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { NestExpressApplication } from '@nestjs/platform-express';
import { createApi } from '../src/api/create-api';
import { createFallowClient, FallowClient } from '../src/client';
import { Config, loadConfig } from '../src/config';
import { AuthService } from '../src/modules/auth/auth.service';
import { migrate } from '../src/ops/main';

export const DIST_SRC = path.resolve(__dirname, '../src');
const DEFAULT_DB = 'postgres://postgres@127.0.0.1:5432/test';

export interface Service {
  baseUrl: string;
  config: Config;
  operatorKey: string;
  app: NestExpressApplication;
  /** A client with the given key (the generated OpenAPI client). */
  client(key?: string): FallowClient;
  /** Runs SQL on the test database. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Starts a worker process (`node dist/src/worker.js`) against this service's database and queue. */
  startWorker(env?: Record<string, string>): ChildProcess;
  /** A tenant with one key per role given, created through the API as the operator. */
  tenant(name: string, roles: ('farmer' | 'customer' | 'operator')[]): Promise<{ id: string; keys: Record<string, string> }>;
  close(): Promise<void>;
}

export async function startService(overrides: Partial<Config> = {}): Promise<Service> {
  const serverUrl = process.env.DATABASE_URL || DEFAULT_DB;
  const dbName = `fallow_t_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dbUrl = withDatabase(serverUrl, dbName);
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect().catch((e) => {
    throw new Error(`service tests need PostgreSQL at ${serverUrl} (set DATABASE_URL, or run scripts/ensure-services.sh): ${e.message}`);
  });
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  await migrate(dbUrl);

  const operatorKey = `op_${randomBytes(16).toString('hex')}`;
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    databaseUrl: dbUrl,
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    bootstrapKey: operatorKey,
    logLevel: process.env.FALLOW_TEST_LOG_LEVEL || 'silent',
    queuePrefix: `fallow_t_${randomBytes(4).toString('hex')}`,
    rateLimitPerMinute: 100000,
    authFailuresPerMinute: 100000,
    lockMs: 2000,
    stalledIntervalMs: 1000,
    workerConcurrency: 1,
    ...overrides,
  };
  const app = await createApi(config);
  await app.get(AuthService).bootstrap();
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  db.on('error', () => undefined); // a lost connection (a fault test stopping Postgres) shows in the next query instead
  const workers = new Set<ChildProcess>();

  const service: Service = {
    baseUrl,
    config,
    operatorKey,
    app,
    client: (key) => createFallowClient(baseUrl, key),
    sql: async (text, params) => (await db.query(text, params as unknown[])).rows,
    startWorker(env = {}) {
      const child = spawn(process.execPath, [path.join(DIST_SRC, 'worker.js')], {
        env: {
          ...process.env,
          DATABASE_URL: dbUrl,
          REDIS_URL: config.redisUrl,
          FALLOW_QUEUE_PREFIX: config.queuePrefix,
          FALLOW_LOCK_MS: String(config.lockMs),
          FALLOW_STALLED_INTERVAL_MS: String(config.stalledIntervalMs),
          FALLOW_WORKER_CONCURRENCY: String(config.workerConcurrency),
          FALLOW_LOG_LEVEL: process.env.FALLOW_TEST_LOG_LEVEL || 'warn',
          ...env,
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      workers.add(child);
      child.on('exit', () => workers.delete(child));
      return child;
    },
    async tenant(name, roles) {
      const op = service.client(operatorKey);
      const t = await op.POST('/v1/tenants', { body: { name } });
      if (!t.data) throw new Error(`creating tenant ${name}: ${JSON.stringify(t.error)}`);
      const keys: Record<string, string> = {};
      for (const role of roles) {
        const k = await op.POST('/v1/tenants/{id}/keys', { params: { path: { id: t.data.id } }, body: { role } });
        if (!k.data) throw new Error(`creating key: ${JSON.stringify(k.error)}`);
        keys[role] = k.data.key;
      }
      return { id: t.data.id, keys };
    },
    async close() {
      await Promise.all([...workers].map((w) => stopChild(w)));
      await app.close();
      await db.end();
      const redis = new IORedis(config.redisUrl);
      const keys = await redis.keys(`${config.queuePrefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
      const admin2 = new Client({ connectionString: serverUrl });
      await admin2.connect();
      await admin2.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await admin2.end();
    },
  };
  return service;
}

export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** Polls until `check` returns a value (not undefined) or the time is up. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30000, everyMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
