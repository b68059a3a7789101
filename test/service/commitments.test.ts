/**
 * One cluster, many customers (issue 37): a plan is proposed when its solve ends; committing it makes its
 * tasks hold their capacity; a plan that no longer fits is a 409 naming node, metric, slot and excess, and
 * changes nothing; solves on the cluster plan around what is held (their instance's `reserved`); release
 * gives it back. Real Postgres, Redis and a worker process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InstanceDoc } from '../../src/engine/model/types';
import { problem } from '../support/problem';
import { Service, startService, waitFor } from '../../harness/service';

const HOUR = 3600;
const T0 = '2030-05-01T00:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR * 1000).toISOString();

/** Two nodes of 4 cores; four 2-core one-hour tasks fill the cluster for one slot. */
const NODES = [
  { id: 'n1', capacity: { cpu: 4 }, maxTasks: 2 },
  { id: 'n2', capacity: { cpu: 4 } },
];
const JOBS = [{ id: 'etl', stages: [{ id: 'map', tasks: 4, demand: { cpu: 2 }, durationSeconds: HOUR }] }];

describe('committed plans hold capacity; solves plan around them', () => {
  let svc: Service;
  let farmer: string;
  let a: string;
  let b: string;
  let clusterId: string;
  let batchA: string;
  let batchB: string;

  before(async () => {
    svc = await startService();
    svc.startWorker();
    farmer = (await svc.tenant('farm', ['farmer'])).keys.farmer;
    a = (await svc.tenant('shop-a', ['customer'])).keys.customer;
    b = (await svc.tenant('shop-b', ['customer'])).keys.customer;
    const cluster = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'shared', metrics: ['cpu'], nodes: NODES, lendable: true } });
    assert.ok(cluster.data, JSON.stringify(cluster.error));
    clusterId = cluster.data.id;
    const f = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: HOUR, slots: 4, startsAt: T0, usage: { n1: { cpu: [0, 0, 0, 0] }, n2: { cpu: [0, 0, 0, 0] } } },
    });
    assert.ok(f.data, JSON.stringify(f.error));
    batchA = (await svc.client(a).POST('/v1/batches', { body: { name: 'a', jobs: JOBS } })).data!.id;
    batchB = (await svc.client(b).POST('/v1/batches', { body: { name: 'b', jobs: JOBS } })).data!.id;
  });
  after(async () => svc?.close());

  async function solved(key: string, batchId: string, startsAt = at(0.5)): Promise<{ solveId: string; planId: string }> {
    const r = await svc.client(key).POST('/v1/solves', { body: { clusterId, batchId, startsAt, strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const id = r.data!.id;
    const done = await waitFor(`solve ${id}`, async () => {
      const s = (await svc.client(key).GET('/v1/solves/{id}', { params: { path: { id } } })).data!;
      return s.status === 'queued' || s.status === 'running' ? undefined : s;
    });
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    return { solveId: id, planId: done.planId! };
  }
  const plan = (key: string, id: string) => svc.client(key).GET('/v1/plans/{id}', { params: { path: { id } } });
  const commit = (key: string, id: string) => svc.client(key).POST('/v1/plans/{id}/commit', { params: { path: { id } } });
  const release = (key: string, id: string) => svc.client(key).POST('/v1/plans/{id}/release', { params: { path: { id } } });
  const holds = async (planId: string) => Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM plan_holds WHERE plan_id = $1', [planId]))[0].n);
  const instanceOf = async (key: string, id: string) => (await svc.client(key).GET('/v1/solves/{id}/instance', { params: { path: { id } } })).data as unknown as InstanceDoc;

  let first: { solveId: string; planId: string };
  let rival: { solveId: string; planId: string };

  it('a plan is proposed when its solve ends, with the window it was made for (the forecast slot its start falls in)', async () => {
    first = await solved(a, batchA);
    const p = await plan(a, first.planId);
    assert.equal(p.data!.status, 'proposed');
    assert.deepEqual(p.data!.window, { startsAt: T0, slotSeconds: HOUR, slots: 4 });
    assert.equal(p.data!.clusterId, clusterId);
    assert.equal(p.data!.committedAt, null);
    // Nothing is committed yet, so a second customer is offered the same capacity.
    rival = await solved(b, batchB);
    assert.equal((await instanceOf(b, rival.solveId)).reserved, undefined);
  });

  it('commit holds the plan\'s capacity; committing again changes nothing', async () => {
    const r = await commit(a, first.planId);
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    assert.equal(r.data!.status, 'committed');
    assert.ok(r.data!.committedAt);
    assert.equal(await holds(first.planId), 4);
    const again = await commit(a, first.planId);
    assert.equal(again.data!.status, 'committed');
    assert.equal(await holds(first.planId), 4);
  });

  it('a plan that no longer fits is a 409 naming node, metric, slot and excess, and changes nothing', async () => {
    const r = await commit(b, rival.planId);
    const body = problem(r, 409) as ReturnType<typeof problem> & { conflicts: { node: string; metric: string; slot: number; at: string; demand: number; available: number; excess: number }[] };
    assert.ok(body.conflicts.length > 0, JSON.stringify(body));
    const c = body.conflicts[0];
    assert.ok(['n1', 'n2'].includes(c.node));
    assert.ok(['cpu', 'tasks'].includes(c.metric));
    assert.equal(c.slot, 0);
    assert.equal(c.at, T0);
    assert.ok(c.excess > 0 && c.demand - c.available === c.excess, JSON.stringify(c));
    assert.match(body.problems[0].path, /^nodes\.n[12]\.(cpu|tasks)\[0\]$/);
    assert.equal((await plan(b, rival.planId)).data!.status, 'proposed');
    assert.equal(await holds(rival.planId), 0);
  });

  it('a later solve plans around the commitment (its instance shows it as reserved) and its plan commits', async () => {
    const later = await solved(b, batchB);
    const inst = await instanceOf(b, later.solveId);
    assert.deepEqual(inst.reserved, { n1: { cpu: [4, 0, 0, 0], tasks: [2, 0, 0, 0] }, n2: { cpu: [4, 0, 0, 0] } });
    const p = (await plan(b, later.planId)).data!;
    assert.ok(p.assignments.every((x) => x.start >= 1), JSON.stringify(p.assignments));
    const r = await commit(b, later.planId);
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    rival = later;
  });

  it('only its customer or an operator commits or releases a plan; the farmer may not', async () => {
    assert.equal((await commit(b, first.planId)).response.status, 404);
    assert.equal((await release(b, first.planId)).response.status, 404);
    assert.equal((await commit(farmer, first.planId)).response.status, 403);
  });

  it('release gives the capacity back; a released plan cannot be committed again, a proposed one cannot be released', async () => {
    const r = await release(a, first.planId);
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    assert.equal(r.data!.status, 'released');
    assert.ok(r.data!.releasedAt);
    assert.equal(await holds(first.planId), 0);
    assert.equal((await release(a, first.planId)).data!.status, 'released');
    assert.match(problem(await commit(a, first.planId), 409).detail!, /released/);
    const proposal = await solved(a, batchA);
    assert.match(problem(await release(a, proposal.planId), 409).detail!, /proposed/);
    // With A's plan released, only B's committed plan (slot 1) is reserved for the next solve.
    assert.deepEqual((await instanceOf(a, proposal.solveId)).reserved, { n1: { cpu: [0, 4, 0, 0], tasks: [0, 2, 0, 0] }, n2: { cpu: [0, 4, 0, 0] } });
    const op = await commit(svc.operatorKey, proposal.planId);
    assert.equal(op.data!.status, 'committed', JSON.stringify(op.error));
  });

  it('a plan made on an older cluster version commits only if it fits the current one', async () => {
    const proposal = await solved(a, batchA, at(2.2));
    const shrunk = await svc.client(farmer).PUT('/v1/clusters/{id}', { params: { path: { id: clusterId } }, body: { metrics: ['cpu'], nodes: [NODES[0], { id: 'n2', capacity: { cpu: 1 } }] } });
    assert.ok(shrunk.data, JSON.stringify(shrunk.error));
    // The forecast is of version 1 and none of version 2 covers the plan: nothing current can check it.
    assert.match(problem(await commit(a, proposal.planId), 409).detail!, /no forecast of cluster .* version 2/);
    const f2 = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: HOUR, slots: 4, startsAt: T0, usage: { n1: { cpu: [0, 0, 0, 0] }, n2: { cpu: [0, 0, 0, 0] } } },
    });
    assert.ok(f2.data, JSON.stringify(f2.error));
    const body = problem(await commit(a, proposal.planId), 409) as ReturnType<typeof problem> & { conflicts: { node: string }[] };
    assert.ok(body.conflicts.some((c) => c.node === 'n2'), JSON.stringify(body.conflicts));
    assert.equal((await plan(a, proposal.planId)).data!.status, 'proposed');
  });

  it('a horizon past the limits or malformed is a 422 before any reservation is laid over it', async () => {
    for (const horizon of [{ slots: 1e9, slotSeconds: 60 }, { slots: 2.5, slotSeconds: HOUR }, { slots: 3, slotSeconds: 'soon' }]) {
      const r = await svc.client(a).POST('/v1/solves', { body: { clusterId, batchId: batchA, startsAt: at(0.5), horizon, strategy: 'rffd', timeBudgetMs: 300 } as never });
      const body = problem(r, 422);
      assert.ok(body.problems.some((p) => p.path.startsWith('horizon')), JSON.stringify(body));
    }
  });

  it('a plan of a whole (inline) instance commits without holding anything on a cluster', async () => {
    const instance = { format: 'fallow.instance/v1', name: 'inline', horizon: { slots: 3, slotSeconds: HOUR }, metrics: ['cpu'], nodes: NODES, jobs: JOBS };
    const r = await svc.client(a).POST('/v1/solves', { body: { instance: instance as never, startsAt: at(1), strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const done = await waitFor('inline solve', async () => {
      const s = (await svc.client(a).GET('/v1/solves/{id}', { params: { path: { id: r.data!.id } } })).data!;
      return s.planId ? s : undefined;
    });
    const c = await commit(a, done.planId!);
    assert.equal(c.data!.status, 'committed', JSON.stringify(c.error));
    assert.equal(c.data!.clusterId, null);
    assert.equal(await holds(done.planId!), 0);
  });
});
