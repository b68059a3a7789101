/**
 * Re-planning a running plan (issue 39): POST /v1/plans/{id}/replan answers 202 with a solve of kind replan
 * that runs as any solve and ends with a new plan superseding the old (both kept, versions linked); the tasks the
 * farmer's execution events say started stay where they ran, a killed one is planned again from now; the new
 * plan passes the engine's evaluator on the instance it was made for; the diff lists what moved. Only the plan's
 * customer (or an operator) may re-plan it, and a now outside the window is a 422. Real Postgres, Redis and a
 * worker process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import type { AssignmentDoc, InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { Service, startService, waitFor } from '../../harness/service';
import { problem } from '../support/problem';

type Json = any;

const HOUR = 3600;
/** The window starts at the current hour: its tasks are never too late to commit while the test runs, and slot 1 is an hour on. */
const T0 = Math.floor(Date.now() / (HOUR * 1000)) * HOUR * 1000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

const NODES = [
  { id: 'n1', capacity: { cpu: 4 } },
  { id: 'n2', capacity: { cpu: 4 } },
];
/** Four 2-core maps fill both nodes for an hour; one reduce after them. */
const JOBS = [
  {
    id: 'etl',
    deadlineSlot: 5,
    revenue: { onTime: 10, late: 2 },
    stages: [
      { id: 'map', tasks: 4, demand: { cpu: 2 }, durationSeconds: HOUR },
      { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1 }, durationSeconds: HOUR },
    ],
  },
];

const key = (a: Pick<AssignmentDoc, 'job' | 'stage' | 'task'>) => `${a.job}/${a.stage}/${a.task}`;

