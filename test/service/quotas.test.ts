/**
 * Quotas and fair share (issue 37, point 4): a cluster's farmer (or an operator) sets per-customer quotas,
 * shares of each metric's lendable capacity; solves are capped to them, commits past them are a 409 naming
 * the quota, a customer without one has the cluster's default; a customer that may borrow goes beyond while
 * capacity is idle, and a customer within its quota takes the borrowed capacity back (the borrower's plan is
 * released, saying why). Real Postgres, Redis and a worker process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InstanceDoc } from '../../src/engine/model/types';
import { problem } from '../support/problem';
import { Service, startService, waitFor } from '../../harness/service';

const HOUR = 3600;
const T0 = '2030-06-01T00:00:00.000Z';
/** Two 4-core nodes, idle: 8 cores lendable per slot. */
const NODES = [
  { id: 'n1', capacity: { cpu: 4 } },
  { id: 'n2', capacity: { cpu: 4 } },
];
/** Four 2-core one-hour tasks: 8 cores for one slot, or 4 for two. */
const JOBS = [{ id: 'etl', stages: [{ id: 'map', tasks: 4, demand: { cpu: 2 }, durationSeconds: HOUR }] }];

describe('quotas, fair share and borrowing', () => {
  let svc: Service;
  let farmer: string;
  let otherFarmer: string;
  const customers: Record<string, { id: string; key: string; batch: string }> = {};

  before(async () => {
    svc = await startService();
    svc.startWorker();
    farmer = (await svc.tenant('quota-farm', ['farmer'])).keys.farmer;
    otherFarmer = (await svc.tenant('other-farm', ['farmer'])).keys.farmer;
    for (const name of ['a', 'b', 'c']) {
      const t = await svc.tenant(`quota-${name}`, ['customer']);
      const batch = await svc.client(t.keys.customer).POST('/v1/batches', { body: { name, jobs: JOBS } });
      assert.ok(batch.data, JSON.stringify(batch.error));
      customers[name] = { id: t.id, key: t.keys.customer, batch: batch.data.id };
    }
  });
  after(async () => svc?.close());

  async function cluster(): Promise<string> {
    const c = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'q', metrics: ['cpu'], nodes: NODES, lendable: true } });
    assert.ok(c.data, JSON.stringify(c.error));
    const f = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: c.data.id } }, body: { slotSeconds: HOUR, slots: 6, startsAt: T0, usage: {} } });
    assert.ok(f.data, JSON.stringify(f.error));
    return c.data.id;
  }
  const putQuota = (key: string, clusterId: string, customer: string, body: unknown) =>
    svc.client(key).PUT('/v1/clusters/{id}/quotas/{customer}', { params: { path: { id: clusterId, customer } }, body: body as never });
  async function solved(who: string, clusterId: string, startsAt = T0): Promise<{ solveId: string; planId: string; instance: InstanceDoc }> {
    const c = customers[who];
    const r = await svc.client(c.key).POST('/v1/solves', { body: { clusterId, batchId: c.batch, startsAt, strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const id = r.data!.id;
    const done = await waitFor(`solve ${id}`, async () => {
      const s = (await svc.client(c.key).GET('/v1/solves/{id}', { params: { path: { id } } })).data!;
      return s.status === 'queued' || s.status === 'running' ? undefined : s;
    });
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    const instance = (await svc.client(c.key).GET('/v1/solves/{id}/instance', { params: { path: { id } } })).data as unknown as InstanceDoc;
    return { solveId: id, planId: done.planId!, instance };
  }
  const commit = (who: string, id: string) => svc.client(customers[who].key).POST('/v1/plans/{id}/commit', { params: { path: { id } } });
  const plan = (who: string, id: string) => svc.client(customers[who].key).GET('/v1/plans/{id}', { params: { path: { id } } });
  /** Cores the plan uses per slot, over both nodes. */
  async function coresPerSlot(who: string, planId: string): Promise<number[]> {
    const p = (await plan(who, planId)).data!;
    const out = new Array(6).fill(0);
    for (const a of p.assignments) out[a.start] += 2;
    return out;
  }

  it('names every bad field of a quota at once and writes nothing; only the farmer of the cluster (or an operator) sets one', async () => {
    const id = await cluster();
    const bad = await putQuota(farmer, id, customers.a.id, { shares: { cpu: 1.5, gpu: 0.5 }, borrow: 'yes' });
    assert.deepEqual(problem(bad, 422).problems.map((p) => p.path).sort(), ['borrow', 'shares.cpu', 'shares.gpu'].sort());
    assert.deepEqual((await svc.client(farmer).GET('/v1/clusters/{id}/quotas', { params: { path: { id } } })).data!.items, []);
    assert.deepEqual(problem(await putQuota(farmer, id, 'someone', { shares: { cpu: 0.5 } }), 422).problems.map((p) => p.path), ['customer']);
    assert.equal((await putQuota(farmer, id, '00000000-0000-4000-8000-000000000000', { shares: { cpu: 0.5 } })).response.status, 404);
    assert.equal((await putQuota(customers.a.key, id, customers.a.id, { shares: { cpu: 1 } })).response.status, 403);
    assert.equal((await putQuota(otherFarmer, id, customers.a.id, { shares: { cpu: 1 } })).response.status, 404);
    const op = await putQuota(svc.operatorKey, id, 'default', { shares: { cpu: 0.75 } });
    assert.equal(op.data?.borrow, false, JSON.stringify(op.error));
  });

  it("caps a customer's solve to the cluster's default quota and counts what it holds already", async () => {
    const id = await cluster();
    assert.ok((await putQuota(farmer, id, 'default', { shares: { cpu: 0.5 } })).data);
    const mine = await svc.client(customers.a.key).GET('/v1/clusters/{id}/quotas/{customer}', { params: { path: { id, customer: customers.a.id } } });
    assert.deepEqual({ shares: mine.data!.shares, source: mine.data!.source }, { shares: { cpu: 0.5 }, source: 'default' });
    assert.equal((await svc.client(customers.a.key).GET('/v1/clusters/{id}/quotas/{customer}', { params: { path: { id, customer: customers.b.id } } })).response.status, 404);
    // Half of 8 cores, given as one whole node: 2 tasks at a time, so the four tasks take two slots.
    const first = await solved('a', id);
    assert.deepEqual(first.instance.reserved, { n2: { cpu: [4, 4, 4, 4, 4, 4] } });
    assert.deepEqual(await coresPerSlot('a', first.planId), [4, 4, 0, 0, 0, 0]);
    assert.equal((await commit('a', first.planId)).data?.status, 'committed');
    // What it holds counts against its quota: the next plan of the same customer waits for slots 2 and 3.
    const second = await solved('a', id);
    assert.deepEqual(await coresPerSlot('a', second.planId), [0, 0, 4, 4, 0, 0]);
    assert.equal((await commit('a', second.planId)).data?.status, 'committed');
  });

  it('refuses a commit past the quota with a 409 naming it, and changes nothing', async () => {
    const id = await cluster();
    const before = await solved('b', id); // no quota yet: all four tasks in slot 0
    assert.deepEqual(await coresPerSlot('b', before.planId), [8, 0, 0, 0, 0, 0]);
    assert.ok((await putQuota(farmer, id, customers.b.id, { shares: { cpu: 0.25 } })).data);
    const body = problem(await commit('b', before.planId), 409) as ReturnType<typeof problem> & { quota: { metric: string; slot: number; held: number; adds: number; quota: number }[] };
    assert.deepEqual(body.quota.map(({ metric, slot, held, adds, quota }) => ({ metric, slot, held, adds, quota })), [{ metric: 'cpu', slot: 0, held: 0, adds: 8, quota: 2 }]);
    assert.equal(body.problems[0].path, 'quota.shares.cpu[0]');
    assert.equal((await plan('b', before.planId)).data!.status, 'proposed');
    assert.equal(Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM plan_holds WHERE plan_id = $1', [before.planId]))[0].n), 0);
  });

  it('lets a borrower go beyond its quota on idle capacity, and a customer within its quota takes it back', async () => {
    const id = await cluster();
    assert.ok((await putQuota(farmer, id, customers.c.id, { shares: { cpu: 0.25 }, borrow: true })).data);
    assert.ok((await putQuota(farmer, id, customers.b.id, { shares: { cpu: 0.5 } })).data);
    // C may borrow: its solve is not capped and its commit goes through, marked borrowing.
    const borrowed = await solved('c', id);
    assert.equal(borrowed.instance.reserved, undefined);
    assert.deepEqual(await coresPerSlot('c', borrowed.planId), [8, 0, 0, 0, 0, 0]);
    const c = await commit('c', borrowed.planId);
    assert.equal(c.data?.status, 'committed', JSON.stringify(c.error));
    assert.equal(c.data?.borrowing, true);
    // B keeps to its quota (half): it may plan on what C borrowed (none of C's holds is reserved for it)...
    const within = await solved('b', id);
    assert.deepEqual(within.instance.reserved, { n2: { cpu: [4, 4, 4, 4, 4, 4] } });
    assert.deepEqual(await coresPerSlot('b', within.planId), [4, 4, 0, 0, 0, 0]);
    // ...and its commit takes it back: C's plan is released, saying why.
    const b = await commit('b', within.planId);
    assert.equal(b.data?.status, 'committed', JSON.stringify(b.error));
    assert.equal(b.data?.borrowing, false);
    const taken = (await plan('c', borrowed.planId)).data!;
    assert.equal(taken.status, 'released');
    assert.match(taken.releaseReason!, /taken back by a customer committing within its quota/);
    assert.doesNotMatch(taken.releaseReason!, new RegExp(within.planId), "the borrower does not learn the other customer's plan");
    assert.equal(Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM plan_holds WHERE plan_id = $1', [borrowed.planId]))[0].n), 0);
  });

  it('takes back only the borrowed plans the commit needs', async () => {
    const id = await cluster();
    assert.ok((await putQuota(farmer, id, customers.c.id, { shares: { cpu: 0.25 }, borrow: true })).data);
    assert.ok((await putQuota(farmer, id, customers.b.id, { shares: { cpu: 0.5 } })).data);
    // C borrows the whole cluster twice: in slot 0, then (committed later) in slot 3.
    const early = await solved('c', id);
    assert.equal((await commit('c', early.planId)).data?.borrowing, true);
    const later = await solved('c', id, new Date(Date.parse(T0) + 3 * HOUR * 1000).toISOString());
    assert.equal((await commit('c', later.planId)).data?.borrowing, true);
    // B's plan runs in slots 0 and 1: only the early plan is in its way, though the later one is newer.
    const within = await solved('b', id);
    assert.deepEqual(await coresPerSlot('b', within.planId), [4, 4, 0, 0, 0, 0]);
    assert.equal((await commit('b', within.planId)).data?.status, 'committed');
    assert.equal((await plan('c', early.planId)).data!.status, 'released');
    assert.equal((await plan('c', later.planId)).data!.status, 'committed');
  });

  it('a borrower that fits within its quota is not borrowing, and is not taken back', async () => {
    const id = await cluster();
    assert.ok((await putQuota(farmer, id, customers.c.id, { shares: { cpu: 1 }, borrow: true })).data);
    const own = await solved('c', id);
    const c = await commit('c', own.planId);
    assert.equal(c.data?.borrowing, false, JSON.stringify(c.error));
    const late = await solved('a', id); // no quota: all 8 cores are C's in slot 0, so A goes to slot 1
    assert.deepEqual(await coresPerSlot('a', late.planId), [0, 8, 0, 0, 0, 0]);
    assert.equal((await commit('a', late.planId)).data?.status, 'committed');
    assert.equal((await plan('c', own.planId)).data!.status, 'committed');
  });
});
