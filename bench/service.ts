/**
 * Service benchmark: the parts of Fallow around the engine, against the real Postgres and Redis.
 *
 *   1. store    the worker's end of a solve (LongWorkRepository.finish with PlansRepository.insert) for a 10,000-assignment plan (plan + assignment rows + solve status in one
 *               transaction), repeated on fresh solve rows;
 *   2. budget   end to end through the API and a worker process: finishedAt - startedAt - timeBudgetMs per solve
 *               (the service's target: the plan is stored within timeBudgetMs + 1 s of the solve starting), and
 *               queue latency startedAt - createdAt;
 *   3. api      sequential latency of GET /v1/solves/{id} (idle, and while a worker solves) and POST /v1/solves
 *               (a small inline instance);
 *   4. usage    POST /v1/clusters/{id}/usage with a week of 100 nodes x 2 metrics (bench/service/usage.ts).
 *
 * Uses harness/service.ts: a fresh migrated database (dropped afterwards), a private BullMQ prefix (its keys
 * deleted afterwards), the API in this process, worker processes `node dist/src/worker.js`.
 *
 *   npm run build && node dist/bench/service.js [options]          (see --help and bench/README.md)
 *
 * Writes bench/results/service-<date>.json (format fallow.bench-service/v1, ignored by report.js) and the
 * "Service" section at the end of bench/RESULTS.md (between the service-bench markers; report.js does not
 * know it, so re-add it after a report.js run with `node dist/bench/service.js --report-only`).
 */
import { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ephemeralInstance } from '../harness/ephemeral-instance';
import { startService, stopChild, waitFor } from '../harness/service';
import { command, EntryArgs, runEntry, UsageError } from './lib/cli';
import { machineInfo, timestamp } from './lib/machine';
import { resultsDir, sharedDir } from './lib/paths';
import { benchUsage } from './service/usage';
import { http, runE2e, runOne, series } from './service/api';
import { SERVICE_RESULTS_FORMAT, ServiceResults } from './service/results';
import { newestServiceResults, writeSection } from './service/section';
import { benchStore } from './service/store';
import { countTasks, round2, sleep } from './service/util';

const COMMAND = command({
  name: 'bench/service',
  usage: 'usage: node dist/bench/service.js [options]       (after npm run build)',
  helpColumn: 23,
  positionals: true,
  options: {
    parts: { kind: 'string', default: 'store,budget,api,usage', arg: 'P[,P]', help: 'store | budget | api | usage   (default all four)' },
    'store-reps': { kind: 'integer', min: 1, default: 20, arg: 'N', help: 'measured plan stores (default 20, after 2 warm-ups)' },
    'store-tasks': { kind: 'integer', min: 1, default: 10000, arg: 'N', help: 'tasks of the generated instance whose plan is stored (default 10000)' },
    budgets: { kind: 'string', default: '1000,3000', arg: 'A,B', help: 'timeBudgetMs of the end-to-end solves (default 1000,3000)' },
    strategies: { kind: 'string', default: 'ls,auto,ga', arg: 'A,B', help: 'strategies of the end-to-end solves (default ls,auto,ga)' },
    'no-shared': { kind: 'flag', help: 'do not use ../shared/instances/*.json in the end-to-end solves' },
    shared: { kind: 'string', arg: 'DIR', help: 'the shared directory (default ../shared or $FALLOW_SHARED)' },
    'poll-ms': { kind: 'integer', min: 1, default: 50, arg: 'N', help: 'GET /v1/solves/{id} poll interval while waiting for a solve (default 50)' },
    'api-requests': { kind: 'integer', min: 1, default: 200, arg: 'N', help: 'measured requests per API latency series (default 200, after 10 warm-ups)' },
    'usage-reps': { kind: 'integer', min: 1, default: 5, arg: 'N', help: 'measured POST /v1/clusters/{id}/usage runs per series (default 5, after 1 warm-up)' },
    workers: { kind: 'integer', min: 1, default: 1, arg: 'N', help: 'worker processes (default 1; each runs FALLOW_WORKER_CONCURRENCY=1 solve at a time)' },
    out: { kind: 'string', arg: 'FILE', help: 'results file (default bench/results/service-<date>.json)' },
    note: { kind: 'strings', arg: 'TEXT', help: 'a remark stored in the results file and printed in RESULTS.md (repeatable)' },
    'no-report': { kind: 'flag', help: 'do not write the Service section of bench/RESULTS.md' },
    'report-only': { kind: 'flag', arg: '[FILE]', help: 'only (re)write the Service section from FILE or the newest bench/results/service-*.json' },
  },
  epilog:
    'Needs PostgreSQL at $DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test: only the server is used,\n' +
    'a fresh database is created and dropped) and Redis at $REDIS_URL (default redis://127.0.0.1:6379).',
});

