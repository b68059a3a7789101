/**
 * Forecast builds against the real service and a worker process: a GBT build on days of synthetic usage
 * stores a forecast of the right shape with its provenance, and a solve by reference uses it; a baseline
 * build; builds without (enough) history fail with a clear error; invalid requests and other tenants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { Service, startService, waitFor } from '../../harness/service';
import { usageCluster, usageHistory, usageSamples } from '../../harness/usage-fixtures';

const NODES = 4;

describe('forecast builds', () => {
  let svc: Service;
  let a: { id: string; keys: Record<string, string> };
  let b: { id: string; keys: Record<string, string> };
  /** A cluster with 4 days of 4 nodes x 2 metrics at 5 minutes (9,216 samples). */
  let clusterId: string;

  const farmer = () => svc.client(a.keys.farmer);
  const newCluster = async (name: string, days: number) => {
    const r = await farmer().POST('/v1/clusters', { body: usageCluster(NODES, ['cpu', 'ram'], name) });
    assert.equal(r.response.status, 201, JSON.stringify(r.error));
    if (days > 0) {
      const samples = usageSamples(usageHistory({ nodes: NODES, days, seed: 11 }));
      const u = await farmer().POST('/v1/clusters/{clusterId}/usage', { params: { path: { clusterId: r.data!.id } }, body: { samples } });
      assert.equal(u.response.status, 200, JSON.stringify(u.error));
    }
    return r.data!.id;
  };
  type BuildBody = { quantile?: number; horizonSlots: number; slotSeconds: number; model?: 'gbt' | 'last-day' | 'slot-quantile' | 'max'; trainingDays?: number; headroom?: number };
  const build = (id: string, body: BuildBody, key = a.keys.farmer) => svc.client(key).POST('/v1/clusters/{clusterId}/forecasts:build', { params: { path: { clusterId: id } }, body });
  const finished = (buildId: string) =>
    waitFor('the build to end', async () => {
      const r = await farmer().GET('/v1/forecast-builds/{id}', { params: { path: { id: buildId } } });
      return r.data && (r.data.status === 'succeeded' || r.data.status === 'failed') ? r.data : undefined;
    }, 45_000);

  before(async () => {
    svc = await startService();
    svc.startWorker();
    a = await svc.tenant('builds-a', ['farmer', 'customer']);
    b = await svc.tenant('builds-b', ['farmer']);
    clusterId = await newCluster('four-days', 4);
  });
  after(async () => svc?.close());

  it('builds a GBT forecast on a worker; a solve by reference uses it', async () => {
    const r = await build(clusterId, { quantile: 0.9, horizonSlots: 48, slotSeconds: 300 });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    assert.equal(r.response.headers.get('location'), `/v1/forecast-builds/${r.data!.id}`);
    assert.deepEqual({ status: r.data!.status, model: r.data!.model, trainingDays: r.data!.trainingDays, forecastId: r.data!.forecastId }, { status: 'queued', model: 'gbt', trainingDays: 28, forecastId: null });
    const done = await finished(r.data!.id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.ok(done.startedAt && done.finishedAt);

    const f = await farmer().GET('/v1/forecasts/{id}', { params: { path: { id: done.forecastId! } } });
    assert.equal(f.response.status, 200, JSON.stringify(f.error));
    const forecast = f.data!;
    assert.deepEqual({ clusterId: forecast.clusterId, clusterVersion: forecast.clusterVersion, slots: forecast.slots, slotSeconds: forecast.slotSeconds, quantile: forecast.quantile }, { clusterId, clusterVersion: 1, slots: 48, slotSeconds: 300, quantile: 0.9 });
    // Slot 0 is the slot after the history's last sample (2024-01-04T23:55:00Z), 48 slots of 5 min.
    assert.deepEqual([forecast.startsAt, forecast.endsAt], ['2024-01-05T00:00:00.000Z', '2024-01-05T04:00:00.000Z']);
    assert.deepEqual(Object.keys(forecast.usage).sort(), ['h001', 'h002', 'h003', 'h004']);
    for (const metrics of Object.values(forecast.usage)) {
      assert.deepEqual(Object.keys(metrics).sort(), ['cpu', 'ram']);
      for (const values of Object.values(metrics)) {
        assert.equal(values.length, 48);
        assert.ok(values.every((v) => v >= 0 && v <= 1), JSON.stringify(values));
      }
    }
    const p = forecast.provenance!;
    assert.equal(p.buildId, r.data!.id);
    assert.equal(p.model, 'gbt');
    assert.equal(p.quantile, 0.9);
    assert.equal(p.headroom, 0);
    assert.deepEqual(p.training, { from: '2024-01-01T00:00:00.000Z', to: '2024-01-04T23:55:00.000Z', samples: 9216, series: 8 });
    assert.ok(p.inSample.n > 0 && p.inSample.pinball! >= 0 && p.inSample.coverage! > 0.5 && p.inSample.coverage! <= 1, JSON.stringify(p.inSample));
    assert.ok(p.holdout, 'four days of history give a held-out last day');
    assert.equal(p.holdout.from, '2024-01-04T00:00:00.000Z');
    assert.deepEqual(p.holdout.scores.map((s) => s.model), ['gbt', 'last-day', 'slot-quantile', 'max']);
    for (const s of p.holdout.scores) assert.ok(s.n === NODES * 2 * 288 && s.pinball! >= 0 && s.coverage! >= 0 && !s.skipped, JSON.stringify(s));
    const listed = await farmer().GET('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } } });
    assert.equal(listed.data!.items.find((x) => x.id === forecast.id)?.provenance?.buildId, r.data!.id);

    // A customer's solve of that cluster with the built forecast, by reference.
    const customer = svc.client(a.keys.customer);
    const batch = await customer.POST('/v1/batches', {
      body: { name: 'small', jobs: [{ id: 'j1', stages: [{ id: 'map', tasks: 4, demand: { cpu: 1, ram: 2 }, durationSeconds: 600 }] }] },
    });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
    // Now is long after the forecast's window: refused, naming startsAt; inside the window it is solved.
    const stale = await customer.POST('/v1/solves', { body: { clusterId, forecastId: forecast.id, batchId: batch.data!.id, strategy: 'rffd', timeBudgetMs: 500 } });
    assert.equal(stale.response.status, 422, JSON.stringify(stale.error));
    const solve = await customer.POST('/v1/solves', { body: { clusterId, forecastId: forecast.id, batchId: batch.data!.id, strategy: 'rffd', timeBudgetMs: 500, startsAt: '2024-01-05T01:00:00Z' } });
    assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
    const solved = await waitFor('the solve to end', async () => {
      const s = await customer.GET('/v1/solves/{id}', { params: { path: { id: solve.data!.id } } });
      return s.data && ['succeeded', 'failed', 'cancelled'].includes(s.data.status) ? s.data : undefined;
    }, 45_000);
    assert.equal(solved.status, 'succeeded', solved.error ?? '');
    assert.equal(solved.forecastId, forecast.id);
    const plan = await customer.GET('/v1/plans/{id}', { params: { path: { id: solved.planId! } } });
    assert.equal(plan.data!.objective.scheduledTasks, 4);
  });

  it("builds a GBT forecast with headroom: raised by it, never above a node's history maximum", async () => {
    const usageOf = async (body: BuildBody) => {
      const r = await build(clusterId, body);
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      assert.equal(r.data!.headroom, body.headroom ?? 0);
      const done = await finished(r.data!.id);
      assert.equal(done.status, 'succeeded', done.error ?? '');
      return (await farmer().GET('/v1/forecasts/{id}', { params: { path: { id: done.forecastId! } } })).data!;
    };
    const plain = await usageOf({ quantile: 0.5, horizonSlots: 48, slotSeconds: 300 });
    const raised = await usageOf({ quantile: 0.5, horizonSlots: 48, slotSeconds: 300, headroom: 0.1 });
    assert.equal(raised.provenance!.headroom, 0.1);
    const max = await usageOf({ model: 'max', horizonSlots: 48, slotSeconds: 300 });
    let higher = 0;
    for (const [node, metrics] of Object.entries(plain.usage))
      for (const [metric, values] of Object.entries(metrics))
        values.forEach((f, i) => {
          const g = raised.usage[node][metric][i];
          const cap = max.usage[node][metric][i];
          assert.ok(Math.abs(g - Math.max(f, Math.min(f + 0.1, cap))) < 1e-9, `${node} ${metric} slot ${i}: ${g} from ${f} (max ${cap})`);
          if (g > f) higher++;
        });
    assert.ok(higher > 0, 'the headroom raised nothing');
  });

  it('builds a baseline forecast over the last trainingDays days', async () => {
    const r = await build(clusterId, { model: 'slot-quantile', horizonSlots: 24, slotSeconds: 600, trainingDays: 2 });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const done = await finished(r.data!.id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const forecast = (await farmer().GET('/v1/forecasts/{id}', { params: { path: { id: done.forecastId! } } })).data!;
    assert.deepEqual({ slots: forecast.slots, slotSeconds: forecast.slotSeconds, quantile: forecast.quantile }, { slots: 24, slotSeconds: 600, quantile: 0.99 });
    assert.ok(Object.values(forecast.usage).every((m) => Object.values(m).every((v) => v.length === 24 && v.every((x) => x >= 0 && x <= 1))));
    const p = forecast.provenance!;
    assert.equal(p.model, 'slot-quantile');
    // (last - 2 days, last]: 576 samples of each of the 8 series
    assert.deepEqual(p.training, { from: '2024-01-03T00:00:00.000Z', to: '2024-01-04T23:55:00.000Z', samples: 8 * 576, series: 8 });
    assert.ok(p.holdout);
    // One day before the held-out day is not enough history for the GBT: listed with the reason.
    assert.match(p.holdout.scores.find((s) => s.model === 'gbt')!.skipped ?? '', /history/);
    assert.ok(p.holdout.scores.filter((s) => s.model !== 'gbt').every((s) => s.n > 0 && !s.skipped));
  });

  it('fails a build without history with a clear error, and refuses a GBT with too little at the request', async () => {
    const empty = await newCluster('no-history', 0);
    const r = await build(empty, { horizonSlots: 12, slotSeconds: 300 });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const done = await finished(r.data!.id);
    assert.equal(done.status, 'failed');
    assert.equal(done.forecastId, null);
    assert.match(done.error ?? '', /^no usage history: cluster .* has no samples.*POST \/v1\/clusters\/.*\/usage first/);

    // One day of 5-minute samples is 288 slots; a GBT forecasting up to a day ahead has a lag of 288 slots and needs 289.
    const oneDay = await newCluster('one-day', 1);
    const builds = async () => Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM forecast_builds WHERE cluster_id = $1', [oneDay]))[0].n);
    const short = problem(await build(oneDay, { model: 'gbt', horizonSlots: 12, slotSeconds: 300 }), 422);
    assert.deepEqual(short.problems, [
      {
        path: 'model',
        message:
          `gbt needs more usage history than its lag of 288 slots of 300 s (1 day(s), whole days covering horizonSlots 12): at least 289 slots, and cluster ${oneDay} holds 288 ` +
          '(1.0 days, 2024-01-01T00:00:00.000Z to 2024-01-01T23:55:00.000Z); post more usage, ask for fewer horizonSlots, or use a baseline model (last-day, slot-quantile, max)',
      },
    ]);
    assert.equal(await builds(), 0, 'nothing stored');
    // Four days are enough for a day ahead (the first test), not for more than a day ahead in the last 2 days of them (trainingDays).
    const twoDaysAhead = problem(await build(clusterId, { horizonSlots: 289, slotSeconds: 300, trainingDays: 2 }), 422);
    assert.match(twoDaysAhead.problems[0].message, /lag of 576 slots .* at least 577 slots, and cluster .* holds 576 in the last 2 days \(trainingDays\)/);
    // A baseline needs no more than a sample.
    const baseline = await finished((await build(oneDay, { model: 'max', horizonSlots: 12, slotSeconds: 300 })).data!.id);
    assert.equal(baseline.status, 'succeeded', baseline.error ?? '');
    const forecast = (await farmer().GET('/v1/forecasts/{id}', { params: { path: { id: baseline.forecastId! } } })).data!;
    assert.equal(forecast.provenance!.holdout, null);
  });

  it('rejects an invalid request with every problem and its path, writing nothing', async () => {
    const r = await build(clusterId, { quantile: 1.5, horizonSlots: 0, slotSeconds: 'x' as never, model: 'arima' as never, trainingDays: 90 });
    const body = problem(r, 422);
    assert.deepEqual(body.problems.map((p) => p.path), ['quantile', 'slotSeconds', 'horizonSlots', 'model', 'trainingDays'], JSON.stringify(body.problems));
    assert.match(body.problems[3].message, /gbt, last-day, slot-quantile, max/);
    const long = problem(await build(clusterId, { horizonSlots: 2017, slotSeconds: 300 }), 422);
    assert.deepEqual(long.problems, [{ path: 'horizonSlots', message: 'at most 7 days: 2016 slots of 300 s, got 2017' }]);
    const unknown = problem(await build(clusterId, { horizonSlots: 12, slotSeconds: 300, horizon: 3 } as never), 422);
    assert.deepEqual(unknown.problems.map((p) => p.path), ['horizon']);
    const headroom = problem(await build(clusterId, { horizonSlots: 12, slotSeconds: 300, headroom: 2 }), 422);
    assert.deepEqual(headroom.problems, [{ path: 'headroom', message: 'must be a fraction of capacity in [0, 1], got 2' }]);
    const notGbt = problem(await build(clusterId, { model: 'max', horizonSlots: 12, slotSeconds: 300, headroom: 0.1 }), 422);
    assert.deepEqual(notGbt.problems, [{ path: 'headroom', message: 'applies to model gbt only, got model "max"' }]);
    const rows = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM forecast_builds WHERE cluster_id = $1 AND status = $2', [clusterId, 'queued']);
    assert.equal(rows[0].n, 0);
  });

  it('a build whose forecast would be over the forecast size limit is refused at the request, as a posted one is', async () => {
    // 4 nodes x 2 metrics: 12 slots are 96 values, over a limit of 90 (FALLOW_MAX_FORECAST_POINTS); 11 slots are 88
    const small = await startService({ input: { ...svc.config.input, maxForecastPoints: 90 } });
    try {
      const farm = await small.tenant('builds-cap', ['farmer']);
      const c = await small.client(farm.keys.farmer).POST('/v1/clusters', { body: usageCluster(NODES, ['cpu', 'ram'], 'capped') });
      const buildOn = (horizonSlots: number) =>
        small.client(farm.keys.farmer).POST('/v1/clusters/{clusterId}/forecasts:build', { params: { path: { clusterId: c.data!.id } }, body: { model: 'max', horizonSlots, slotSeconds: 300 } });
      const over = problem(await buildOn(12), 422);
      assert.deepEqual(over.problems.map((p) => p.path), ['horizonSlots']);
      assert.match(over.problems[0].message, /12 slots x 4 nodes x 2 metrics is 96 values, over the limit of 90 \(FALLOW_MAX_FORECAST_POINTS\)/);
      assert.equal((await small.sql<{ n: number }>('SELECT count(*)::int AS n FROM forecast_builds'))[0].n, 0, 'nothing stored');
      assert.equal((await buildOn(11)).response.status, 202);
    } finally {
      await small.close();
    }
  });

  it('belongs to the cluster owner: another farmer gets 404, a customer 403', async () => {
    problem(await build(clusterId, { horizonSlots: 12, slotSeconds: 300 }, b.keys.farmer), 404);
    problem(await build(clusterId, { horizonSlots: 12, slotSeconds: 300 }, a.keys.customer), 403);
    const mine = await build(clusterId, { model: 'last-day', horizonSlots: 12, slotSeconds: 300 });
    assert.equal(mine.response.status, 202);
    const get = (key: string) => svc.client(key).GET('/v1/forecast-builds/{id}', { params: { path: { id: mine.data!.id } } });
    problem(await get(b.keys.farmer), 404);
    problem(await get(a.keys.customer), 403);
    assert.equal((await get(svc.operatorKey)).response.status, 200);
    await finished(mine.data!.id);
  });
});
