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
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { evaluatePlan } from '../src/engine/evaluate/evaluate';
import { explainRejections } from '../src/engine/evaluate/rejections';
import { loadInstance, stageKey } from '../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../src/engine/model/types';
import { solve } from '../src/engine/solve';
import { dataSourceOptions } from '../src/modules/database/data-source';
import { PlansRepository } from '../src/modules/plans/plans.repository';
import { PlanAssignmentEntity, PlanEntity } from '../src/modules/plans/plan.entity';
import { SOLVE_WORK } from '../src/modules/solves/solve.kind';
import { LongWorkRepository } from '../src/modules/work/work.repository';
import { ephemeralInstance } from '../harness/ephemeral-instance';
import { largeInstance } from '../harness/load-speed';
import { Service, startService, stopChild, waitFor } from '../harness/service';
import { command, EntryArgs, runEntry, UsageError } from './lib/cli';
import { summarize, Summary } from './lib/stats';
import { machineInfo, MachineInfo, timestamp } from './lib/machine';
import { repoRoot, resultsDir, sharedDir } from './lib/paths';
import { benchUsage, UsageResult } from './service/usage';

export const SERVICE_RESULTS_FORMAT = 'fallow.bench-service/v1';
const SECTION_START = '<!-- service-bench:start (written by node dist/bench/service.js; report.js does not keep it) -->';
const SECTION_END = '<!-- service-bench:end -->';
const TARGET_STORE_MS = 1000;
const TARGET_OVERRUN_MS = 1000;

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

// ---------------------------------------------------------------------------------------------------------------
// Results format

export interface StoreResult {
  instance: string;
  assignments: number;
  documentBytes: number;
  warmups: number[];
  samplesMs: number[];
  summary: Summary;
  targetMs: number;
  note: string;
}

export interface E2eSolve {
  instance: string;
  source: string;
  tasks: number;
  strategy: string;
  timeBudgetMs: number;
  solveId: string;
  status: string;
  error: string | null;
  attempts: number;
  scheduledTasks: number | null;
  makespanSlots: number | null;
  /** plan.stats.elapsedMs as the engine reports it (progress.elapsedMs of the stored solve). */
  engineElapsedMs: number | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** startedAt - createdAt */
  queueMs: number | null;
  /** finishedAt - startedAt */
  runMs: number | null;
  /** finishedAt - startedAt - timeBudgetMs (finishedAt is now() of the storing transaction, i.e. its start). */
  overrunMs: number | null;
  /** first poll that saw the terminal status - startedAt - timeBudgetMs: an upper bound of the commit time. */
  observedOverrunMs: number | null;
}

export interface E2eGroup {
  strategy: string;
  timeBudgetMs: number;
  solves: number;
  succeeded: number;
  withinTarget: number;
  overrun: Summary;
  observedOverrun: Summary;
  queue: Summary;
  worst: string | null;
}

export interface ApiSeries {
  name: string;
  detail: string;
  samplesMs: number[];
  summary: Summary;
  statuses: Record<string, number>;
}

