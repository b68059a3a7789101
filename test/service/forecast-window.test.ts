/**
 * A forecast's slot 0 has a wall-clock time: posted ones say it or default to their creation, and a solve
 * uses the forecast from the slot of its own start. A solve starting outside the forecast is a 422 naming
 * startsAt, or, when the request allows a stale forecast, solved from its slot 0 with a warning.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { Service, startService } from '../../harness/service';

const HOUR = 3600;
const SLOTS = 6;
const T0 = '2030-03-01T00:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR * 1000).toISOString();

describe('forecast time and offered clusters', () => {
  let svc: Service;
  let farmer: string;
  let customer: string;
  let clusterId: string;
  let forecastId: string;
  let batchId: string;

  before(async () => {
    svc = await startService();
    const f = await svc.tenant('farm', ['farmer']);
    const c = await svc.tenant('shop', ['customer']);
    farmer = f.keys.farmer;
    customer = c.keys.customer;
    const cluster = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'w', metrics: ['cpu'], nodes: [{ id: 'n1', capacity: { cpu: 4 } }], lendable: true } });
    assert.ok(cluster.data, JSON.stringify(cluster.error));
    clusterId = cluster.data.id;
    // Each slot's usage is its index / 10, so the slots a solve used can be read back from its instance.
    const forecast = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: HOUR, slots: SLOTS, startsAt: T0, usage: { n1: { cpu: [0, 0.1, 0.2, 0.3, 0.4, 0.5] } } },
    });
    assert.ok(forecast.data, JSON.stringify(forecast.error));
    forecastId = forecast.data.id;
    assert.equal(forecast.data.startsAt, T0);
    assert.equal(forecast.data.endsAt, at(SLOTS));
    const batch = await svc.client(customer).POST('/v1/batches', { body: { name: 'b', jobs: [{ id: 'j', stages: [{ id: 's', tasks: 1, demand: { cpu: 1 }, durationSeconds: 600 }] }] } });
    assert.ok(batch.data, JSON.stringify(batch.error));
    batchId = batch.data.id;
  });
  after(async () => svc?.close());

  const solve = (body: Record<string, unknown>) => svc.client(customer).POST('/v1/solves', { body: { clusterId, forecastId, batchId, timeBudgetMs: 200, ...body } });
  const instanceOf = async (id: string) => (await svc.sql<{ instance: { horizon: { slots: number }; usage: { n1: { cpu: number[] } } } }>('SELECT instance FROM solves WHERE id = $1', [id]))[0].instance;

  it('a posted forecast without startsAt starts when it is posted; a bad startsAt is a 422', async () => {
    const before = Date.now();
    const r = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: HOUR, slots: 1, usage: {} } });
    assert.ok(r.data, JSON.stringify(r.error));
    assert.ok(Math.abs(Date.parse(r.data.startsAt) - before) < 60_000, r.data.startsAt);
    const listed = await svc.client(farmer).GET('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } } });
    assert.deepEqual(listed.data!.items.map((x) => x.startsAt).sort(), [T0, r.data.startsAt].sort());
    const bad = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: HOUR, slots: 1, usage: {}, startsAt: 'next tuesday' } });
    assert.deepEqual(problem(bad, 422).problems.map((p) => p.path), ['startsAt']);
  });

  it('a solve uses the forecast from the slot of its start, over the slots left', async () => {
    const first = await solve({ startsAt: T0 });
    assert.equal(first.response.status, 202, JSON.stringify(first.error));
    assert.deepEqual(first.data!.warnings, []);
    assert.deepEqual((await instanceOf(first.data!.id)).usage.n1.cpu, [0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    const later = await solve({ startsAt: at(2.5) });
    assert.equal(later.response.status, 202, JSON.stringify(later.error));
    const inst = await instanceOf(later.data!.id);
    assert.equal(inst.horizon.slots, 4);
    assert.deepEqual(inst.usage.n1.cpu, [0.2, 0.3, 0.4, 0.5]);
    const tooLong = await solve({ startsAt: at(2), horizon: { slots: 5, slotSeconds: HOUR } });
    assert.match(problem(tooLong, 422).problems[0].message, /at most 4 slots/);
  });

  it('a solve starting outside the forecast is a 422 naming startsAt, or a warning when allowed', async () => {
    for (const startsAt of [at(-1), at(SLOTS), '2031-01-01T00:00:00Z']) {
      const count = Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM solves'))[0].n);
      const r = await solve({ startsAt });
      const body = problem(r, 422);
      assert.deepEqual(body.problems.map((p) => p.path), ['startsAt']);
      assert.match(body.problems[0].message, /outside the forecast.*allowStaleForecast/);
      assert.equal(Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM solves'))[0].n), count, 'nothing stored');
    }
    const allowed = await solve({ startsAt: '2031-01-01T00:00:00Z', allowStaleForecast: true });
    assert.equal(allowed.response.status, 202, JSON.stringify(allowed.error));
    assert.equal(allowed.data!.warnings.length, 1);
    assert.match(allowed.data!.warnings[0], /stale forecast/);
    assert.deepEqual((await instanceOf(allowed.data!.id)).usage.n1.cpu, [0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    const stored = await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id: allowed.data!.id } } });
    assert.deepEqual(stored.data!.warnings, allowed.data!.warnings);
  });

  it('a solve naming no forecast uses the newest covering its start and says so; none covering is a 422 naming forecastId', async () => {
    // A newer forecast of w over the first 3 hours of the older one's 6, each slot 0.9.
    const newer = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: HOUR, slots: 3, startsAt: T0, usage: { n1: { cpu: [0.9, 0.9, 0.9] } } },
    });
    assert.ok(newer.data, JSON.stringify(newer.error));
    const byDefault = (body: Record<string, unknown>) => svc.client(customer).POST('/v1/solves', { body: { clusterId, batchId, timeBudgetMs: 200, ...body } });
    const early = await byDefault({ startsAt: at(1) });
    assert.equal(early.response.status, 202, JSON.stringify(early.error));
    assert.deepEqual([early.data!.forecastId, early.data!.forecastChoice, early.data!.warnings], [newer.data.id, 'newest-covering-start', []]);
    assert.deepEqual((await instanceOf(early.data!.id)).usage.n1.cpu, [0.9, 0.9]);
    // After the newer one ends only the older covers the start.
    const late = await byDefault({ startsAt: at(4) });
    assert.equal(late.response.status, 202, JSON.stringify(late.error));
    assert.deepEqual([late.data!.forecastId, late.data!.forecastChoice], [forecastId, 'newest-covering-start']);
    assert.deepEqual((await instanceOf(late.data!.id)).usage.n1.cpu, [0.4, 0.5]);
    const stored = await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id: late.data!.id } } });
    assert.deepEqual([stored.data!.forecastId, stored.data!.forecastChoice], [forecastId, 'newest-covering-start']);
    // Named: the request's; a horizon without a forecast: idle nodes over it, as before.
    const named = await solve({ startsAt: at(1) });
    assert.deepEqual([named.data!.forecastId, named.data!.forecastChoice], [forecastId, 'request']);
    const idle = await byDefault({ startsAt: at(1), horizon: { slots: 2, slotSeconds: HOUR } });
    assert.equal(idle.response.status, 202, JSON.stringify(idle.error));
    assert.deepEqual([idle.data!.forecastId, idle.data!.forecastChoice], [null, 'none']);
    assert.equal((await instanceOf(idle.data!.id)).usage, undefined);

    // None covers the start: a 422 naming forecastId, nothing stored; allowStaleForecast takes the newest from its slot 0.
    const count = async () => Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM solves'))[0].n);
    const before = await count();
    const none = problem(await byDefault({ startsAt: '2031-01-01T00:00:00Z' }), 422);
    assert.deepEqual(none.problems.map((p) => p.path), ['forecastId']);
    assert.match(none.problems[0].message, new RegExp(`^no forecast of cluster ${clusterId} \\(version 1\\) covers 2031-01-01T00:00:00.000Z, the solve's startsAt: post one covering it, name one`));
    assert.equal(await count(), before, 'nothing stored');
    const stale = await byDefault({ startsAt: '2031-01-01T00:00:00Z', allowStaleForecast: true });
    assert.equal(stale.response.status, 202, JSON.stringify(stale.error));
    assert.equal(stale.data!.forecastChoice, 'newest');
    assert.match(stale.data!.warnings[0], /^stale forecast: forecast [0-9a-f-]+ covers .* and the solve starts at 2031/);
    // The newest of the cluster's version: the one the offered-clusters test below posts may come later, so whichever is newest now.
    const [newest] = await svc.sql<{ id: string }>('SELECT id FROM forecasts WHERE cluster_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1', [clusterId]);
    assert.equal(stale.data!.forecastId, newest.id);
  });

  it('a customer lists the lendable clusters with what a solve needs, and the forecast covering now', async () => {
    const f = svc.client(farmer);
    const priv = await f.POST('/v1/clusters', { body: { name: 'private', metrics: ['cpu'], nodes: [{ id: 'p1', capacity: { cpu: 2 } }], lendable: false } });
    assert.ok(priv.data, JSON.stringify(priv.error));
    const priced = await f.POST('/v1/clusters', { body: { name: 'priced', metrics: ['cpu', 'ram'], nodes: [{ id: 'q1', capacity: { cpu: 8, ram: 32 }, speed: 2, rack: 'r1', costPerHour: 3 }] } });
    assert.ok(priced.data, JSON.stringify(priced.error));
    const now = await f.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: priced.data.id } }, body: { slotSeconds: HOUR, slots: 24, usage: {} } });
    assert.ok(now.data, JSON.stringify(now.error));
    const r = await svc.client(customer).GET('/v1/offered-clusters');
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    const byName = new Map(r.data!.items.map((c) => [c.name, c]));
    assert.equal(byName.has('private'), false, 'a cluster that is not lendable is not offered');
    assert.deepEqual(byName.get('priced'), {
      id: priced.data.id,
      name: 'priced',
      version: 1,
      metrics: ['cpu', 'ram'],
      nodes: [{ id: 'q1', capacity: { cpu: 8, ram: 32 }, speed: 2, rack: 'r1' }],
      forecast: { id: now.data.id, startsAt: now.data.startsAt, endsAt: now.data.endsAt, slotSeconds: HOUR, slots: 24, quantile: 0.5 },
      updatedAt: byName.get('priced')!.updatedAt,
    });
    // Of w's forecasts only the one posted without startsAt (1 slot from its posting) covers now, not the 2030 one.
    assert.equal(byName.get('w')!.forecast?.slots, 1);
    assert.notEqual(byName.get('w')!.forecast?.id, forecastId);
    // The farmer's own listing stays the farmer's.
    problem(await svc.client(customer).GET('/v1/clusters'), 403);
  });
});
