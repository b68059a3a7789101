/**
 * End to end through the generated OpenAPI client: a farmer posts a cluster and its forecast, a customer a
 * batch, the customer solves by reference with a 3 s budget on a worker process, and the stored plan is
 * verified by the engine's evaluator (and check-plan.py when ../shared is present) against the instance
 * the solve assembled.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { checkerAvailable, checkPlan, SKIP_MESSAGE } from '../support/check-plan';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { Service, startService, stopChild, waitFor } from '../../harness/service';

describe('full flow: cluster, forecast, batch, solve, plan', () => {
  let svc: Service;
  before(async () => {
    svc = await startService();
  });
  after(async () => svc?.close());

  it('solves a generated ephemeral instance posted piece by piece and returns a feasible plan', async (t) => {
    if (!checkerAvailable()) t.diagnostic(SKIP_MESSAGE);
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const source = ephemeralInstance({ nodes: 6, jobs: 5, slots: 96, seed: 11 });
    const farmer = svc.client((await svc.tenant('dc-north', ['farmer'])).keys.farmer);
    const customer = svc.client((await svc.tenant('acme', ['customer'])).keys.customer);

    const cluster = await farmer.POST('/v1/clusters', { body: { name: 'north', metrics: source.metrics, nodes: source.nodes as never } });
    assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
    assert.equal(cluster.response.headers.get('location'), `/v1/clusters/${cluster.data!.id}`);
    const clusterId = cluster.data!.id;
    const forecast = await farmer.POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: source.horizon.slotSeconds, slots: source.horizon.slots, quantile: 0.9, usage: source.usage! },
    });
    assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));
    const batch = await customer.POST('/v1/batches', { body: { name: 'nightly', jobs: source.jobs as never } });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));

    const solve = await customer.POST('/v1/solves', {
      body: { clusterId, forecastId: forecast.data!.id, batchId: batch.data!.id, strategy: 'auto', timeBudgetMs: 3000, safetyMargin: 0.05, seed: 3 },
    });
    assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
    const location = solve.response.headers.get('location')!;
    assert.equal(solve.data!.clusterVersion, 1);

    const done = await waitFor('the solve to end', async () => {
      const r = await customer.GET('/v1/solves/{id}', { params: { path: { id: location.split('/').pop()! } } });
      return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
    }, 60000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const plan = await customer.GET('/v1/plans/{id}', { params: { path: { id: done.planId! } } });
    assert.ok(plan.data, JSON.stringify(plan.error));
    assert.equal(plan.data.format, 'fallow.plan/v1');
    assert.ok(plan.data.bound && typeof plan.data.gap === 'number');

    // The instance the service assembled: the source with its customer, safety margin and horizon.
    const rows = await svc.sql<{ instance: InstanceDoc }>('SELECT instance FROM solves WHERE id = $1', [done.id]);
    const instance = rows[0].instance;
    assert.deepEqual(instance.safetyMargin, { cpu: 0.05, ram: 0.05 });
    assert.deepEqual(instance.usage, source.usage);
    const evaluation = evaluatePlan(loadInstance(instance), plan.data);
    assert.ok(evaluation.ok, evaluation.violations.join('; '));
    assert.equal(evaluation.kpis.scheduledTasks, plan.data.objective.scheduledTasks);
    if (checkerAvailable()) {
      const verdict = checkPlan(instance, plan.data);
      assert.ok(verdict.feasible, verdict.errors.join('; '));
    }

    // A new cluster version does not change what the finished solve used.
    const update = await farmer.PUT('/v1/clusters/{id}', { params: { path: { id: clusterId } }, body: { metrics: source.metrics, nodes: source.nodes.slice(0, 3) as never } });
    assert.equal(update.response.status, 200, JSON.stringify(update.error));
    const again = await customer.GET('/v1/solves/{id}', { params: { path: { id: done.id } } });
    assert.equal(again.data!.clusterVersion, 1);
  });
});