export async function main({ values: v, positionals, argv }: EntryArgs<typeof COMMAND.options>): Promise<number> {
  const log = (m: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);
  if (v['report-only']) {
    const file = positionals[0] ? path.resolve(positionals[0]) : newestServiceResults();
    if (!file) {
      log('no bench/results/service-*.json to report');
      return 1;
    }
    log(`wrote the Service section of ${writeSection(file)} from ${file}`);
    return 0;
  }
  const parts = v.parts.split(',').map((x) => x.trim());
  for (const p of parts) if (!['store', 'budget', 'api', 'usage'].includes(p)) throw new UsageError(`unknown part "${p}"`);
  const storeReps = v['store-reps'];
  const storeTasks = v['store-tasks'];
  const pollMs = v['poll-ms'];
  const apiRequests = v['api-requests'];
  const usageReps = v['usage-reps'];
  const nWorkers = v.workers;
  const budgets = v.budgets.split(',').map(Number);
  const strategies = v.strategies.split(',').map((x) => x.trim()).filter(Boolean);

  const outFile = path.resolve(v.out ?? path.join(resultsDir(), `service-${timestamp()}.json`));
  mkdirSync(path.dirname(outFile), { recursive: true });
  const loadAverage: ServiceResults['loadAverage'] = [];
  const markLoad = (phase: string) => {
    const [l1, l5] = os.loadavg();
    loadAverage.push({ phase, at: new Date().toISOString(), load1: round2(l1), load5: round2(l5) });
  };
  markLoad('start');

  log('starting the service (fresh database, private queue prefix)');
  const svc = await startService({ lockMs: 30000, stalledIntervalMs: 30000, workerConcurrency: 1 });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    log('stopping workers, dropping the database and the queue keys');
    await svc.close();
  };
  const onSignal = () => {
    log('interrupted: cleaning up');
    close().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const [pgVersion] = await svc.sql<{ v: string }>("SELECT split_part(version(), ' on ', 1) AS v");
  const redisUrl = new URL(svc.config.redisUrl);
  const dbName = new URL(svc.config.databaseUrl).pathname.slice(1);
  const results: ServiceResults = {
    format: SERVICE_RESULTS_FORMAT,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    machine: machineInfo(),
    loadAverage,
    argv,
    environment: {
      postgres: `${pgVersion.v} at ${new URL(svc.config.databaseUrl).host}`,
      redis: await redisVersion(svc.config.redisUrl).then((x) => `Redis ${x} at ${redisUrl.host}`),
      database: dbName,
      queuePrefix: svc.config.queuePrefix,
      workers: nWorkers,
      workerConcurrency: svc.config.workerConcurrency,
      lockMs: svc.config.lockMs,
      stalledIntervalMs: svc.config.stalledIntervalMs,
    },
    store: null,
    e2e: null,
    api: [],
    usage: null,
    notes: v.note,
  };
  const save = () => writeFileSync(outFile, JSON.stringify(results, null, 1) + '\n');
  try {
    const tenant = await svc.tenant('bench', ['customer']);
    const key = tenant.keys.customer;
    save();

    if (parts.includes('usage')) {
      markLoad('usage');
      results.usage = await benchUsage(svc, usageReps, log);
      save();
    }

    if (parts.includes('store')) {
      markLoad('store');
      results.store = await benchStore(svc, tenant.id, storeReps, storeTasks, log);
      save();
    }

    const call = http(svc.baseUrl, key);
    const small = ephemeralInstance({ nodes: 4, jobs: 3, seed: 7 });
    let succeededId: string | null = null;
    const workers: ChildProcess[] = [];
    if (parts.includes('budget') || parts.includes('api')) {
      log(`starting ${nWorkers} worker process(es)`);
      for (let i = 0; i < nWorkers; i++) workers.push(svc.startWorker());
      // Warm-up solve (not recorded): the workers are up and connected before the first measured solve.
      const w = await runOne(call, small, 'rffd', 500, pollMs);
      if (w.status !== 'succeeded') throw new Error(`warm-up solve ${w.status}: ${w.error}`);
      succeededId = w.solveId;
      log(`warm-up solve done (queue ${w.queueMs} ms incl. worker start-up)`);
    }
    if (parts.includes('budget')) {
      markLoad('budget');
      results.e2e = await runE2e(svc, key, { strategies, budgets, pollMs, useShared: !v['no-shared'], shared: sharedDir(v.shared) }, log);
      save();
    }
    if (parts.includes('api')) {
      markLoad('api');
      const smallBytes = JSON.stringify(small).length;
      // GET while a worker solves (what a polling client sees): a long ls solve on the largest generated instance.
      const busy = ephemeralInstance({ nodes: 24, jobs: 120, slots: 192, maxMaps: 48, seed: 3 });
      const created = await call('POST', '/v1/solves', { instance: busy, strategy: 'ls', timeBudgetMs: 120000, seed: 1 });
      if (created.status !== 202) throw new Error(`POST: ${created.status}`);
      const busyId: string = created.body.id;
      await waitFor('the busy solve to run', async () => ((await call('GET', `/v1/solves/${busyId}`)).body.status === 'running' ? true : undefined), 60000, 50);
      const busySeries = await series(
        'GET /v1/solves/{id}',
        `a running solve, while the worker solves it (ls on ${countTasks(busy)} tasks: one core busy)`,
        apiRequests,
        () => call('GET', `/v1/solves/${busyId}`),
        200,
        log,
      );
      const after = (await call('GET', `/v1/solves/${busyId}`)).body.status;
      if (after !== 'running') busySeries.detail += ` (NOTE: the solve was ${after} at the end of the series)`;
      results.api.push(busySeries);
      const del = await fetch(`${svc.baseUrl}/v1/solves/${busyId}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
      await del.text();
      await waitFor('the busy solve to stop', async () => (['succeeded', 'cancelled', 'failed'].includes((await call('GET', `/v1/solves/${busyId}`)).body.status) ? true : undefined), 60000, 100);
      // Idle: stop the workers, so the POSTed solves stay queued and nothing else runs.
      log('stopping the workers for the idle API latency series');
      for (const child of workers.splice(0)) await stopChild(child);
      await sleep(1000);
      results.api.push(await series('GET /v1/solves/{id}', 'a succeeded solve, idle service (no worker)', apiRequests, () => call('GET', `/v1/solves/${succeededId}`), 200, log));
      results.api.push(
        await series(
          'POST /v1/solves',
          `inline instance ${small.name} (${countTasks(small)} tasks, ${(smallBytes / 1024).toFixed(1)} KB JSON), rffd 500 ms; validated, stored, queued (no worker: stays queued)`,
          apiRequests,
          () => call('POST', '/v1/solves', { instance: small, strategy: 'rffd', timeBudgetMs: 500 }),
          202,
          log,
        ),
      );
      save();
    }
    markLoad('end');
    results.finishedAt = new Date().toISOString();
    save();
  } finally {
    await close();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  log(`wrote ${outFile}`);
  if (!v['no-report']) log(`wrote the Service section of ${writeSection(outFile)}`);
  return 0;
}

async function redisVersion(url: string): Promise<string> {
  const IORedis = (await import('ioredis')).default;
  const r = new IORedis(url, { lazyConnect: true });
  try {
    await r.connect();
    const info = await r.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? '?';
  } finally {
    r.disconnect();
  }
}

if (require.main === module) runEntry(COMMAND, main);
