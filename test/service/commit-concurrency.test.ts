/**
 * Issue 37, point 7: twenty customers solving and committing on one cluster at once, through two API
 * processes (this one and a child `node dist/src/main.js`) and two workers, never overbook it. Their batches
 * cannot all fit, so commits race and meet 409s; a customer whose commit is refused solves again (around what
 * is now held) and retries. Afterwards every committed plan is laid on one time line (one merged instance with
 * every committed job, test/support/timeline.ts) and both the evaluator and ../shared/tools/check-plan.py find it
 * feasible; what plan_holds holds is summed per node and instant in SQL and stays within what is free. The
 * negative control: each plan that met a 409, laid on the line with every committed plan, is found infeasible
 * by both checkers (so the merged check can fail, and no 409 was spurious).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import type { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import type { FallowClient } from '../../src/client';
import { ExtraApi, Service, startService, waitFor } from '../../harness/service';
import { checkerAvailable, checkPlans, SKIP_MESSAGE } from '../support/check-plan';
import { ForecastLine, layOnTimeline, PlacedPlan } from '../support/timeline';

const HOUR = 3600;
const T0 = '2030-06-01T00:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR * 1000).toISOString();
const CUSTOMERS = 20;
/** Solves and commits per customer before it gives up (about six rounds of 409s were seen before the cluster is full). */
const ATTEMPTS = 8;
const SLOTS = 6;
const MARGIN = 0.05;

/** Heterogeneous nodes, two metrics, two of them with task slots. */
const NODES = [
  { id: 'n1', capacity: { cpu: 16, ram: 64 }, maxTasks: 4 },
  { id: 'n2', capacity: { cpu: 8, ram: 48 } },
  { id: 'n3', capacity: { cpu: 12, ram: 24 }, maxTasks: 3 },
];
const wave = (base: number, step: number) => Array.from({ length: SLOTS }, (_, t) => Math.round((base + step * ((t * 3) % 4)) * 100) / 100);
/** Regular load the lent capacity comes after: a fraction of each node's capacity per slot. */
const USAGE = {
  n1: { cpu: wave(0.1, 0.05), ram: wave(0.2, 0.02) },
  n2: { cpu: wave(0.25, 0.03), ram: wave(0.1, 0.05) },
  n3: { cpu: wave(0.15, 0.04), ram: wave(0.3, 0.01) },
};
/**
 * Each customer's batch: 22 or 28 core-hours. Twenty of them ask for 500 of the ~160 the cluster lends over
 * the forecast, so the customers compete for the same slots and most end up with their jobs rejected.
 */
const batchOf = (i: number) => [
  {
    id: 'etl',
    stages: [
      { id: 'map', tasks: 3, demand: { cpu: 2, ram: 6 }, durationSeconds: HOUR },
      { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 4, ram: 8 }, durationSeconds: HOUR },
    ],
  },
  { id: 'train', stages: [{ id: 'fit', tasks: 2 + (i % 2), demand: { cpu: 3, ram: 10 }, durationSeconds: 2 * HOUR }] },
];

interface Attempt {
  api: number;
  solveId: string;
  planId: string;
  status: number;
}
interface Outcome {
  customer: number;
  attempts: Attempt[];
  committed?: Attempt;
}

