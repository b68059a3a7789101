import { isIP } from 'node:net';
import { cpus } from 'node:os';
import { AdmissionLimits, DEFAULT_ADMISSION_LIMITS, DEFAULT_SIMULATION_LIMITS, SimulationLimits } from './engine/model/admission';
import { DEFAULT_INPUT_LIMITS, InputLimits } from './engine/model/input-bounds';

/** Everything the processes read from the environment, in one place (see the README's table). */
export interface Config {
  port: number;
  /** Where clients reach the API (the OpenAPI document's server): FALLOW_PUBLIC_URL, else http://localhost:PORT. */
  publicUrl: string;
  databaseUrl: string;
  redisUrl: string;
  /** Operator key ensured on start; when unset and no operator exists, one is generated and printed once. */
  bootstrapKey?: string;
  /** HMAC secret of stored API key digests (FALLOW_KEY_SECRET; changing it invalidates every key). The API requires it in production. */
  keySecret?: string;
  /** NODE_ENV=production: the API refuses to start without FALLOW_KEY_SECRET. */
  production: boolean;
  workerConcurrency: number;
  logLevel: string;
  /** Largest accepted request body (express/body-parser syntax). */
  bodyLimit: string;
  /** Largest body of POST /v1/clusters/{id}/usage (bulk history: 400k samples are ~30 MB of JSON). */
  usageBodyLimit: string;
  /** Requests per minute per API key. */
  rateLimitPerMinute: number;
  /** Requests a minute per source address that carry no valid API key (429 above; 0 = no limit). */
  authFailuresPerMinute: number;
  /**
   * Proxies whose X-Forwarded-For is believed (FALLOW_TRUSTED_PROXIES): addresses, CIDRs and express's names
   * loopback, linklocal, uniquelocal. Empty (the default): the client is the socket's address, whatever it sends.
   */
  trustedProxies: string[];
  /** Event streams (text/event-stream) one API key may hold open at once across the deployment (0 = no cap). */
  maxStreamsPerKey: number;
  /** Prefix of every BullMQ key in Redis, so several deployments (or test runs) can share a server. */
  queuePrefix: string;
  /** How long a worker's lock on a solve lasts before another worker may take it over. */
  lockMs: number;
  /** How often workers look for solves whose worker died. */
  stalledIntervalMs: number;
  /** ISO 4217 code of every amount; amounts are integer minor units of it (cents for EUR). */
  currency: string;
  /** How often one worker of the deployment looks for long work nothing will run (the reconciler). */
  reconcileIntervalMs: number;
  /** Claims of one resource after which it fails instead of being handed to another worker (a poison pill). */
  maxAttempts: number;
  /** Heap of one piece of long work's thread, in MB: past it the work fails, the worker lives on. */
  threadMemoryMb: number;
  /** How long a stored Idempotency-Key response is replayed before it is forgotten. */
  idempotencyTtlHours: number;
  /** How long a worker keeps retrying to store a finished result while Postgres is away. */
  storeRetryMs: number;
  /** The largest instance a solve (and the largest batch) may ask for: checked before anything is built. */
  admission: AdmissionLimits;
  /** How extreme one value may be: a forecast's size, the window of execution event times (input-bounds.ts). */
  input: InputLimits;
  /** Threads of the API that make charts, so that rendering never holds its event loop (the worker's, which pre-render plans' charts, too). */
  chartThreads: number;
  /**
   * The worker renders the charts the plan page shows (gantt.svg, utilisation.svg) when it stores a plan of at
   * least `minTasks` scheduled tasks, and stores them with it (plan_charts), so their first request reads them
   * (FALLOW_CHART_PRERENDER_MIN_TASKS; 0: every plan). It waits at most `timeoutMs` from the plan's result for them
   * (FALLOW_CHART_PRERENDER_TIMEOUT_MS), then stores the plan without: the API renders those on request.
   */
  chartPrerender: { minTasks: number; timeoutMs: number };
  /** The simulation parameters whose cost explodes past them (tiny periods, huge look-aheads): a 422. */
  simulationLimits: SimulationLimits;
  /** Longest a simulation's thread may run, in seconds (its deadline grows with its size up to this). */
  simulationMaxSeconds: number;
  /** Longest a forecast build's thread may run, in seconds (its deadline grows with the history up to this). */
  forecastBuildMaxSeconds: number;
  /** How long a job of a tenant that holds more than its share of a queue's running work waits before it asks again (fair-share.ts). */
  fairShareDelayMs: number;
  /**
   * Where webhook deliveries may go (FALLOW_WEBHOOK_ALLOW): host names, addresses and CIDRs. A URL's host must be
   * listed, and the address it is delivered to as well (a name's resolved address must be in a listed address or
   * CIDR). Default: loopback (127.0.0.1, ::1, localhost) in development; empty in production, where no subscription
   * can then be made and nothing is delivered until the operator lists where deliveries may go.
   */
  webhookAllow: string[];
  /** Secret that webhook secrets are encrypted under at rest (FALLOW_WEBHOOK_KEY, at least 32 characters); API and workers need the same. */
  webhookKey?: string;
  /** Attempts of one webhook delivery (the first included) before it is given up. */
  webhookAttempts: number;
  /** The wait before a delivery's first retry; each later retry waits twice the one before. */
  webhookBackoffMs: number;
  /** How long one delivery attempt may take (connect, send, the receiver's answer). */
  webhookTimeoutMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: int(env, 'PORT', 3000),
    publicUrl: publicUrl(env.FALLOW_PUBLIC_URL, int(env, 'PORT', 3000)),
    databaseUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/fallow',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    bootstrapKey: env.FALLOW_BOOTSTRAP_KEY || undefined,
    keySecret: secretOf('FALLOW_KEY_SECRET', env.FALLOW_KEY_SECRET),
    production: env.NODE_ENV === 'production',
    workerConcurrency: int(env, 'FALLOW_WORKER_CONCURRENCY', Math.max(1, cpus().length)),
    logLevel: env.FALLOW_LOG_LEVEL || 'info',
    bodyLimit: env.FALLOW_BODY_LIMIT || '20mb',
    usageBodyLimit: env.FALLOW_USAGE_BODY_LIMIT || '100mb',
    rateLimitPerMinute: int(env, 'FALLOW_RATE_LIMIT_PER_MINUTE', 600),
    queuePrefix: env.FALLOW_QUEUE_PREFIX || 'fallow',
    authFailuresPerMinute: int(env, 'FALLOW_AUTH_FAILURES_PER_MINUTE', 60),
    trustedProxies: trustedProxies(env.FALLOW_TRUSTED_PROXIES),
    maxStreamsPerKey: int(env, 'FALLOW_MAX_STREAMS_PER_KEY', 16),
    lockMs: int(env, 'FALLOW_LOCK_MS', 30000),
    stalledIntervalMs: int(env, 'FALLOW_STALLED_INTERVAL_MS', 30000),
    currency: currency(env.FALLOW_CURRENCY),
    reconcileIntervalMs: int(env, 'FALLOW_RECONCILE_MS', 30000),
    maxAttempts: int(env, 'FALLOW_MAX_ATTEMPTS', 5),
    threadMemoryMb: int(env, 'FALLOW_THREAD_MEMORY_MB', 4096),
    idempotencyTtlHours: int(env, 'FALLOW_IDEMPOTENCY_TTL_HOURS', 24),
    storeRetryMs: int(env, 'FALLOW_STORE_RETRY_MS', 600000),
    admission: {
      maxSlots: int(env, 'FALLOW_MAX_SLOTS', DEFAULT_ADMISSION_LIMITS.maxSlots),
      maxTasksPerStage: int(env, 'FALLOW_MAX_STAGE_TASKS', DEFAULT_ADMISSION_LIMITS.maxTasksPerStage),
      maxTotalTasks: int(env, 'FALLOW_MAX_TASKS', DEFAULT_ADMISSION_LIMITS.maxTotalTasks),
      maxNodes: int(env, 'FALLOW_MAX_NODES', DEFAULT_ADMISSION_LIMITS.maxNodes),
      maxMetrics: int(env, 'FALLOW_MAX_METRICS', DEFAULT_ADMISSION_LIMITS.maxMetrics),
      maxJobs: int(env, 'FALLOW_MAX_JOBS', DEFAULT_ADMISSION_LIMITS.maxJobs),
      maxInstanceMb: int(env, 'FALLOW_MAX_INSTANCE_MB', DEFAULT_ADMISSION_LIMITS.maxInstanceMb),
    },
    input: {
      maxForecastPoints: int(env, 'FALLOW_MAX_FORECAST_POINTS', DEFAULT_INPUT_LIMITS.maxForecastPoints),
      eventMaxAgeDays: int(env, 'FALLOW_EVENT_MAX_AGE_DAYS', DEFAULT_INPUT_LIMITS.eventMaxAgeDays),
      eventMaxAheadSeconds: int(env, 'FALLOW_EVENT_MAX_AHEAD_SECONDS', DEFAULT_INPUT_LIMITS.eventMaxAheadSeconds),
    },
    // One core is left to the event loop on a small machine: a chart waits rather than slows every other request.
    chartThreads: Math.max(1, int(env, 'FALLOW_CHART_THREADS', Math.max(1, cpus().length - 1))),
    chartPrerender: { minTasks: int(env, 'FALLOW_CHART_PRERENDER_MIN_TASKS', 5000), timeoutMs: int(env, 'FALLOW_CHART_PRERENDER_TIMEOUT_MS', 30000) },
    simulationLimits: {
      minPolicyPeriodSeconds: positive(env, 'FALLOW_MIN_POLICY_PERIOD_SECONDS', DEFAULT_SIMULATION_LIMITS.minPolicyPeriodSeconds),
      minQosPeriodSeconds: positive(env, 'FALLOW_MIN_QOS_PERIOD_SECONDS', DEFAULT_SIMULATION_LIMITS.minQosPeriodSeconds),
      minRebuildLookAheadSeconds: positive(env, 'FALLOW_MIN_REBUILD_LOOK_AHEAD_SECONDS', DEFAULT_SIMULATION_LIMITS.minRebuildLookAheadSeconds),
      maxLookAheadSeconds: positive(env, 'FALLOW_MAX_LOOK_AHEAD_SECONDS', DEFAULT_SIMULATION_LIMITS.maxLookAheadSeconds),
    },
    simulationMaxSeconds: int(env, 'FALLOW_SIMULATION_MAX_SECONDS', 1800),
    forecastBuildMaxSeconds: int(env, 'FALLOW_FORECAST_BUILD_MAX_SECONDS', 1800),
    fairShareDelayMs: int(env, 'FALLOW_FAIR_SHARE_DELAY_MS', 1000),
    webhookAllow: webhookAllow(env.FALLOW_WEBHOOK_ALLOW ?? (env.NODE_ENV === 'production' ? '' : DEVELOPMENT_WEBHOOK_ALLOW)),
    webhookKey: secretOf('FALLOW_WEBHOOK_KEY', env.FALLOW_WEBHOOK_KEY),
    webhookAttempts: Math.max(1, int(env, 'FALLOW_WEBHOOK_ATTEMPTS', 8)),
    webhookBackoffMs: int(env, 'FALLOW_WEBHOOK_BACKOFF_MS', 10_000),
    webhookTimeoutMs: Math.max(1, int(env, 'FALLOW_WEBHOOK_TIMEOUT_MS', 10_000)),
  };
}

