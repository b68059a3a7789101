/**
 * Hostile tenants (issue 35, items 1 and 3): every kind of long work has a hard deadline, and simulation
 * parameters whose cost explodes are refused before anything is stored. Before: a posum simulation with
 * `periodSeconds: 0.001` ran until deleted, `lookAheadSeconds: 1e300` was a 202 that failed later, and a
 * forecast build or simulation had no deadline of its own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { usageCluster, usageHistory, usageSamples } from '../../harness/usage-fixtures';
import { Service, startService, stopChild, waitFor } from '../../harness/service';

const SLOTS = 24;
const CLUSTER = { name: 'limits', metrics: ['cpu'], nodes: [{ id: 'w01', capacity: { cpu: 2 } }, { id: 'w02', capacity: { cpu: 2 } }] };
const JOBS = [{ id: 'b1', class: 'batch', stages: [{ id: 'map', tasks: 3, demand: { cpu: 1 }, durationSeconds: 300 }] }];

describe('deadlines and parameter limits', () => {
  let svc: Service;
  let farmer: string;
  let customer: string;

  before(async () => {
    svc = await startService();
    const t = await svc.tenant('limits', ['farmer', 'customer']);
    farmer = t.keys.farmer;
    customer = t.keys.customer;
  });
  after(() => svc?.close());

  it('a forecast build past its deadline fails saying so, and the worker goes on', async (t) => {
    // 32 nodes x 7 days: a GBT build of seconds (cancel-any-work.test.ts), over a 1-s cap.
    const c = await svc.client(farmer).POST('/v1/clusters', { body: usageCluster(32, ['cpu', 'ram'], 'big') });
    assert.equal(c.response.status, 201, JSON.stringify(c.error));
    const clusterId = c.data!.id;
    const u = await svc.client(farmer).POST('/v1/clusters/{clusterId}/usage', { params: { path: { clusterId } }, body: { samples: usageSamples(usageHistory({ nodes: 32, days: 7, seed: 5 })) } });
    assert.equal(u.response.status, 200, JSON.stringify(u.error));
    const worker = svc.startWorker({ FALLOW_FORECAST_BUILD_MAX_SECONDS: '1' });
    t.after(() => stopChild(worker));
    const build = async () => {
      const r = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts:build', { params: { path: { clusterId } }, body: { slotSeconds: 300, horizonSlots: 288, model: 'gbt', trainingDays: 7 } });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      return waitFor('the build to end', async () => {
        const b = (await svc.client(farmer).GET('/v1/forecast-builds/{id}', { params: { path: { id: r.data!.id } } })).data!;
        return ['succeeded', 'failed', 'cancelled'].includes(b.status) ? b : undefined;
      }, 60_000);
    };
    const first = await build();
    assert.equal(first.status, 'failed');
    assert.match(first.error ?? '', /^the forecast build exceeded its deadline of 1\.0 s \(.*capped by FALLOW_FORECAST_BUILD_MAX_SECONDS=1\) and was stopped$/);
    const ranMs = new Date(first.finishedAt!).getTime() - new Date(first.startedAt!).getTime();
    assert.ok(ranMs < 10_000, `the build ran ${ranMs} ms`);
    t.diagnostic(`${first.error} (${ranMs} ms from its start to its end)`);
    // The slot is free again: the next one is taken and stopped the same way.
    assert.equal((await build()).status, 'failed');
  });

  it('simulation parameters whose cost explodes are a 422 naming each, and nothing is stored', async () => {
    const f = svc.client(farmer);
    const cluster = await f.POST('/v1/clusters', { body: CLUSTER as never });
    assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
    const clusterId = cluster.data!.id;
    const forecast = await f.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: 300, slots: SLOTS, quantile: 0.9, usage: { w01: { cpu: Array(SLOTS).fill(0.2) } } } });
    assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));
    const batch = await svc.client(customer).POST('/v1/batches', { body: { name: 'limits', jobs: JOBS as never } });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
    const base = { clusterId, forecastId: forecast.data!.id, batchId: batch.data!.id, policy: 'posum' };
    const post = async (body: object) => {
      const r = await fetch(`${svc.baseUrl}/v1/simulations`, { method: 'POST', headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...base, ...body }) });
      return { status: r.status, body: (await r.json()) as { problems?: { path: string; message: string }[] } };
    };
    const paths = (r: { body: { problems?: { path: string }[] } }) => (r.body.problems ?? []).map((e) => e.path).sort();

    const tiny = await post({ periodSeconds: 0.001, qosPeriodSeconds: 0.002, lookAheadMode: 'rebuild', lookAheadSeconds: 0.001 });
    assert.equal(tiny.status, 422, JSON.stringify(tiny.body));
    assert.deepEqual(paths(tiny), ['lookAheadSeconds', 'periodSeconds', 'qosPeriodSeconds']);
    const message = (path: string) => tiny.body.problems!.find((e) => e.path === path)!.message;
    assert.match(message('periodSeconds'), /0\.001 s is under the limit of \d+ s \(FALLOW_MIN_POLICY_PERIOD_SECONDS\)/);
    assert.match(message('lookAheadSeconds'), /FALLOW_MIN_REBUILD_LOOK_AHEAD_SECONDS/);
    assert.match(message('qosPeriodSeconds'), /FALLOW_MIN_QOS_PERIOD_SECONDS/);

    const huge = await post({ lookAheadSeconds: 1e300 });
    assert.equal(huge.status, 422, JSON.stringify(huge.body));
    assert.deepEqual(paths(huge), ['lookAheadSeconds']);
    assert.match(huge.body.problems![0].message, /1e\+300 s is over the limit of \d+ s \(FALLOW_MAX_LOOK_AHEAD_SECONDS\)/);
    // A tiny look-ahead is harmless when replayed (the replay ends when the work does): only rebuild has a floor.
    const [{ n: before }] = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM simulations');
    assert.equal(before, 0, 'nothing was stored for the refused requests');
    const fine = await post({ periodSeconds: 120, lookAheadSeconds: 1 });
    assert.equal(fine.status, 202, JSON.stringify(fine.body));
  });
});
