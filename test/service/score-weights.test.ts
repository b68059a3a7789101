/**
 * POSUM's weights per tenant (issue 24): the operator sets a tenant's default alpha, beta, gamma; that
 * tenant's `portfolio` solves and `posum` simulations that give none use it, a request's own values override
 * it one by one, other tenants keep 1/1/1; bad weights are 422s naming every field and change nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { Service, startService, waitFor } from '../../harness/service';

const SLOTS = 24;
const flat = (v: number) => Array(SLOTS).fill(v);
const CLUSTER = { name: 'weights', metrics: ['cpu'], nodes: [{ id: 'w01', capacity: { cpu: 2 } }, { id: 'w02', capacity: { cpu: 2 } }] };
const JOBS = [
  { id: 'd1', class: 'deadline', deadlineSlot: 6, stages: [{ id: 'map', tasks: 4, demand: { cpu: 1 }, durationSeconds: 600 }] },
  { id: 'b1', class: 'batch', stages: [{ id: 'map', tasks: 3, demand: { cpu: 1 }, durationSeconds: 300 }] },
];

type Json = any;

describe('POSUM score weights per tenant', () => {
  let svc: Service;
  let a: { id: string; keys: Record<string, string> };
  let b: { id: string; keys: Record<string, string> };
  const refs: Record<string, string> = {};

  before(async () => {
    svc = await startService();
    svc.startWorker();
    a = await svc.tenant('weights-a', ['farmer', 'customer']);
    b = await svc.tenant('weights-b', ['customer']);
    const f = svc.client(a.keys.farmer);
    const cluster = await f.POST('/v1/clusters', { body: CLUSTER as never });
    assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
    refs.clusterId = cluster.data!.id;
    const forecast = await f.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: refs.clusterId } }, body: { slotSeconds: 300, slots: SLOTS, quantile: 0.9, usage: { w01: { cpu: flat(0.2) }, w02: { cpu: flat(0) } } } });
    assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));
    refs.forecastId = forecast.data!.id;
    for (const [t, key] of [['a', a.keys.customer], ['b', b.keys.customer]] as const) {
      const batch = await svc.client(key).POST('/v1/batches', { body: { name: 'w', jobs: JOBS as never } });
      assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
      refs[`batch-${t}`] = batch.data!.id;
    }
  });
  after(async () => svc?.close());

  const operator = () => svc.client(svc.operatorKey);
  const setWeights = (id: string, body: Json) => operator().PUT('/v1/tenants/{id}/score-weights', { params: { path: { id } }, body });

  it('the operator sets a tenant\'s default; bad weights name every field and change nothing; others may not', async () => {
    const fresh = await operator().GET('/v1/tenants/{id}', { params: { path: { id: a.id } } });
    assert.deepEqual(fresh.data!.scoreWeights, { alpha: 1, beta: 1, gamma: 1 });
    const bad = await setWeights(a.id, { alpha: -1, beta: 'much' });
    assert.deepEqual(problem(bad, 422).problems.map((p: Json) => p.path).sort(), ['alpha', 'beta', 'gamma']);
    assert.deepEqual(problem(await setWeights(a.id, { alpha: 0, beta: 0, gamma: 0 }), 422).problems.map((p: Json) => p.path), ['alpha']);
    problem(await svc.client(a.keys.customer).PUT('/v1/tenants/{id}/score-weights', { params: { path: { id: a.id } }, body: { alpha: 1, beta: 1, gamma: 1 } }), 403);
    problem(await setWeights('00000000-0000-4000-8000-000000000000', { alpha: 1, beta: 1, gamma: 1 }), 404);
    assert.deepEqual((await operator().GET('/v1/tenants/{id}', { params: { path: { id: a.id } } })).data!.scoreWeights, { alpha: 1, beta: 1, gamma: 1 });
    const set = await setWeights(a.id, { alpha: 0.5, beta: 0, gamma: 4 });
    assert.equal(set.response.status, 200, JSON.stringify(set.error));
    assert.deepEqual(set.data!.scoreWeights, { alpha: 0.5, beta: 0, gamma: 4 });
    assert.deepEqual((await operator().GET('/v1/tenants/{id}', { params: { path: { id: a.id } } })).data!.scoreWeights, { alpha: 0.5, beta: 0, gamma: 4 });
  });

  it('a portfolio solve weighs its members with the tenant\'s default, a request\'s own values override it, other tenants keep 1/1/1', async () => {
    const solved = async (key: string, body: Json) => {
      const r = await svc.client(key).POST('/v1/solves', { body: { clusterId: refs.clusterId, forecastId: refs.forecastId, strategy: 'portfolio', timeBudgetMs: 2000, ...body } });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      const done = await waitFor('the solve to end', async () => {
        const s = await svc.client(key).GET('/v1/solves/{id}', { params: { path: { id: r.data!.id } } });
        return s.data && ['succeeded', 'failed', 'cancelled'].includes(s.data.status) ? s.data : undefined;
      }, 60_000);
      assert.equal(done.status, 'succeeded', done.error ?? '');
      const plan = await svc.client(key).GET('/v1/plans/{id}', { params: { path: { id: done.planId! } } });
      assert.deepEqual((plan.data!.stats as Json).weights, done.scoreWeights, 'the engine weighed the members with what the solve says');
      return done.scoreWeights;
    };
    assert.deepEqual(await solved(a.keys.customer, { batchId: refs['batch-a'] }), { alpha: 0.5, beta: 0, gamma: 4 });
    assert.deepEqual(await solved(a.keys.customer, { batchId: refs['batch-a'], gamma: 1 }), { alpha: 0.5, beta: 0, gamma: 1 });
    assert.deepEqual(await solved(b.keys.customer, { batchId: refs['batch-b'] }), { alpha: 1, beta: 1, gamma: 1 });
    const before = Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM solves'))[0].n);
    const other = await svc.client(a.keys.customer).POST('/v1/solves', { body: { clusterId: refs.clusterId, forecastId: refs.forecastId, batchId: refs['batch-a'], strategy: 'ls', alpha: 2 } });
    assert.deepEqual(problem(other, 422).problems.map((p: Json) => p.path), ['alpha']);
    const negative = await svc.client(a.keys.customer).POST('/v1/solves', { body: { clusterId: refs.clusterId, forecastId: refs.forecastId, batchId: refs['batch-a'], strategy: 'portfolio', alpha: 0, gamma: 0 } });
    assert.deepEqual(problem(negative, 422).problems.map((p: Json) => p.path), ['alpha'], 'with beta 0 from the tenant every weight would be 0');
    assert.equal(Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM solves'))[0].n), before);
  });

  it('a posum simulation uses the tenant\'s default unless the request gives its own', async () => {
    const posum = async (body: Json) => {
      const r = await svc.client(a.keys.customer).POST('/v1/simulations', { body: { clusterId: refs.clusterId, forecastId: refs.forecastId, batchId: refs['batch-a'], policy: 'posum', qos: 'none', ...body } });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      return (r.data!.posum as Json).weights;
    };
    assert.deepEqual(await posum({}), { alpha: 0.5, beta: 0, gamma: 4 });
    assert.deepEqual(await posum({ beta: 2 }), { alpha: 0.5, beta: 2, gamma: 4 });
  });
});
