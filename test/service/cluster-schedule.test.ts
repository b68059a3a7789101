/**
 * A cluster's schedule (issue 37, point 3): GET /v1/clusters/{id}/schedule and its chart against the real
 * service (Postgres, Redis, a worker). Two customers commit plans whose placement the capacity forces (one
 * task per node and slot; B's beyond its quota, borrowing); the farmer and operators see both plans and every
 * task, each customer only its own with the same anonymous totals; another farmer gets 404; reserved and free
 * are checked against figures worked out by hand; a bad window is a 422 naming its fields; the chart's
 * Vega-Lite data are the totals.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { getText } from '../support/chart-fixtures';
import { Service, startService, waitFor } from '../../harness/service';

const HOUR = 3600;
const T0 = '2030-05-01T00:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR * 1000).toISOString();

/**
 * Two nodes of 4 cores, n1 with 2 task slots; the forecast takes 1 core of n1 in slot 0. A task takes 3 cores for
 * one hour, so a node holds one at a time: A's two tasks go to slot 0 (n1's 3 free cores and n2), B's, solved
 * after A committed, to slot 1.
 */
const NODES = [
  { id: 'n1', capacity: { cpu: 4 }, maxTasks: 2 },
  { id: 'n2', capacity: { cpu: 4 } },
];
const jobs = (id: string) => [{ id, stages: [{ id: 'map', tasks: 2, demand: { cpu: 3 }, durationSeconds: HOUR }] }];

