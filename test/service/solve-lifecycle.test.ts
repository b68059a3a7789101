/**
 * The solve lifecycle against real Postgres, Redis and worker processes: an inline instance solved within
 * its budget, a worker killed mid-solve (the solve is retried and ends with one plan), and cancellation
 * (a running solve keeps its best plan; a queued one ends without).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { checkerAvailable, checkPlan, SKIP_MESSAGE } from '../support/check-plan';
import { ephemeralInstance, largeMapReduce } from '../../harness/ephemeral-instance';
import { rcpspInstance } from '../support/rcpsp-instance';
import { Service, startService, stopChild, waitFor } from '../../harness/service';

describe('solve lifecycle', () => {
  let svc: Service;
  let customer: string;

  before(async () => {
    svc = await startService();
    customer = (await svc.tenant('acme', ['customer'])).keys.customer;
  });
  after(async () => svc?.close());

  const getSolve = async (id: string) => {
    const r = await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id } } });
    assert.ok(r.data, JSON.stringify(r.error));
    return r.data;
  };
  const terminal = (id: string, timeoutMs = 60000) =>
    waitFor(`solve ${id} to end`, async () => {
      const s = await getSolve(id);
      return ['succeeded', 'failed', 'cancelled'].includes(s.status) ? s : undefined;
    }, timeoutMs);
  const submit = async (instance: InstanceDoc, strategy: 'ls' | 'rffd' | 'exact' | 'auto', timeBudgetMs: number) => {
    const r = await svc.client(customer).POST('/v1/solves', { body: { instance: instance as never, strategy, timeBudgetMs } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const location = r.response.headers.get('location');
    assert.equal(location, `/v1/solves/${r.data!.id}`);
    return r.data!;
  };
  const checkStoredPlan = async (instance: InstanceDoc, planId: string) => {
    const r = await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: planId } } });
    assert.ok(r.data, JSON.stringify(r.error));
    const plan = r.data;
    assert.equal(plan.format, 'fallow.plan/v1');
    const evaluation = evaluatePlan(loadInstance(instance), plan);
    assert.ok(evaluation.ok, evaluation.violations.join('; '));
    if (checkerAvailable()) assert.ok(checkPlan(instance, plan).feasible, 'check-plan.py rejects the stored plan');
    const rows = await svc.sql<{ n: string }>('SELECT count(*) AS n FROM plan_assignments WHERE plan_id = $1', [planId]);
    assert.equal(Number(rows[0].n), plan.assignments.length);
    return plan;
  };

  it('solves an inline instance on a worker and stores a feasible plan', async (t) => {
    if (!checkerAvailable()) t.diagnostic(SKIP_MESSAGE);
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const instance = ephemeralInstance({ nodes: 4, jobs: 3, seed: 7 });
    const created = await submit(instance, 'ls', 1500);
    assert.equal(created.status, 'queued');
    const done = await terminal(created.id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.ok(done.planId);
    assert.ok(done.progress && done.progress.scheduledTasks > 0);
    const plan = await checkStoredPlan(instance, done.planId);
    assert.equal(plan.solveId, created.id);
    assert.equal(plan.rejections.length, plan.rejected.length);
    const page = await svc.client(customer).GET('/v1/plans/{id}/assignments', { params: { path: { id: done.planId }, query: { node: 'h01', limit: 2 } } });
    assert.ok(page.data);
    assert.ok(page.data.items.every((a) => a.node === 'h01'));
  });

  it('runs exact with its SAT stage (a Z3 thread inside the worker process) and stores the proven optimum', async (t) => {
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    // An RCPSP-shaped instance (one node, one task per stage) that propagation alone does not settle.
    const instance = rcpspInstance(31, 3);
    // exact returns at its proof: the budget is only a backstop, so that a busy machine still gets the proof.
    const created = await submit(instance, 'exact', 60_000);
    const done = await terminal(created.id, 120_000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const plan = await checkStoredPlan(instance, done.planId!);
    assert.equal(plan.optimal, true);
    const sat = (plan.stats as { sat?: { status: string; refuted: number } }).sat;
    assert.equal(sat?.status, 'unsat', JSON.stringify(plan.stats));
    assert.equal(sat.refuted, plan.objective.makespanSlots - 1);
  });

  it('runs auto on a large instance as two ls streams, one on a thread inside the solve thread', async (t) => {
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const instance = largeMapReduce();
    const created = await submit(instance, 'auto', 3000);
    const done = await terminal(created.id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const plan = await checkStoredPlan(instance, done.planId!);
    const streams = (plan.stats as { streams?: { main: { tasks: number }; thread: { tasks: number } | string } }).streams;
    assert.equal(typeof streams?.thread, 'object', JSON.stringify(plan.stats));
    assert.ok(['ls', 'ls (thread)'].includes(plan.stats?.chosen as string));
  });

  it('retries a solve whose worker was killed, ending with exactly one plan', async (t) => {
    const first = svc.startWorker();
    t.after(() => stopChild(first));
    // Overloaded (16 slots: 371 of 434 tasks fit), so ls runs to its budget and the kill lands mid-solve;
    // without the 16 slots every task fits and ls meets the bound in ~30 ms, racing the kill.
    const instance = ephemeralInstance({ nodes: 3, jobs: 16, maxMaps: 40, slots: 16, seed: 5 });
    const created = await submit(instance, 'ls', 6000);
    await waitFor('the solve to run', async () => ((await getSolve(created.id)).status === 'running' ? true : undefined));
    first.kill('SIGKILL');
    await stopChild(first);
    const second = svc.startWorker();
    t.after(() => stopChild(second));
    const done = await terminal(created.id, 90000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.ok(done.attempts >= 2, `attempts ${done.attempts}`);
    const plans = await svc.sql<{ n: string }>('SELECT count(*) AS n FROM plans WHERE solve_id = $1', [created.id]);
    assert.equal(Number(plans[0].n), 1);
    await checkStoredPlan(instance, done.planId!);
  });

  it('cancelling a running solve keeps the best plan so far', async (t) => {
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    // Overloaded (16 slots: not every job fits; ls keeps 376 of 385 tasks), so the search cannot prove
    // optimality and stop by itself. (With 96 slots the bounds now prove ls's first plan optimal.)
    const instance = ephemeralInstance({ nodes: 3, jobs: 16, maxMaps: 40, slots: 16, seed: 5 });
    const created = await submit(instance, 'ls', 60000);
    await waitFor('progress', async () => ((await getSolve(created.id)).progress ? true : undefined));
    const del = await svc.client(customer).DELETE('/v1/solves/{id}', { params: { path: { id: created.id } } });
    assert.equal(del.response.status, 202);
    const done = await terminal(created.id, 30000);
    assert.equal(done.status, 'cancelled');
    assert.ok(done.planId, 'a cancelled running solve keeps its best plan');
    const ranMs = Date.parse(done.finishedAt!) - Date.parse(done.startedAt!);
    assert.ok(ranMs < 30000, `stopped after ${ranMs} ms of a 60 s budget`);
    await checkStoredPlan(instance, done.planId);
  });

  it('cancelling a queued solve ends it without a plan, and no worker runs it later', async (t) => {
    const instance = ephemeralInstance({ nodes: 2, jobs: 1, seed: 9 });
    const created = await submit(instance, 'rffd', 500);
    const del = await svc.client(customer).DELETE('/v1/solves/{id}', { params: { path: { id: created.id } } });
    assert.equal(del.data?.status, 'cancelled');
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const later = await submit(instance, 'rffd', 500);
    await terminal(later.id);
    const again = await getSolve(created.id);
    assert.equal(again.status, 'cancelled');
    assert.equal(again.planId, null);
  });
});
