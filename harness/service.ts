/**
 * Starts the real service for medium and end-to-end tests: a fresh database on the Postgres server of
 * DATABASE_URL (migrated), a private queue prefix on the Redis of REDIS_URL, the API in this process on a
 * free port, and worker processes on demand. close() stops everything and drops what it created.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
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
  /**
   * Starts another API process (`node dist/src/main.js`) against this service's database and queue, with the
   * same operator key and limits, and waits until its /health answers: for tests of several API processes.
   */
  startApi(env?: Record<string, string>): Promise<ExtraApi>;
  /** A tenant with one key per role given, created through the API as the operator. */
  tenant(name: string, roles: ('farmer' | 'customer' | 'operator')[]): Promise<{ id: string; keys: Record<string, string> }>;
  close(): Promise<void>;
}

/** An API process started by Service.startApi; close() stops it too. */
export interface ExtraApi {
  baseUrl: string;
  process: ChildProcess;
  client(key?: string): FallowClient;
  stop(): Promise<void>;
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
    // Webhooks go to loopback receivers only, and retry soon.
    webhookAllow: ['127.0.0.1', 'localhost'],
    webhookBackoffMs: 200,
    webhookAttempts: 4,
    webhookTimeoutMs: 5000,
    ...overrides,
  };
  const app = await createApi(config);
  await app.get(AuthService).bootstrap();
  // Idle keep-alive sockets outlive the test client's own (undici closes them after 4 s): with the server's 5 s
  // default, a slow machine lets the server close one just as the client reuses it ("fetch failed").
  app.getHttpServer().keepAliveTimeout = 65_000;
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  db.on('error', () => undefined); // a lost connection (a fault test stopping Postgres) shows in the next query instead
  const workers = new Set<ChildProcess>();
  const apis = new Set<ChildProcess>();
  /** What a child process needs to join this service (the in-process API's config, not this process's environment). */
  const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
    ...process.env,
    DATABASE_URL: dbUrl,
    REDIS_URL: config.redisUrl,
    FALLOW_QUEUE_PREFIX: config.queuePrefix,
    FALLOW_LOCK_MS: String(config.lockMs),
    FALLOW_STALLED_INTERVAL_MS: String(config.stalledIntervalMs),
    FALLOW_WORKER_CONCURRENCY: String(config.workerConcurrency),
    FALLOW_WEBHOOK_ALLOW: config.webhookAllow.join(','),
    FALLOW_WEBHOOK_KEY: config.webhookKey ?? '',
    FALLOW_WEBHOOK_ATTEMPTS: String(config.webhookAttempts),
    FALLOW_WEBHOOK_BACKOFF_MS: String(config.webhookBackoffMs),
    FALLOW_WEBHOOK_TIMEOUT_MS: String(config.webhookTimeoutMs),
    FALLOW_LOG_LEVEL: process.env.FALLOW_TEST_LOG_LEVEL || 'warn',
    ...extra,
  });

  const service: Service = {
    baseUrl,
    config,
    operatorKey,
    app,
    client: (key) => createFallowClient(baseUrl, key),
    sql: async (text, params) => (await db.query(text, params as unknown[])).rows,
    startWorker(env = {}) {
      const child = spawn(process.execPath, [path.join(DIST_SRC, 'worker.js')], { env: childEnv(env), stdio: ['ignore', 'inherit', 'inherit'] });
      workers.add(child);
      child.on('exit', () => workers.delete(child));
      return child;
    },
    async startApi(env = {}) {
      // A port another process takes between our probe and the child's listen makes the child exit: try again.
      for (let attempt = 1; ; attempt++) {
        const port = await freePort();
        const child = spawn(process.execPath, [path.join(DIST_SRC, 'main.js')], {
          env: childEnv({
            PORT: String(port),
            FALLOW_BOOTSTRAP_KEY: operatorKey,
            FALLOW_KEY_SECRET: config.keySecret ?? '',
            FALLOW_RATE_LIMIT_PER_MINUTE: String(config.rateLimitPerMinute),
            FALLOW_AUTH_FAILURES_PER_MINUTE: String(config.authFailuresPerMinute),
            ...env,
          }),
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        apis.add(child);
        child.on('exit', () => apis.delete(child));
        const url = `http://127.0.0.1:${port}`;
        const healthy = await waitFor(`the API process on port ${port}`, async () => {
          if (child.exitCode !== null || child.signalCode !== null) return false;
          const r = await fetch(`${url}/health`).catch(() => undefined);
          return r?.status === 200 ? true : undefined;
        });
        if (healthy) return { baseUrl: url, process: child, client: (key?: string) => createFallowClient(url, key), stop: () => stopChild(child) };
        if (attempt >= 3) throw new Error(`the API process exited before it was healthy (${attempt} attempts; exit code ${child.exitCode})`);
      }
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
      await Promise.all([...workers, ...apis].map((w) => stopChild(w)));
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

/** A TCP port nothing listens on now (the OS's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The URL of database `db` on the server of `url`. */
export function withDatabase(url: string, db: string): string {
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
