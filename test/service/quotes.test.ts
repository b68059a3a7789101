/**
 * Quotes (issue 37, point 5): "if I add this batch (or this one job) to this cluster now, what do I get",
 * planned around the committed plans and within the customer's quota, answered at once, storing nothing
 * and holding nothing; each job that does not fit says why (capacity, deadline, quota).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { Service, startService, waitFor } from '../../harness/service';

const HOUR = 3600;
const T0 = '2030-07-01T00:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR * 1000).toISOString();
const NODES = [
  { id: 'n1', capacity: { cpu: 4 } },
  { id: 'n2', capacity: { cpu: 4 } },
];
const stage = (tasks: number, cpu: number) => ({ id: 'map', tasks, demand: { cpu }, durationSeconds: HOUR });

describe('POST /v1/quotes', () => {
  let svc: Service;
  let farmer: string;
  let a: string;
  let b: { id: string; key: string };
  let clusterId: string;

  before(async () => {
    svc = await startService();
    svc.startWorker();
    farmer = (await svc.tenant('quote-farm', ['farmer'])).keys.farmer;
    a = (await svc.tenant('quote-a', ['customer'])).keys.customer;
    const tb = await svc.tenant('quote-b', ['customer']);
    b = { id: tb.id, key: tb.keys.customer };
    const c = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'q', metrics: ['cpu'], nodes: NODES, lendable: true } });
    clusterId = c.data!.id;
    assert.ok((await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: HOUR, slots: 4, startsAt: T0, usage: {} } })).data);
    // A fills slot 0 with a committed plan: four 2-core tasks.
    const batch = await svc.client(a).POST('/v1/batches', { body: { name: 'a', jobs: [{ id: 'fill', stages: [stage(4, 2)] }] } });
    const s = await svc.client(a).POST('/v1/solves', { body: { clusterId, batchId: batch.data!.id, startsAt: T0, strategy: 'rffd', timeBudgetMs: 300 } });
    const done = await waitFor('solve', async () => {
      const r = (await svc.client(a).GET('/v1/solves/{id}', { params: { path: { id: s.data!.id } } })).data!;
      return r.planId ? r : undefined;
    });
    assert.equal((await svc.client(a).POST('/v1/plans/{id}/commit', { params: { path: { id: done.planId! } } })).data?.status, 'committed');
  });
  after(async () => svc?.close());

  const quote = (key: string, body: Record<string, unknown>) => svc.client(key).POST('/v1/quotes', { body: { clusterId, startsAt: T0, ...body } as never });
  const counts = async () => (await svc.sql<{ plans: number; holds: number; solves: number }>('SELECT (SELECT count(*)::int FROM plans) AS plans, (SELECT count(*)::int FROM plan_holds) AS holds, (SELECT count(*)::int FROM solves) AS solves'))[0];

  it('plans around committed plans and says why each job that does not fit is out, storing and holding nothing', async () => {
    const before = await counts();
    const r = await quote(b.key, {
      jobs: [
        { id: 'ok', revenue: { onTime: 10 }, stages: [stage(4, 2)] },
        { id: 'urgent', deadlineSlot: 1, revenue: { onTime: 5, late: 1 }, stages: [stage(1, 2)] },
        { id: 'huge', stages: [stage(1, 8)] },
      ],
    });
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    const q = r.data!;
    assert.deepEqual(q.window, { startsAt: T0, slotSeconds: HOUR, slots: 4 });
    const byId = Object.fromEntries(q.jobs.map((j) => [j.id, j]));
    // Slot 0 is A's: "ok" starts in slot 1 at the earliest.
    assert.deepEqual([byId.ok.accepted, byId.ok.fits, byId.ok.revenue, byId.ok.reason], [true, true, 10, null]);
    assert.ok(byId.ok.endSlot! >= 2, JSON.stringify(byId.ok));
    assert.equal(byId.ok.plannedEnd, at(byId.ok.endSlot!));
    assert.equal(byId.urgent.fits, false);
    assert.equal(byId.urgent.reason, 'deadline', JSON.stringify(byId.urgent));
    assert.deepEqual([byId.huge.accepted, byId.huge.reason], [false, 'capacity']);
    assert.match(byId.huge.detail!, /cpu/);
    assert.equal(q.revenue, q.jobs.filter((j) => j.accepted).reduce((s, j) => s + j.revenue, 0));
    assert.deepEqual(await counts(), before);
  });

  it("names the quota when a job fits the cluster but not the customer's quota", async () => {
    assert.ok((await svc.client(farmer).PUT('/v1/clusters/{id}/quotas/{customer}', { params: { path: { id: clusterId, customer: b.id } }, body: { shares: { cpu: 0.25 } } })).data);
    // A quarter of 8 cores: one 2-core task per slot, and only slots 1-3 are free: four tasks do not fit.
    const r = await quote(b.key, { jobs: [{ id: 'four', stages: [stage(4, 2)] }, { id: 'one', stages: [stage(1, 2)] }] });
    const byId = Object.fromEntries(r.data!.jobs.map((j) => [j.id, j]));
    assert.deepEqual([byId.four.accepted, byId.four.reason], [false, 'quota'], JSON.stringify(r.data));
    assert.deepEqual([byId.one.accepted, byId.one.reason], [true, null]);
  });

  it('quotes one of your batches too', async () => {
    const batch = await svc.client(b.key).POST('/v1/batches', { body: { name: 'b', jobs: [{ id: 'x', stages: [stage(1, 1)] }] } });
    const r = await quote(b.key, { batchId: batch.data!.id });
    assert.deepEqual(r.data!.jobs.map((j) => [j.id, j.accepted]), [['x', true]]);
    assert.equal((await quote(a, { batchId: batch.data!.id })).response.status, 404);
  });

  it('names every bad field at once', async () => {
    const both = await quote(b.key, { batchId: '00000000-0000-4000-8000-000000000000', jobs: [], startsAt: 'soon' });
    assert.deepEqual(problem(both, 422).problems.map((p) => p.path).sort(), ['jobs', 'startsAt']);
    assert.deepEqual(problem(await quote(b.key, {}), 422).problems.map((p) => p.path), ['batchId']);
    const badJob = await quote(b.key, { jobs: [{ id: 'x', stages: [{ id: 'map', tasks: 0, demand: { cpu: 1 }, durationSeconds: 60 }] }] });
    assert.match(problem(badJob, 422).problems[0].path, /^jobs\[0\]\.stages\[0\]\.tasks/);
    assert.equal((await quote(farmer, { jobs: [] })).response.status, 403);
  });
});