describe('twenty customers committing on one cluster through two API processes never overbook it', () => {
  let svc: Service;
  let child: ExtraApi;
  let clusterId: string;
  let forecast: ForecastLine;
  let customers: { key: string; batchId: string }[];
  let apis: ((key: string) => FallowClient)[];
  const outcomes: Outcome[] = [];

  before(async () => {
    svc = await startService();
    child = await svc.startApi();
    apis = [(key) => svc.client(key), (key) => child.client(key)];
    // Two solves at a time per worker: with twenty customers queueing, one at a time made the run much longer.
    svc.startWorker({ FALLOW_WORKER_CONCURRENCY: '2' });
    svc.startWorker({ FALLOW_WORKER_CONCURRENCY: '2' });
    const farmer = (await svc.tenant('farm', ['farmer'])).keys.farmer;
    const cluster = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'shared', metrics: ['cpu', 'ram'], nodes: NODES, lendable: true } });
    assert.ok(cluster.data, JSON.stringify(cluster.error));
    clusterId = cluster.data.id;
    const f = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: HOUR, slots: SLOTS, startsAt: T0, usage: USAGE },
    });
    assert.ok(f.data, JSON.stringify(f.error));
    forecast = { startsAt: f.data.startsAt, slotSeconds: f.data.slotSeconds, usage: f.data.usage };
    customers = await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, i) => {
        const key = (await svc.tenant(`shop-${i}`, ['customer'])).keys.customer;
        const b = await apis[i % 2](key).POST('/v1/batches', { body: { name: `b${i}`, jobs: batchOf(i) } });
        assert.ok(b.data, JSON.stringify(b.error));
        return { key, batchId: b.data.id };
      }),
    );
  });
  after(async () => svc?.close());

  /** Solves the customer's batch on the cluster (through API `api`) and waits for its plan. */
  async function solve(api: number, i: number): Promise<{ solveId: string; planId: string }> {
    const { key, batchId } = customers[i];
    const client = apis[api](key);
    // Starts in three different forecast slots: windows of 6, 5 and 4 slots on one time line.
    const r = await client.POST('/v1/solves', { body: { clusterId, batchId, startsAt: at(0.5 + (i % 3)), strategy: 'rffd', timeBudgetMs: 100, safetyMargin: MARGIN } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const id = r.data!.id;
    const done = await waitFor(
      `solve ${id}`,
      async () => {
        const s = (await client.GET('/v1/solves/{id}', { params: { path: { id } } })).data!;
        return s.status === 'queued' || s.status === 'running' ? undefined : s;
      },
      60000,
      500, // twenty customers poll: every 500 ms keeps the two APIs from spending the machine on answering them
    );
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    return { solveId: id, planId: done.planId! };
  }

  /** One customer: solve, commit; on a 409 solve again around what is now held and retry. */
  async function customer(i: number): Promise<Outcome> {
    const out: Outcome = { customer: i, attempts: [] };
    for (let n = 0; n < ATTEMPTS && !out.committed; n++) {
      const api = (i + n) % 2; // alternate the API processes, between customers and between one customer's attempts
      const { solveId, planId } = await solve(api, i);
      const c = await apis[api](customers[i].key).POST('/v1/plans/{id}/commit', { params: { path: { id: planId } } });
      assert.ok(c.response.status === 200 || c.response.status === 409, `commit of ${planId}: ${c.response.status} ${JSON.stringify(c.error)}`);
      if (c.response.status === 409) assert.ok((c.error as { conflicts?: unknown[] }).conflicts?.length, JSON.stringify(c.error));
      const attempt = { api, solveId, planId, status: c.response.status };
      out.attempts.push(attempt);
      if (c.response.status === 200) out.committed = attempt;
    }
    return out;
  }

  const planOf = async (key: string, id: string) => {
    const r = await svc.client(key).GET('/v1/plans/{id}', { params: { path: { id } } });
    assert.ok(r.data, JSON.stringify(r.error));
    return r.data;
  };
  const instanceOf = async (key: string, id: string) => {
    const r = await svc.client(key).GET('/v1/solves/{id}/instance', { params: { path: { id } } });
    assert.ok(r.data, JSON.stringify(r.error));
    return r.data as unknown as InstanceDoc;
  };
  async function placed(i: number, a: Attempt): Promise<PlacedPlan & { scheduledTasks: number }> {
    const [plan, instance] = await Promise.all([planOf(customers[i].key, a.planId), instanceOf(customers[i].key, a.solveId)]);
    return { window: plan.window, plan: plan as unknown as PlanDoc, instance, scheduledTasks: plan.objective.scheduledTasks };
  }

  it('all twenty solve and commit at once; commits race (409s) and several succeed', async () => {
    outcomes.push(...(await Promise.all(Array.from({ length: CUSTOMERS }, (_, i) => customer(i)))));
    const all = outcomes.flatMap((o) => o.attempts);
    const refused = all.filter((a) => a.status === 409);
    const committed = outcomes.filter((o) => o.committed);
    console.log(
      `${all.length} solves and commits: ${committed.length} customers committed, ${refused.length} commits refused (409), ` +
        `${outcomes.filter((o) => !o.committed).length} gave up after ${ATTEMPTS}; ` +
        `per API process [in-process, child]: ${[0, 1].map((api) => `${all.filter((a) => a.api === api && a.status === 200).length} committed / ${all.filter((a) => a.api === api && a.status === 409).length} refused`).join(', ')}`,
    );
    assert.ok(refused.length > 0, 'no commit met a 409: the batches did not compete for capacity');
    assert.ok(committed.length >= 5, `only ${committed.length} customers committed`);
    for (const api of [0, 1]) assert.ok(all.some((a) => a.api === api), `API process ${api} answered no commit`);
    // Refused plans changed nothing: they are still proposed and hold nothing.
    const ids = refused.map((a) => a.planId);
    const rows = await svc.sql<{ status: string; holds: number }>(
      'SELECT p.status, (SELECT count(*)::int FROM plan_holds h WHERE h.plan_id = p.id) AS holds FROM plans p WHERE p.id = ANY($1::uuid[])',
      [ids],
    );
    assert.equal(rows.length, ids.length);
    assert.ok(rows.every((r) => r.status === 'proposed' && r.holds === 0), JSON.stringify(rows));
  });

  it('every committed plan, laid on one time line, is feasible for the evaluator and check-plan.py', async () => {
    const committed = outcomes.filter((o) => o.committed);
    assert.ok(committed.length > 0, 'the first case committed nothing');
    const plans = await Promise.all(committed.map((o) => placed(o.customer, o.committed!)));
    const withTasks = plans.filter((p) => p.scheduledTasks > 0).length;
    assert.ok(withTasks >= 3, `only ${withTasks} committed plans run any task`);
    const line = layOnTimeline(plans, forecast);
    assert.ok(line.offsets.every(Number.isInteger), JSON.stringify(line.offsets));
    assert.ok(new Set(line.offsets).size > 1, `every plan has the same window start: ${JSON.stringify(line.offsets)}`);
    assert.equal(line.plan.objective.scheduledTasks, plans.reduce((s, p) => s + p.scheduledTasks, 0), 'a committed task went missing on the time line');

    const e = evaluatePlan(loadInstance(line.instance), line.plan);
    assert.ok(e.feasible, `the committed plans overbook the cluster:\n${e.violations.slice(0, 10).join('\n')}`);
    assert.ok(e.ok, e.violations.join('\n'));
    if (!checkerAvailable()) return console.log(SKIP_MESSAGE);
    const [c] = checkPlans([{ instance: line.instance, plan: line.plan }]);
    assert.equal(c.exception, undefined, c.exception);
    assert.ok(c.feasible, `check-plan.py: ${c.errors.join('\n')}`);
    assert.equal(c.scheduledTasks, line.plan.objective.scheduledTasks);
  });

  it('what plan_holds holds, summed per node and instant in SQL, stays within what the forecast leaves free', async () => {
    const committedIds = outcomes.filter((o) => o.committed).map((o) => o.committed!.planId);
    const holders = await svc.sql<{ plan_id: string; n: number }>('SELECT plan_id, count(*)::int AS n FROM plan_holds WHERE cluster_id = $1 GROUP BY plan_id', [clusterId]);
    const committedRows = await svc.sql<{ id: string; n: number }>(
      "SELECT id, jsonb_array_length(document->'assignments')::int AS n FROM plans WHERE cluster_id = $1 AND status = 'committed'",
      [clusterId],
    );
    assert.deepEqual(committedRows.map((r) => r.id).sort(), [...committedIds].sort(), 'the committed plans are not the ones whose commit answered 200');
    // Every committed task holds its node; plans that run nothing hold nothing.
    assert.deepEqual(
      holders.map((h) => [h.plan_id, h.n]).sort(),
      committedRows.filter((r) => r.n > 0).map((r) => [r.id, r.n]).sort(),
    );
    // The most held on a node is reached when some task starts: sum every hold running at each start.
    const peaks = await svc.sql<{ node: string; at: Date; cpu: number; ram: number; tasks: number }>(
      `WITH h AS (SELECT node, from_at, to_at, demand FROM plan_holds WHERE cluster_id = $1),
            starts AS (SELECT DISTINCT node, from_at AS at FROM h)
       SELECT s.node, s.at,
              sum(coalesce((h.demand->>'cpu')::float8, 0)) AS cpu,
              sum(coalesce((h.demand->>'ram')::float8, 0)) AS ram,
              count(*)::int AS tasks
         FROM starts s JOIN h ON h.node = s.node AND h.from_at <= s.at AND s.at < h.to_at
        GROUP BY s.node, s.at`,
      [clusterId],
    );
    assert.ok(peaks.length > 0);
    const over: string[] = [];
    for (const p of peaks) {
      const node = NODES.find((n) => n.id === p.node)!;
      const slot = Math.floor((p.at.getTime() - Date.parse(T0)) / (HOUR * 1000));
      assert.ok(slot >= 0 && slot < SLOTS, `a hold starts at ${p.at.toISOString()}, outside the forecast`);
      for (const m of ['cpu', 'ram'] as const) {
        const free = node.capacity[m] * Math.max(0, 1 - USAGE[node.id as keyof typeof USAGE][m][slot] - MARGIN);
        if (p[m] > free + 1e-9) over.push(`${p.node} ${m} at ${p.at.toISOString()}: ${p[m]} held, ${free} free`);
      }
      if (node.maxTasks !== undefined && p.tasks > node.maxTasks) over.push(`${p.node} tasks at ${p.at.toISOString()}: ${p.tasks} > ${node.maxTasks}`);
    }
    assert.deepEqual(over, []);
  });

  it('negative control: each plan refused with a 409, laid on the line with the committed plans, is infeasible', async () => {
    const committed = await Promise.all(outcomes.filter((o) => o.committed).map((o) => placed(o.customer, o.committed!)));
    const refused = await Promise.all(outcomes.flatMap((o) => o.attempts.filter((a) => a.status === 409).map((a) => placed(o.customer, a))));
    assert.ok(refused.length > 0);
    // Nothing was released, so what refused each of them is still held: each must overbook the merged line.
    const lines = refused.map((r) => layOnTimeline([...committed, r], forecast));
    lines.forEach((line, n) => {
      const e = evaluatePlan(loadInstance(line.instance), line.plan);
      assert.equal(e.feasible, false, `refused plan ${n} fits beside every committed plan: its 409 was spurious`);
      assert.ok(e.overloads.length > 0, e.violations.join('\n'));
    });
    if (!checkerAvailable()) return console.log(SKIP_MESSAGE);
    const verdicts = checkPlans(lines.map((l) => ({ instance: l.instance, plan: l.plan })));
    verdicts.forEach((c, n) => {
      assert.equal(c.exception, undefined, c.exception);
      assert.equal(c.feasible, false, `check-plan.py finds refused plan ${n} beside every committed plan feasible`);
    });
  });
});
