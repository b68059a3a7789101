/** Parts 2 and 3 of the service benchmark, through the API: solve budgets end to end, and request latency. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { InstanceDoc } from '../../src/engine/model/types';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { Service } from '../../harness/service';
import { summarize } from '../lib/stats';
import { countTasks, round2, sleep } from './util';
import { ServiceResults, E2eSolve, E2eGroup, ApiSeries, TARGET_OVERRUN_MS } from './results';

interface HttpResult {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  ms: number;
}

export function http(base: string, key: string) {
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

export async function runE2e(
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

export async function runOne(
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

export async function series(name: string, detail: string, n: number, fn: () => Promise<HttpResult>, expect: number, log: (m: string) => void): Promise<ApiSeries> {
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