export interface ServiceResults {
  format: typeof SERVICE_RESULTS_FORMAT;
  startedAt: string;
  finishedAt: string | null;
  machine: MachineInfo;
  loadAverage: { phase: string; at: string; load1: number; load5: number }[];
  argv: string[];
  environment: { postgres: string; redis: string; database: string; queuePrefix: string; workers: number; workerConcurrency: number; lockMs: number; stalledIntervalMs: number };
  store: StoreResult | null;
  e2e: { instances: { name: string; source: string; tasks: number }[]; skipped: string[]; solves: E2eSolve[]; groups: E2eGroup[]; pollMs: number } | null;
  api: ApiSeries[];
  /** Absent in files written before the usage part existed. */
  usage?: UsageResult | null;
  notes: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const round2 = (x: number) => Math.round(x * 100) / 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const countTasks = (inst: InstanceDoc) => inst.jobs.reduce((a, j) => a + j.stages.reduce((b, s) => b + s.tasks, 0), 0);

/** The document the worker stores (solve.processor.ts + solve-thread.ts): plan + kpis + rejections, and the ends. */
function storedDocument(instance: InstanceDoc, plan: PlanDoc): { document: PlanDoc & Record<string, unknown>; ends: number[] } {
  const model = loadInstance(instance);
  const evaluation = evaluatePlan(model, plan);
  if (!evaluation.ok) throw new Error(`the generated plan is infeasible: ${evaluation.violations.slice(0, 3).join('; ')}`);
  const ends = plan.assignments.map((a) => a.start + model.stages[model.stageIndex.get(stageKey(a.job, a.stage))!].dur[model.nodeIndex.get(a.node)!]);
  const { jobs: _perJob, ...kpis } = evaluation.kpis;
  return { document: { ...plan, kpis, rejections: explainRejections(model, plan) }, ends };
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Storing a plan: LongWorkRepository.finish + PlansRepository.insert

async function benchStore(svc: Service, tenantId: string, reps: number, tasks: number, log: (m: string) => void): Promise<StoreResult> {
  const instance = largeInstance(tasks, 100, 1000, 1);
  instance.name = `large-${tasks}t-100n-1000s-s1`;
  log(`store: solving ${instance.name} with rffd (5 s) for a realistic plan document`);
  const plan = await solve(loadInstance(instance), { strategy: 'rffd', timeBudgetMs: 5000, seed: 1 });
  const { document, ends } = storedDocument(instance, plan);
  const documentBytes = Buffer.byteLength(JSON.stringify(document));
  log(`store: plan with ${plan.assignments.length} assignments (${plan.rejected.length} jobs rejected), document ${(documentBytes / 1e6).toFixed(2)} MB`);
  const instanceJson = JSON.stringify(instance);

  const ds = new DataSource(dataSourceOptions(svc.config.databaseUrl));
  await ds.initialize();
  try {
    const repo = new PlansRepository(ds.getRepository(PlanEntity), ds.getRepository(PlanAssignmentEntity));
    const work = new LongWorkRepository(ds);
    const once = async (): Promise<number> => {
      // A fresh solve row as the worker sees it: running, holding the whole instance (1.3 MB of jsonb).
      const [row] = await ds.query(
        `INSERT INTO solves (tenant_id, status, strategy, time_budget_ms, seed, instance, instance_name, attempts, started_at, starts_at)
         VALUES ($1, 'running', 'rffd', 5000, 1, $2::jsonb, $3, 1, now(), now()) RETURNING id`,
        [tenantId, instanceJson, instance.name],
      );
      const t0 = performance.now();
      // What the worker does at a solve's end: the plan and the solve's status in one transaction.
      let planId: string | null = null;
      await work.finish(SOLVE_WORK, row.id, 'succeeded', async (tx) => {
        planId = await repo.insert(tx, { tenantId, solveId: row.id, document, ends });
        const progress = { elapsedMs: Number(plan.stats?.elapsedMs ?? 0), iterations: 0, scheduledTasks: plan.objective.scheduledTasks, makespanSlots: plan.objective.makespanSlots };
        return planId === null ? null : { planId, progress };
      });
      const ms = performance.now() - t0;
      if (!planId) throw new Error('store returned no plan id');
      const [c] = await ds.query('SELECT count(*)::int AS n FROM plan_assignments WHERE plan_id = $1', [planId]);
      const [s] = await ds.query('SELECT status, plan_id FROM solves WHERE id = $1', [row.id]);
      if (c.n !== plan.assignments.length || s.status !== 'succeeded' || s.plan_id !== planId)
        throw new Error(`store did not write what it should: ${c.n} rows, solve ${s.status} ${s.plan_id}`);
      return ms;
    };
    const warmups: number[] = [];
    for (let i = 0; i < 2; i++) warmups.push(round2(await once()));
    const samples: number[] = [];
    for (let i = 0; i < reps; i++) {
      samples.push(round2(await once()));
      log(`store: run ${i + 1}/${reps}: ${samples[i].toFixed(1)} ms`);
    }
    return {
      instance: instance.name,
      assignments: plan.assignments.length,
      documentBytes,
      warmups,
      samplesMs: samples,
      summary: summarize(samples),
      targetMs: TARGET_STORE_MS,
      note:
        `LongWorkRepository.finish(SOLVE_WORK) with PlansRepository.insert inside, on a DataSource from dataSourceOptions(url); each run on a fresh solves row (status running, ` +
        `holding the ${(instanceJson.length / 1e6).toFixed(1)} MB instance); wall time of the transaction including JSON serialisation of ` +
        `the document by the driver; ${warmups.length} warm-up runs excluded; rows verified after each run (outside the timing)`,
    };
  } finally {
    await ds.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 2. budgets end to end, 3. API latency

interface HttpResult {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  ms: number;
}

function http(base: string, key: string) {
  return async (method: 'GET' | 'POST', url: string, body?: unknown): Promise<HttpResult> => {
    const t0 = performance.now();
    const res = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    return { status: res.status, body: text ? JSON.parse(text) : null, ms };
  };
}

function e2eInstances(useShared: boolean, shared: string): { list: { name: string; source: string; doc: InstanceDoc }[]; skipped: string[] } {
  const list: { name: string; source: string; doc: InstanceDoc }[] = [];
  const skipped: string[] = [];
  const gen: [string, Parameters<typeof ephemeralInstance>[0]][] = [
    // Sizes whose search runs to the budget (smaller or lighter generated instances are often proven optimal at once).
    ['gen-small', { nodes: 3, jobs: 16, maxMaps: 40, seed: 5 }],
    ['gen-medium', { nodes: 12, jobs: 60, maxMaps: 48, seed: 2 }],
    ['gen-large', { nodes: 24, jobs: 120, slots: 192, maxMaps: 48, seed: 3 }],
  ];
  for (const [name, o] of gen) {
    const doc = ephemeralInstance(o);
    list.push({ name: `${name} (${doc.name})`, source: `harness/ephemeral-instance.ts ${JSON.stringify(o)}`, doc });
  }
  const dir = path.join(shared, 'instances');
  if (!useShared) skipped.push('shared instances: not used (--no-shared)');
  else if (!existsSync(dir)) skipped.push(`shared instances: ${dir} is absent, only generated instances were run`);
  else
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
      try {
        list.push({ name: f.replace(/\.json$/, ''), source: path.join(dir, f), doc: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) });
      } catch (e) {
        skipped.push(`${f}: cannot be read (${(e as Error).message})`);
      }
    }
  return { list, skipped };
}

async function runE2e(
  svc: Service,
  key: string,
  opts: { strategies: string[]; budgets: number[]; pollMs: number; useShared: boolean; shared: string },
  log: (m: string) => void,
): Promise<NonNullable<ServiceResults['e2e']>> {
  const call = http(svc.baseUrl, key);
  const { list, skipped } = e2eInstances(opts.useShared, opts.shared);
  for (const s of skipped) log(`budget: ${s}`);
  const solves: E2eSolve[] = [];
  const total = list.length * opts.budgets.length * opts.strategies.length;
  for (const inst of list) {
    const tasks = countTasks(inst.doc);
    for (const budget of opts.budgets)
      for (const strategy of opts.strategies) {
        const r = await runOne(call, inst.doc, strategy, budget, opts.pollMs);
        const rec: E2eSolve = { instance: inst.name, source: inst.source, tasks, strategy, timeBudgetMs: budget, ...r };
        solves.push(rec);
        log(
          `[${solves.length}/${total}] ${inst.name} ${strategy} ${budget} ms: ${rec.status}` +
            (rec.status === 'succeeded'
              ? `, ${rec.scheduledTasks}/${tasks} tasks, queue ${rec.queueMs} ms, run ${rec.runMs} ms (engine ${rec.engineElapsedMs}), overrun ${rec.overrunMs} ms (observed ${rec.observedOverrunMs})`
              : ` ${rec.error ?? ''}`),
        );
      }
  }
  const groups: E2eGroup[] = [];
  for (const strategy of opts.strategies)
    for (const budget of opts.budgets) {
      const g = solves.filter((s) => s.strategy === strategy && s.timeBudgetMs === budget);
      const ok = g.filter((s) => s.status === 'succeeded' && s.overrunMs !== null);
      const worst = ok.reduce<E2eSolve | null>((w, s) => (!w || s.overrunMs! > w.overrunMs! ? s : w), null);
      groups.push({
        strategy,
        timeBudgetMs: budget,
        solves: g.length,
        succeeded: ok.length,
        withinTarget: ok.filter((s) => s.overrunMs! <= TARGET_OVERRUN_MS).length,
        overrun: summarize(ok.map((s) => s.overrunMs!)),
        observedOverrun: summarize(ok.map((s) => s.observedOverrunMs!)),
        queue: summarize(g.filter((s) => s.queueMs !== null).map((s) => s.queueMs!)),
        worst: worst ? `${worst.instance} (${worst.tasks} tasks): ${worst.overrunMs} ms` : null,
      });
    }
  return { instances: list.map((i) => ({ name: i.name, source: i.source, tasks: countTasks(i.doc) })), skipped, solves, groups, pollMs: opts.pollMs };
}

async function runOne(
  call: ReturnType<typeof http>,
  instance: InstanceDoc,
  strategy: string,
  timeBudgetMs: number,
  pollMs: number,
): Promise<Omit<E2eSolve, 'instance' | 'source' | 'tasks' | 'strategy' | 'timeBudgetMs'>> {
  const created = await call('POST', '/v1/solves', { instance, strategy, timeBudgetMs, seed: 1 });
  if (created.status !== 202) throw new Error(`POST /v1/solves: ${created.status} ${JSON.stringify(created.body).slice(0, 500)}`);
  const id: string = created.body.id;
  const deadline = Date.now() + timeBudgetMs + 120000;
  for (;;) {
    const g = await call('GET', `/v1/solves/${id}`);
    const seenAt = Date.now();
    if (g.status !== 200) throw new Error(`GET /v1/solves/${id}: ${g.status}`);
    const s = g.body;
    if (['succeeded', 'failed', 'cancelled'].includes(s.status)) {
      const c = Date.parse(s.createdAt);
      const st = s.startedAt ? Date.parse(s.startedAt) : null;
      const f = s.finishedAt ? Date.parse(s.finishedAt) : null;
      return {
        solveId: id,
        status: s.status,
        error: s.error,
        attempts: s.attempts,
        scheduledTasks: s.progress?.scheduledTasks ?? null,
        makespanSlots: s.progress?.makespanSlots ?? null,
        engineElapsedMs: s.progress?.elapsedMs ?? null,
        createdAt: s.createdAt,
        startedAt: s.startedAt,
        finishedAt: s.finishedAt,
        queueMs: st !== null ? st - c : null,
        runMs: st !== null && f !== null ? f - st : null,
        overrunMs: st !== null && f !== null ? f - st - timeBudgetMs : null,
        observedOverrunMs: st !== null ? seenAt - st - timeBudgetMs : null,
      };
    }
    if (Date.now() > deadline) throw new Error(`solve ${id} (${strategy}, ${timeBudgetMs} ms) did not end within budget + 120 s (status ${s.status})`);
    await sleep(pollMs);
  }
}

async function series(name: string, detail: string, n: number, fn: () => Promise<HttpResult>, expect: number, log: (m: string) => void): Promise<ApiSeries> {
  for (let i = 0; i < 10; i++) await fn(); // warm-up
  const samples: number[] = [];
  const statuses: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const r = await fn();
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status !== expect) throw new Error(`${name}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    samples.push(round2(r.ms));
  }
  const s = summarize(samples);
  log(`api: ${name}: median ${s.median} ms, p90 ${s.p90} ms, max ${s.max} ms over ${n}`);
  return { name, detail, samplesMs: samples, summary: s, statuses };
}

// ---------------------------------------------------------------------------------------------------------------
// RESULTS.md section

const fmt = (x: number | null | undefined, d = 1) => (x === null || x === undefined ? '–' : x.toFixed(d));

export function renderSection(r: ServiceResults, file: string): string {
  const out: string[] = [];
  const w = (s = '') => out.push(s);
  w(SECTION_START);
  w('## Service (API, worker, Postgres, Redis)');
  w();
  w(`From \`bench/results/${path.basename(file)}\` (format \`${SERVICE_RESULTS_FORMAT}\`), written by \`node dist/bench/service.js\` (after \`npm run build\`);`);
  w('this section is not generated by `report.js`: after regenerating RESULTS.md re-add it with `node dist/bench/service.js --report-only`.');
  const m = r.machine;
  w(
    `Run ${r.startedAt.slice(0, 16).replace('T', ' ')} – ${(r.finishedAt ?? '').slice(11, 16)} UTC on ${m.cpu}, ${m.cores} cores, ${m.memGB} GB, Node ${m.node}, ${m.os}; ` +
      `${r.environment.postgres}, ${r.environment.redis}. **The machine is shared and noisy** (2 cores, other work may run in parallel; ` +
      `1-min load average, this run included, ${r.loadAverage.map((l) => l.load1.toFixed(2)).join(' / ')} at ${r.loadAverage.map((l) => l.phase).join(' / ')}).`,
  );
  w(
    `Harness: \`harness/service.ts\` (fresh migrated database, dropped after; private queue prefix, keys deleted after); API in the bench process, ` +
      `${r.environment.workers} worker process(es) with concurrency ${r.environment.workerConcurrency}, lockMs ${r.environment.lockMs}, stalledIntervalMs ${r.environment.stalledIntervalMs}.`,
  );
  w();
  if (r.store) {
    const s = r.store;
    const ok = s.summary.max !== null && s.summary.max < s.targetMs;
    w('### Storing a plan (LongWorkRepository.finish + PlansRepository.insert, one transaction)');
    w();
    w('| plan | assignments | document | runs | median ms | p90 ms | min ms | max ms | target | status |');
    w('|---|---|---|---|---|---|---|---|---|---|');
    w(
      `| rffd on ${s.instance} | ${s.assignments} | ${(s.documentBytes / 1e6).toFixed(2)} MB JSON | ${s.summary.n} | ${fmt(s.summary.median)} | ${fmt(s.summary.p90)} | ` +
        `${fmt(s.summary.min)} | ${fmt(s.summary.max)} | < ${s.targetMs} ms | **${ok ? 'met' : 'not met'}** |`,
    );
    w();
    w(`${s.note}. Warm-ups: ${s.warmups.map((x) => x.toFixed(0)).join(', ')} ms.`);
    w();
  }
  if (r.e2e) {
    const e = r.e2e;
    w('### Budget honoured end to end (POST /v1/solves -> worker -> stored plan)');
    w();
    w(
      `overrun = finishedAt - startedAt - timeBudgetMs; target: <= ${TARGET_OVERRUN_MS} ms (the plan is stored within timeBudgetMs + 1 s of the solve starting). ` +
        `startedAt is set when the worker claims the solve (before loading the instance and starting the thread); finishedAt is \`now()\` of the ` +
        `storing transaction, i.e. its start, so the insert of the assignment rows (see above) comes on top; "observed" is when a poll ` +
        `(every ${e.pollMs} ms) first saw the stored plan, an upper bound. queue = startedAt - createdAt with an idle worker (solves submitted one at a time).`,
    );
    w(`Instances (${e.instances.length}): ${e.instances.map((i) => `${i.name} ${i.tasks}`).join(', ')} (name, tasks).${e.skipped.length ? ' ' + e.skipped.join('; ') + '.' : ''}`);
    w();
    w(
      '| strategy | budget | solves | succeeded | within +1 s | median overrun ms | median overrun ms, solves that ran to the budget | max overrun ms | ' +
        'median / max observed overrun ms | median queue ms | max queue ms | worst instance |',
    );
    w('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const g of e.groups) {
      // "ran to the budget": the engine's own elapsed time is at least 90% of the budget (no early proof of optimality).
      const full = e.solves.filter((s) => s.strategy === g.strategy && s.timeBudgetMs === g.timeBudgetMs && s.overrunMs !== null && (s.engineElapsedMs ?? 0) >= 0.9 * s.timeBudgetMs);
      const fs = summarize(full.map((s) => s.overrunMs!));
      w(
        `| ${g.strategy} | ${g.timeBudgetMs / 1000} s | ${g.solves} | ${g.succeeded} | ${g.withinTarget}/${g.succeeded} | ${fmt(g.overrun.median, 0)} | ${fmt(fs.median, 0)} (${fs.n}) | ` +
          `${fmt(g.overrun.max, 0)} | ${fmt(g.observedOverrun.median, 0)} / ${fmt(g.observedOverrun.max, 0)} | ${fmt(g.queue.median, 0)} | ${fmt(g.queue.max, 0)} | ${g.worst ?? '–'} |`,
      );
    }
    const all = e.solves.filter((s) => s.overrunMs !== null);
    const within = all.filter((s) => s.overrunMs! <= TARGET_OVERRUN_MS).length;
    const failed = e.solves.filter((s) => s.status !== 'succeeded');
    w();
    w(
      `All: ${within}/${all.length} solves within the +1 s target${failed.length ? `; not succeeded: ${failed.map((s) => `${s.instance} ${s.strategy} ${s.timeBudgetMs} ms: ${s.status} ${s.error ?? ''}`).join('; ')}` : ''}. ` +
        `Early finishes (negative overrun) are solves that proved optimality or ran out of moves before the budget.`,
    );
    const over = e.solves.filter((s) => s.overrunMs !== null && s.overrunMs > TARGET_OVERRUN_MS);
    if (over.length) {
      w();
      w('Solves over the target:');
      w();
      w('| instance | tasks | strategy | budget | run ms | engine elapsed ms | overrun ms |');
      w('|---|---|---|---|---|---|---|');
      for (const s of over) w(`| ${s.instance} | ${s.tasks} | ${s.strategy} | ${s.timeBudgetMs / 1000} s | ${s.runMs} | ${s.engineElapsedMs ?? '–'} | ${s.overrunMs} |`);
    }
    w();
  }
  if (r.api.length) {
    w('### API latency (sequential requests, client in the same process as the API)');
    w();
    w('| request | detail | requests | median ms | p90 ms | min ms | max ms |');
    w('|---|---|---|---|---|---|---|');
    for (const a of r.api) w(`| ${a.name} | ${a.detail} | ${a.summary.n} | ${fmt(a.summary.median, 2)} | ${fmt(a.summary.p90, 2)} | ${fmt(a.summary.min, 2)} | ${fmt(a.summary.max, 2)} |`);
    w();
  }
  if (r.usage) {
    const u = r.usage;
    w(`### Usage history ingestion (POST /v1/clusters/{id}/usage, ${u.samples} samples: ${u.nodes} nodes x ${u.days} days x 2 metrics at 5 min)`);
    w();
    w(`JSON ${u.jsonMB.toFixed(1)} MB, CSV ${u.csvMB.toFixed(1)} MB; HTTP, parsing, validation and COPY into Postgres, timed at the client in the API's process.`);
    w();
    w('| request | response | runs | median ms | min ms | max ms | target | status |');
    w('|---|---|---|---|---|---|---|---|');
    for (const x of u.series) {
      const ok = x.summary.max !== null && x.summary.max < u.targetMs;
      w(`| ${x.name} | ${x.response} | ${x.summary.n} | ${fmt(x.summary.median, 0)} | ${fmt(x.summary.min, 0)} | ${fmt(x.summary.max, 0)} | < ${u.targetMs} ms | **${ok ? 'met' : 'not met'}** |`);
    }
    w();
  }
  for (const n of r.notes) w(`- ${n}`);
  if (r.notes.length) w();
  w(SECTION_END);
  return out.join('\n') + '\n';
}

export function writeSection(file: string): string {
  const r = JSON.parse(readFileSync(file, 'utf8')) as ServiceResults;
  if (r.format !== SERVICE_RESULTS_FORMAT) throw new Error(`${file} is not a ${SERVICE_RESULTS_FORMAT} file`);
  const target = path.join(repoRoot(), 'bench', 'RESULTS.md');
  const md = existsSync(target) ? readFileSync(target, 'utf8') : '# Fallow benchmark results\n';
  const section = renderSection(r, file);
  const a = md.indexOf(SECTION_START);
  const b = md.indexOf(SECTION_END);
  const next =
    a >= 0 && b > a ? md.slice(0, a) + section + md.slice(b + SECTION_END.length).replace(/^\n/, '') : md.replace(/\n*$/, '\n\n') + section;
  writeFileSync(target, next);
  return target;
}

function newestServiceResults(): string | null {
  const dir = resultsDir();
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => /^service.*\.json$/.test(f))
    .map((f) => path.join(dir, f))
    .filter((f) => {
      try {
        return JSON.parse(readFileSync(f, 'utf8')).format === SERVICE_RESULTS_FORMAT;
      } catch {
        return false;
      }
    })
    .sort((x, y) => JSON.parse(readFileSync(x, 'utf8')).startedAt.localeCompare(JSON.parse(readFileSync(y, 'utf8')).startedAt));
  return files.length ? files[files.length - 1] : null;
}

// ---------------------------------------------------------------------------------------------------------------
// main

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