describe('re-planning a running plan', () => {
  let svc: Service;
  let farmer: string;
  let customer: string;
  let other: string;
  let clusterId: string;
  let batchId: string;
  let first: { solveId: string; plan: Json };

  before(async () => {
    svc = await startService();
    svc.startWorker();
    farmer = (await svc.tenant('farm', ['farmer'])).keys.farmer;
    customer = (await svc.tenant('shop', ['customer'])).keys.customer;
    other = (await svc.tenant('other-shop', ['customer'])).keys.customer;
    const cluster = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'running', metrics: ['cpu'], nodes: NODES, lendable: true } });
    assert.ok(cluster.data, JSON.stringify(cluster.error));
    clusterId = cluster.data.id;
    const f = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: HOUR, slots: 6, startsAt: at(0), usage: { n1: { cpu: Array(6).fill(0) }, n2: { cpu: Array(6).fill(0) } } },
    });
    assert.ok(f.data, JSON.stringify(f.error));
    batchId = (await svc.client(customer).POST('/v1/batches', { body: { name: 'etl', jobs: JOBS as never } })).data!.id;
    const r = await svc.client(customer).POST('/v1/solves', { body: { clusterId, batchId, startsAt: at(0), strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const solve = await ended(customer, r.data!.id);
    assert.equal(solve.status, 'succeeded', JSON.stringify(solve));
    first = { solveId: solve.id, plan: (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: solve.planId } } })).data };
  });
  after(async () => svc?.close());

  async function ended(k: string, id: string): Promise<Json> {
    return waitFor(`solve ${id} to end`, async () => {
      const s = (await svc.client(k).GET('/v1/solves/{id}', { params: { path: { id } } })).data!;
      return ['succeeded', 'failed', 'cancelled'].includes(s.status) ? s : undefined;
    }, 90_000);
  }
  const replan = (k: string, id: string, body: Json) => svc.client(k).POST('/v1/plans/{id}/replan', { params: { path: { id } }, body });

  let replanned: { solve: Json; plan: Json; instance: InstanceDoc };
  let killed: string;
  let started: AssignmentDoc[];

  it('202 and a solve of kind replan that ends with a plan superseding the old one; both are kept', async () => {
    // The farmer reports the maps planned at slot 0 as started where planned, and one of them killed.
    started = (first.plan.assignments as AssignmentDoc[]).filter((a) => a.start === 0);
    assert.ok(started.length >= 2, JSON.stringify(first.plan.assignments));
    killed = key(started[0]);
    const events = [
      ...started.map((a, i) => ({ id: `s${i}`, solveId: first.solveId, job: a.job, stage: a.stage, task: a.task, node: a.node, type: 'started', at: at(5) })),
      { id: 'k0', solveId: first.solveId, job: started[0].job, stage: started[0].stage, task: started[0].task, node: started[0].node, type: 'killed', at: at(30) },
    ];
    const posted = await svc.client(farmer).POST('/v1/executions/events', { body: { events } as never });
    assert.equal(posted.response.status, 200, JSON.stringify(posted.error));

    const r = await replan(customer, first.plan.id, { nowSlot: 1, strategy: 'rffd', timeBudgetMs: 300 });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    assert.equal(r.response.headers.get('location'), `/v1/solves/${r.data!.id}`);
    assert.equal(r.data!.kind, 'replan');
    assert.equal(r.data!.strategy, 'rffd');
    assert.equal(r.data!.clusterId, clusterId);
    assert.equal(r.data!.batchId, batchId);
    const record = r.data!.replan!;
    assert.equal(record.planId, first.plan.id);
    assert.equal(record.nowSlot, 1);
    assert.equal(record.at, at(60));
    assert.equal(record.requestedBy, 'customer');
    assert.deepEqual(record.frozen, { explicit: 0, running: started.length - 1, finished: 0, assumed: 0 });
    assert.equal(record.rerun.killed, 1);
    assert.deepEqual(record.rerun.tasks.map((t) => `${key(t)} ${t.reason}`), [`${killed} killed`]);
    assert.equal(record.commitment, null);

    const solve = await ended(customer, r.data!.id);
    assert.equal(solve.status, 'succeeded', JSON.stringify(solve));
    assert.equal(solve.progress.phase, 'done');
    const plan = (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: solve.planId } } })).data!;
    assert.equal(plan.supersedes, first.plan.id);
    assert.equal(plan.supersededBy, null);
    assert.equal(plan.version, 2);
    assert.equal(plan.status, 'proposed');
    assert.deepEqual(plan.window, first.plan.window);
    const old = (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: first.plan.id } } })).data!;
    assert.equal(old.supersededBy, plan.id);
    assert.equal(old.version, 1);
    assert.equal(old.status, 'proposed');
    assert.deepEqual(old.assignments, first.plan.assignments, 'the old plan is kept as it was');
    const instance = (await svc.client(customer).GET('/v1/solves/{id}/instance', { params: { path: { id: solve.id } } })).data as unknown as InstanceDoc & { frozen: { nowSlot: number; assignments: AssignmentDoc[] } };
    replanned = { solve, plan, instance };
  });

  it("the instance freezes the started tasks where they ran; the new plan keeps them and plans the killed one from now", () => {
    const { instance, plan } = replanned;
    const frozen = (instance as Json).frozen as { nowSlot: number; assignments: AssignmentDoc[] };
    assert.equal(frozen.nowSlot, 1);
    const expected = started.filter((a) => key(a) !== killed).map((a) => ({ job: a.job, stage: a.stage, task: a.task, node: a.node, start: 0 }));
    assert.deepEqual(frozen.assignments.map((a) => ({ job: a.job, stage: a.stage, task: a.task, node: a.node, start: a.start })), expected);
    const byTask = new Map((plan.assignments as AssignmentDoc[]).map((a) => [key(a), a]));
    for (const a of expected) {
      const now = byTask.get(key(a));
      assert.ok(now, `frozen task ${key(a)} is in the new plan`);
      assert.deepEqual({ node: now.node, start: now.start }, { node: a.node, start: 0 }, `frozen task ${key(a)} unchanged`);
    }
    for (const a of plan.assignments as AssignmentDoc[]) if (!expected.some((e) => key(e) === key(a))) assert.ok(a.start >= 1, `${key(a)} starts at ${a.start}, before nowSlot 1`);
    assert.ok(byTask.get(killed), 'the killed task is planned again');
  });

  it("the new plan passes the engine's evaluator on the instance it was made for (frozen tasks, nowSlot)", () => {
    const e = evaluatePlan(loadInstance(replanned.instance), replanned.plan as PlanDoc);
    assert.deepEqual(e.violations, []);
    assert.ok(e.feasible);
    const stats = (replanned.plan.stats as Json).replan;
    assert.equal(stats?.nowSlot, 1, JSON.stringify(replanned.plan.stats));
    assert.equal(stats.frozenTasks, started.length - 1);
    assert.equal(stats.previous, true, 'the engine had the old plan as a hint');
  });

  it('the diff against the old plan lists every task of both as moved or kept, and the job ends', async () => {
    const r = await svc.client(customer).GET('/v1/plans/{id}/diff', { params: { path: { id: replanned.plan.id }, query: { against: first.plan.id } } });
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    const d = r.data!;
    assert.equal(d.planId, replanned.plan.id);
    assert.equal(d.against, first.plan.id);
    assert.equal(d.offsetSlots, 0);
    const before = new Map((first.plan.assignments as AssignmentDoc[]).map((a) => [key(a), a]));
    const moved = (replanned.plan.assignments as AssignmentDoc[]).filter((a) => {
      const b = before.get(key(a))!;
      return b.node !== a.node || b.start !== a.start;
    });
    assert.deepEqual(d.moved.map(key).sort(), moved.map(key).sort());
    assert.ok(d.moved.some((m) => key(m) === killed), 'the killed map moved');
    assert.equal(d.counts.kept + d.counts.moved, 5);
    assert.deepEqual([d.counts.added, d.counts.dropped], [0, 0]);
    assert.equal(d.makespan.before, first.plan.objective.makespanSlots);
    assert.equal(d.makespan.after, replanned.plan.objective.makespanSlots);
    assert.ok(d.revenue, 'the job has a revenue function');
  });

  it('the re-plan is followed as any solve: its event stream ends with its plan', async () => {
    const r = await fetch(`${svc.baseUrl}/v1/solves/${replanned.solve.id}/events`, { headers: { Authorization: `Bearer ${customer}` } });
    assert.equal(r.status, 200);
    const text = await r.text();
    const solve = JSON.parse(/event: solve\ndata: (.*)/.exec(text)![1]);
    assert.deepEqual([solve.kind, solve.replan.planId], ['replan', first.plan.id]);
    assert.deepEqual(JSON.parse(/event: end\ndata: (.*)/.exec(text)![1]), { id: replanned.solve.id, status: 'succeeded', planId: replanned.plan.id });
  });

  it('a superseded plan is not re-planned again (409), its newest version is', async () => {
    const r = await replan(customer, first.plan.id, { nowSlot: 1 });
    const body = problem(r, 409);
    assert.match(body.detail!, new RegExp(`superseded by plan ${replanned.plan.id}`));
  });

  it("another customer gets 404 for the plan, its re-plan and its diff; a farmer's key may not re-plan (403)", async () => {
    problem(await replan(other, replanned.plan.id, { nowSlot: 1 }), 404);
    problem(await svc.client(other).GET('/v1/plans/{id}/diff', { params: { path: { id: replanned.plan.id }, query: { against: first.plan.id } } }), 404);
    problem(await svc.client(other).GET('/v1/solves/{id}', { params: { path: { id: replanned.solve.id } } }), 404);
    problem(await replan(farmer, replanned.plan.id, { nowSlot: 1 }), 403);
    // Against a plan the caller cannot see: a 422 naming query:against, as for one that does not exist.
    const mine = await svc.client(other).POST('/v1/batches', { body: { name: 'x', jobs: JOBS as never } });
    const s = await svc.client(other).POST('/v1/solves', { body: { clusterId, batchId: mine.data!.id, startsAt: at(0), strategy: 'rffd', timeBudgetMs: 200 } });
    const theirs = await ended(other, s.data!.id);
    const d = problem(await svc.client(other).GET('/v1/plans/{id}/diff', { params: { path: { id: theirs.planId }, query: { against: replanned.plan.id } } }), 422);
    assert.deepEqual(d.problems.map((p) => p.path), ['query:against']);
  });

  it('a now outside the window, or both nowSlot and at, is a 422 naming the field, and nothing is queued', async () => {
    const count = async () => Number((await svc.sql<{ n: number }>(`SELECT count(*)::int AS n FROM solves WHERE kind = 'replan'`))[0].n);
    const before = await count();
    const late = problem(await replan(customer, replanned.plan.id, { nowSlot: 6 }), 422);
    assert.deepEqual(late.problems.map((p) => p.path), ['nowSlot']);
    const early = problem(await replan(customer, replanned.plan.id, { at: at(-1) }), 422);
    assert.deepEqual(early.problems.map((p) => p.path), ['at']);
    assert.match(early.problems[0].message, /outside the plan's window/);
    const both = problem(await replan(customer, replanned.plan.id, { nowSlot: 1, at: at(70) }), 422);
    assert.deepEqual(both.problems.map((p) => p.path), ['nowSlot']);
    const bad = problem(await replan(customer, replanned.plan.id, { nowSlot: -1, refresh: 'sometimes', frozen: [{ job: 'etl' }] }), 422);
    assert.deepEqual([...new Set(bad.problems.map((p) => p.path))].sort(), ['frozen[0].node', 'frozen[0].stage', 'frozen[0].start', 'frozen[0].task', 'nowSlot', 'refresh']);
    // The engine's checks of the request's own frozen assignments are named where the request gave them.
    const frozen = problem(await replan(customer, replanned.plan.id, { nowSlot: 1, frozen: [{ job: 'etl', stage: 'map', task: 0, node: 'zz', start: 2 }] }), 422);
    assert.deepEqual(frozen.problems.map((p) => p.path).sort(), ['frozen[0].node', 'frozen[0].start'], JSON.stringify(frozen.problems));
    assert.equal(await count(), before);
  });

  it('an operator may re-plan any plan (requestedBy operator); the answer is the same solve on a retry with the same Idempotency-Key', async () => {
    const op = svc.client(svc.operatorKey);
    const headers = { 'Idempotency-Key': `replan-${replanned.plan.id}` };
    const r = await op.POST('/v1/plans/{id}/replan', { params: { path: { id: replanned.plan.id } }, body: { nowSlot: 2, strategy: 'rffd', timeBudgetMs: 200 }, headers });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    assert.equal(r.data!.replan!.requestedBy, 'operator');
    const again = await op.POST('/v1/plans/{id}/replan', { params: { path: { id: replanned.plan.id } }, body: { nowSlot: 2, strategy: 'rffd', timeBudgetMs: 200 }, headers });
    assert.equal(again.data!.id, r.data!.id);
    const done = await ended(svc.operatorKey, r.data!.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    const plan = (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: done.planId } } })).data!;
    assert.equal(plan.version, 3);
    assert.equal(plan.supersedes, replanned.plan.id);
  });
});