function secretOf(name: string, raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (raw.length < 32) throw new Error(`${name}: at least 32 characters (e.g. openssl rand -hex 32), got ${raw.length}`);
  return raw;
}

/** A host name as URLs carry it: letters, digits, dots and dashes (no scheme, port or path). */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

/** Where a development run delivers webhooks without FALLOW_WEBHOOK_ALLOW: this machine only. */
const DEVELOPMENT_WEBHOOK_ALLOW = '127.0.0.1,::1,localhost';

/** FALLOW_WEBHOOK_ALLOW: host names, addresses and CIDRs (prefix lengths), lower-cased. */
function webhookAllow(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  const bad = entries.filter((e) => !(e.includes('/') ? isCidr(e) : isIP(e) || HOST_NAME.test(e)));
  if (bad.length)
    throw new Error(`FALLOW_WEBHOOK_ALLOW: expected a comma-separated list of host names (hooks.example.com), addresses (127.0.0.1, ::1) and CIDRs (10.1.0.0/16); not understood: ${bad.map((b) => `"${b}"`).join(', ')}`);
  return entries;
}

function isCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  return !!family && !rest.length && /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

function publicUrl(raw: string | undefined, port: number): string {
  if (raw === undefined || raw === '') return `http://localhost:${port}`;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash)
    throw new Error(`FALLOW_PUBLIC_URL: expected an http(s) URL such as https://fallow.example.com (no query or fragment), got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** The names express's `trust proxy` gives to address ranges (proxy-addr). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * FALLOW_TRUSTED_PROXIES as express's `trust proxy` list. Only lists: `true` or a hop count would believe
 * whatever X-Forwarded-For a client sends, which is what this setting exists to prevent.
 */
function trustedProxies(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.filter((e) => !PROXY_RANGE_NAMES.has(e) && !isAddressOrCidr(e));
  if (bad.length)
    throw new Error(`FALLOW_TRUSTED_PROXIES: expected a comma-separated list of addresses, CIDRs (10.0.0.0/8) or loopback, linklocal, uniquelocal; not understood: ${bad.map((b) => `"${b}"`).join(', ')}`);
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) ? Number(bits) <= max : family === 4 && isIP(bits) === 4; // a prefix length, or an IPv4 netmask
}

function currency(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'EUR';
  if (!/^[A-Z]{3}$/.test(raw)) throw new Error(`FALLOW_CURRENCY: expected an ISO 4217 code such as EUR or USD, got "${raw}"`);
  return raw;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name}: expected a non-negative integer, got "${raw}"`);
  return n;
}

/** A positive number (fractions allowed: the simulation limits are seconds). */
function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}: expected a positive number, got "${raw}"`);
  return n;
}

export const CONFIG = Symbol('CONFIG');