describe('the cluster\'s schedule', () => {
  let svc: Service;
  let farmer: string;
  let otherFarmer: string;
  let a: { id: string; key: string };
  let b: { id: string; key: string };
  let clusterId: string;
  let privateId: string;
  let planA: string;
  let planB: string;

  const schedule = (key: string, id: string, query: { from?: string; to?: string } = {}) => svc.client(key).GET('/v1/clusters/{id}/schedule', { params: { path: { id }, query } });

  async function committed(key: string, batchId: string): Promise<{ planId: string; assignments: { node: string; start: number }[] }> {
    const r = await svc.client(key).POST('/v1/solves', { body: { clusterId, batchId, startsAt: at(0.5), strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const id = r.data!.id;
    const done = await waitFor(`solve ${id}`, async () => {
      const s = (await svc.client(key).GET('/v1/solves/{id}', { params: { path: { id } } })).data!;
      return s.status === 'queued' || s.status === 'running' ? undefined : s;
    });
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    const c = await svc.client(key).POST('/v1/plans/{id}/commit', { params: { path: { id: done.planId! } } });
    assert.equal(c.data?.status, 'committed', JSON.stringify(c.error));
    return { planId: done.planId!, assignments: c.data!.assignments };
  }

  before(async () => {
    svc = await startService();
    svc.startWorker();
    farmer = (await svc.tenant('sched-farm', ['farmer'])).keys.farmer;
    otherFarmer = (await svc.tenant('sched-other-farm', ['farmer'])).keys.farmer;
    const ta = await svc.tenant('sched-a', ['customer']);
    const tb = await svc.tenant('sched-b', ['customer']);
    a = { id: ta.id, key: ta.keys.customer };
    b = { id: tb.id, key: tb.keys.customer };
    const cluster = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'shared', metrics: ['cpu'], nodes: NODES, lendable: true } });
    assert.ok(cluster.data, JSON.stringify(cluster.error));
    clusterId = cluster.data.id;
    const hidden = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'own-use', metrics: ['cpu'], nodes: NODES, lendable: false } });
    privateId = hidden.data!.id;
    const f = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: HOUR, slots: 4, startsAt: T0, usage: { n1: { cpu: [0.25, 0, 0, 0] }, n2: { cpu: [0, 0, 0, 0] } } },
    });
    assert.ok(f.data, JSON.stringify(f.error));
    const batchA = (await svc.client(a.key).POST('/v1/batches', { body: { name: 'a', jobs: jobs('a-etl') } })).data!.id;
    const batchB = (await svc.client(b.key).POST('/v1/batches', { body: { name: 'b', jobs: jobs('b-etl') } })).data!.id;
    const pa = await committed(a.key, batchA);
    // B may hold half the cluster's cpu and borrow beyond it: its plan (6 of 8 cores in slot 1) commits as borrowing.
    const quota = await svc.client(farmer).PUT('/v1/clusters/{id}/quotas/{customer}', { params: { path: { id: clusterId, customer: b.id } }, body: { shares: { cpu: 0.5 }, borrow: true } });
    assert.ok(quota.data, JSON.stringify(quota.error));
    const pb = await committed(b.key, batchB);
    // The placement the capacity forces, which the figures below are worked out from.
    const placed = (x: typeof pa) => x.assignments.map((s) => `${s.node}@${s.start}`).sort();
    assert.deepEqual(placed(pa), ['n1@0', 'n2@0'], 'A\'s tasks: one per node in slot 0');
    assert.deepEqual(placed(pb), ['n1@1', 'n2@1'], 'B\'s tasks: one per node in slot 1, around A\'s');
    planA = pa.planId;
    planB = pb.planId;
  });
  after(async () => svc?.close());

  // Worked out by hand: n1's forecast load 1 core in slot 0; A holds 3 cores a node in slot 0, B in slot 1.
  const N1 = { capacity: 4, regular: [1, 0, 0, 0], reserved: [3, 3, 0, 0], free: [0, 1, 4, 4] };
  const N2 = { capacity: 4, regular: [0, 0, 0, 0], reserved: [3, 3, 0, 0], free: [1, 1, 4, 4] };
  const N1_TASKS = { maxTasks: 2, reserved: [1, 1, 0, 0], free: [1, 1, 2, 2] };
  const TOTAL = { capacity: 8, regular: [1, 0, 0, 0], reserved: [6, 6, 0, 0], free: [1, 2, 8, 8] };

  it('the farmer sees both plans, every task, and per node, metric and slot the regular load, reserved and free (figures by hand)', async () => {
    const r = await schedule(farmer, clusterId, { from: at(0.5) });
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    const s = r.data!;
    assert.equal(s.view, 'cluster');
    assert.equal(s.clusterVersion, 1);
    // from is floored to the forecast's slots; to defaults to the forecast's end
    assert.deepEqual([s.from, s.to, s.slotSeconds, s.slots], [T0, at(4), HOUR, 4]);
    assert.equal(s.forecast!.slots, 4);
    assert.deepEqual(s.metrics, ['cpu']);
    assert.deepEqual(s.nodes, [
      { id: 'n1', metrics: { cpu: N1 }, tasks: N1_TASKS },
      { id: 'n2', metrics: { cpu: N2 }, tasks: null },
    ]);
    assert.deepEqual(s.totals, { metrics: { cpu: TOTAL }, tasks: N1_TASKS });
    assert.deepEqual(
      s.plans.map((p) => [p.id, p.customerId, p.status, p.tasks, p.tasksInWindow, p.window.startsAt, p.borrowing]),
      [
        [planA, a.id, 'committed', 2, 2, T0, false],
        [planB, b.id, 'committed', 2, 2, T0, true],
      ],
    );
    assert.deepEqual(
      s.tasks.map((t) => `${t.planId === planA ? 'A' : 'B'}:${t.job}@${t.node} ${t.from}-${t.to} cpu=${t.demand.cpu}`),
      [`A:a-etl@n1 ${at(0)}-${at(1)} cpu=3`, `A:a-etl@n2 ${at(0)}-${at(1)} cpu=3`, `B:b-etl@n1 ${at(1)}-${at(2)} cpu=3`, `B:b-etl@n2 ${at(1)}-${at(2)} cpu=3`],
    );
  });

  it('an operator sees what the farmer sees', async () => {
    const op = (await schedule(svc.operatorKey, clusterId, { from: T0 })).data!;
    const own = (await schedule(farmer, clusterId, { from: T0 })).data!;
    assert.equal(op.view, 'cluster');
    assert.deepEqual(op, own);
  });

  it('a customer sees only its own plans and tasks, and the same anonymous totals', async () => {
    const all = (await schedule(farmer, clusterId, { from: T0 })).data!;
    for (const [me, mine, theirs, other] of [
      [a, planA, planB, b],
      [b, planB, planA, a],
    ] as const) {
      const r = await schedule(me.key, clusterId, { from: T0 });
      assert.equal(r.response.status, 200, JSON.stringify(r.error));
      const s = r.data!;
      assert.equal(s.view, 'customer');
      assert.deepEqual(s.plans.map((p) => [p.id, p.customerId]), [[mine, me.id]]);
      assert.deepEqual([...new Set(s.tasks.map((t) => t.planId))], [mine]);
      assert.equal(s.tasks.length, 2);
      assert.deepEqual(s.nodes, all.nodes);
      assert.deepEqual(s.totals, all.totals);
      const text = JSON.stringify(s);
      assert.ok(!text.includes(theirs), 'the other customer\'s plan id appears nowhere');
      assert.ok(!text.includes(other.id), 'nor its tenant id');
      assert.ok(!text.includes(other === a ? 'a-etl' : 'b-etl'), 'nor its job names');
    }
  });

  it('a window inside the forecast: from floored to its slot grid, to rounded up to whole slots; only plans with a task in it', async () => {
    const s = (await schedule(farmer, clusterId, { from: at(1.5), to: at(1.75) })).data!;
    assert.deepEqual([s.from, s.to, s.slots], [at(1), at(2), 1]);
    assert.deepEqual(s.totals.metrics.cpu, { capacity: 8, regular: [0], reserved: [6], free: [2] });
    assert.deepEqual(s.plans.map((p) => [p.id, p.tasks, p.tasksInWindow]), [[planB, 2, 2]]);
    assert.equal((await schedule(a.key, clusterId, { from: at(1.5), to: at(1.75) })).data!.plans.length, 0, 'A has nothing in that slot');
  });

  it('past the forecast, or without one covering from: hourly slots from from itself over a day, no regular load', async () => {
    const beyond = (await schedule(farmer, clusterId, { from: at(3), to: at(6) })).data!;
    assert.deepEqual([beyond.slots, beyond.forecast!.slots], [3, 1]);
    assert.deepEqual(beyond.totals.metrics.cpu.regular, [0, 0, 0]);
    const from = '2030-05-02T10:17:00.000Z';
    const none = (await schedule(farmer, clusterId, { from })).data!;
    assert.equal(none.forecast, null);
    assert.deepEqual([none.from, none.slotSeconds, none.slots], [from, HOUR, 24]);
    assert.deepEqual(none.totals.metrics.cpu.free, Array(24).fill(8));
    assert.deepEqual(none.plans, []);
  });

  it('another farmer, a customer on a cluster that is not lendable, and an unknown cluster get 404', async () => {
    assert.equal((await schedule(otherFarmer, clusterId)).response.status, 404);
    assert.equal((await schedule(a.key, privateId)).response.status, 404);
    assert.equal((await schedule(farmer, privateId)).response.status, 200, 'its farmer sees it');
    assert.equal((await schedule(farmer, '00000000-0000-4000-8000-000000000000')).response.status, 404);
    const chart = await getText(svc, `/v1/clusters/${clusterId}/schedule/charts/capacity.json`, otherFarmer);
    assert.equal(chart.status, 404);
  });

  it('a bad window is a 422 naming every bad field at once', async () => {
    const paths = async (query: Record<string, string>) => problem(await schedule(farmer, clusterId, query), 422).problems.map((p) => p.path);
    assert.deepEqual(await paths({ from: 'yesterday', to: '2030-02-30T00:00:00Z' }), ['query:from', 'query:to']);
    assert.deepEqual(await paths({ from: at(2), to: at(2) }), ['query:to']);
    assert.deepEqual(await paths({ from: at(2), to: at(1) }), ['query:to']);
    const tooMany = problem(await schedule(farmer, clusterId, { from: T0, to: at(2001) }), 422);
    assert.deepEqual(tooMany.problems.map((p) => p.path), ['query:to']);
    assert.match(tooMany.problems[0].message, /2001 slots .* at most 2000/);
    const twice = await getText(svc, `/v1/clusters/${clusterId}/schedule?from=${T0}&from=${at(1)}`, farmer);
    assert.equal(twice.status, 422);
    assert.deepEqual(JSON.parse(twice.body).problems.map((p: { path: string }) => p.path), ['query:from']);
  });

  it('the chart: a Vega-Lite spec whose data are the totals (the same for a customer), and its SVG', async () => {
    const json = await getText(svc, `/v1/clusters/${clusterId}/schedule/charts/capacity.json?from=${T0}`, farmer);
    assert.equal(json.status, 200, json.body);
    assert.match(json.type, /^application\/json/);
    const spec = JSON.parse(json.body);
    assert.equal(spec.$schema, 'https://vega.github.io/schema/vega-lite/v6.json');
    const amounts = (series: string) =>
      spec.data.values.filter((v: { panel: string; series: string }) => v.panel === 'cpu' && v.series === series).map((v: { at: string; amount: number }) => [v.at, v.amount]);
    // Step-after areas: one point per slot and one at the window's end, holding the last slot's value.
    const points = (values: number[]) => [...values, values[values.length - 1]].map((v, t) => [at(t), v]);
    assert.deepEqual(amounts('regular load'), points(TOTAL.regular));
    assert.deepEqual(amounts('reserved'), points(TOTAL.reserved));
    assert.deepEqual(amounts('free'), points(TOTAL.free));
    const tasks = spec.data.values.filter((v: { panel: string }) => v.panel === 'task slots');
    assert.deepEqual(tasks.filter((v: { series: string }) => v.series === 'reserved').map((v: { amount: number }) => v.amount), [1, 1, 0, 0, 0]);
    const customer = await getText(svc, `/v1/clusters/${clusterId}/schedule/charts/capacity.json?from=${T0}`, a.key);
    assert.equal(customer.body, json.body, 'a customer\'s chart is the farmer\'s: it names no one');

    const svg = await getText(svc, `/v1/clusters/${clusterId}/schedule/charts/capacity.svg?from=${T0}`, b.key);
    assert.equal(svg.status, 200, svg.body);
    assert.match(svg.type, /^image\/svg\+xml/);
    assert.match(svg.body, /^<svg /);
    assert.match(svg.body, /class="mark-area role-mark/);
    assert.equal((await getText(svc, `/v1/clusters/${clusterId}/schedule/charts/gantt.svg`, farmer)).status, 404);
    assert.equal((await getText(svc, `/v1/clusters/${clusterId}/schedule/charts/capacity.json?to=nope`, farmer)).status, 422);
  });

  it('a released plan leaves the schedule and its capacity is free again', async () => {
    const r = await svc.client(b.key).POST('/v1/plans/{id}/release', { params: { path: { id: planB } } });
    assert.equal(r.data?.status, 'released', JSON.stringify(r.error));
    const s = (await schedule(farmer, clusterId, { from: T0 })).data!;
    assert.deepEqual(s.plans.map((p) => p.id), [planA]);
    assert.deepEqual(s.totals.metrics.cpu, { capacity: 8, regular: [1, 0, 0, 0], reserved: [6, 0, 0, 0], free: [1, 8, 8, 8] });
    assert.deepEqual((await schedule(b.key, clusterId, { from: T0 })).data!.plans, []);
  });
});
