/**
 * DELETE ends every kind of long work, not only solves (issue 21): a queued forecast build or simulation
 * is cancelled at once and no worker runs it later; a running build is terminated on its worker and ends
 * `cancelled` without a forecast; a DELETE whose worker died is ended by the reconciler. Before: only
 * solves had a DELETE, and a build or simulation could only be waited out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService, stopChild, waitFor } from '../../harness/service';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { usageCluster, usageHistory, usageSamples } from '../../harness/usage-fixtures';

const TERMINAL = ['succeeded', 'failed', 'cancelled'];

describe('DELETE ends any long work', () => {
  let svc: Service;
  let farmer: string;
  let customer: string;
  /** 32 nodes with 7 days of history: a GBT build on it runs for seconds, long enough to be stopped. */
  let bigCluster: string;
  let planId: string;

  const build = async (clusterId: string) => {
    const r = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts:build', { params: { path: { clusterId } }, body: { slotSeconds: 300, horizonSlots: 288, model: 'gbt', trainingDays: 7 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    return r.data!;
  };
  const getBuild = async (id: string) => (await svc.client(farmer).GET('/v1/forecast-builds/{id}', { params: { path: { id } } })).data!;
  const simulate = async () => {
    const r = await svc.client(customer).POST('/v1/plans/{planId}/simulations', { params: { path: { planId } }, body: {} });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    return r.data!;
  };
  const getSimulation = async (id: string) => (await svc.client(customer).GET('/v1/simulations/{id}', { params: { path: { id } } })).data!;

  before(async () => {
    svc = await startService();
    const t = await svc.tenant('cancel-any', ['farmer', 'customer']);
    farmer = t.keys.farmer;
    customer = t.keys.customer;
    const c = await svc.client(farmer).POST('/v1/clusters', { body: usageCluster(32, ['cpu', 'ram'], 'big') });
    assert.equal(c.response.status, 201, JSON.stringify(c.error));
    bigCluster = c.data!.id;
    const u = await svc.client(farmer).POST('/v1/clusters/{clusterId}/usage', { params: { path: { clusterId: bigCluster } }, body: { samples: usageSamples(usageHistory({ nodes: 32, days: 7, seed: 5 })) } });
    assert.equal(u.response.status, 200, JSON.stringify(u.error));
    // A plan to simulate, solved by a worker that is then stopped: what follows is queued with no worker.
    const worker = svc.startWorker();
    const s = await svc.client(customer).POST('/v1/solves', { body: { instance: ephemeralInstance({ nodes: 2, jobs: 2, seed: 4 }) as never, strategy: 'rffd', timeBudgetMs: 500 } });
    assert.equal(s.response.status, 202, JSON.stringify(s.error));
    const solved = await waitFor('the solve', async () => {
      const r = (await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id: s.data!.id } } })).data!;
      return TERMINAL.includes(r.status) ? r : undefined;
    }, 60_000);
    assert.equal(solved.status, 'succeeded', solved.error ?? '');
    planId = solved.planId!;
    await stopChild(worker);
  });
  after(() => svc?.close());

  it('a queued build and a queued simulation are cancelled at once, and no worker runs them later', async (t) => {
    const queuedBuild = await build(bigCluster);
    const queuedSim = await simulate();
    const delBuild = await svc.client(farmer).DELETE('/v1/forecast-builds/{id}', { params: { path: { id: queuedBuild.id } } });
    assert.equal(delBuild.response.status, 202);
    assert.equal(delBuild.data!.status, 'cancelled');
    const delSim = await svc.client(customer).DELETE('/v1/simulations/{id}', { params: { path: { id: queuedSim.id } } });
    assert.equal(delSim.response.status, 202);
    assert.equal(delSim.data!.status, 'cancelled');
    // Another tenant cannot cancel them (404), and a second DELETE of an ended one changes nothing.
    const other = await svc.tenant('cancel-other', ['farmer']);
    assert.equal((await svc.client(other.keys.farmer).DELETE('/v1/forecast-builds/{id}', { params: { path: { id: queuedBuild.id } } })).response.status, 404);
    assert.equal((await svc.client(farmer).DELETE('/v1/forecast-builds/{id}', { params: { path: { id: queuedBuild.id } } })).data!.status, 'cancelled');

    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const later = await simulate();
    const ran = await waitFor('the later simulation', async () => {
      const r = await getSimulation(later.id);
      return TERMINAL.includes(r.status) ? r : undefined;
    }, 60_000);
    assert.equal(ran.status, 'succeeded', ran.error ?? '');
    const [b, s] = [await getBuild(queuedBuild.id), await getSimulation(queuedSim.id)];
    assert.deepEqual([b.status, b.forecastId, b.startedAt], ['cancelled', null, null]);
    assert.deepEqual([s.status, s.report, s.startedAt], ['cancelled', null, null]);
  });

  it('a running build is terminated on its worker: cancelled, no forecast, the worker goes on', async (t) => {
    const worker = svc.startWorker();
    t.after(() => stopChild(worker));
    const running = await build(bigCluster);
    await waitFor('the build to start', async () => ((await getBuild(running.id)).status === 'running' ? true : undefined), 60_000, 20);
    const deletedAt = Date.now();
    const del = await svc.client(farmer).DELETE('/v1/forecast-builds/{id}', { params: { path: { id: running.id } } });
    assert.equal(del.response.status, 202);
    const ended = await waitFor('the build to end', async () => {
      const r = await getBuild(running.id);
      return TERMINAL.includes(r.status) ? r : undefined;
    }, 30_000, 20);
    const stoppedMs = Date.now() - deletedAt;
    assert.equal(ended.status, 'cancelled', `${ended.status} ${ended.error ?? ''}`);
    assert.equal(ended.forecastId, null);
    assert.ok(stoppedMs < 5000, `ended ${stoppedMs} ms after the DELETE`);
    const forecasts = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM forecasts WHERE cluster_id = $1', [bigCluster]);
    assert.equal(forecasts[0].n, 0);
    // The same worker then builds the same forecast to the end.
    const again = await build(bigCluster);
    const done = await waitFor('the second build', async () => {
      const r = await getBuild(again.id);
      return TERMINAL.includes(r.status) ? r : undefined;
    }, 120_000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const fullMs = Date.parse(done.finishedAt!) - Date.parse(done.startedAt!);
    t.diagnostic(`the DELETE ended the build in ${stoppedMs} ms; the whole build takes ${fullMs} ms`);
  });

  it('a DELETE whose worker died is ended by the reconciler', async (t) => {
    const worker = svc.startWorker();
    const running = await build(bigCluster);
    await waitFor('the build to start', async () => ((await getBuild(running.id)).status === 'running' ? true : undefined), 60_000, 20);
    worker.kill('SIGKILL');
    await stopChild(worker);
    const del = await svc.client(farmer).DELETE('/v1/forecast-builds/{id}', { params: { path: { id: running.id } } });
    assert.equal(del.data!.status, 'running', 'asked to stop: its worker (dead) would end it');
    // A new worker's BullMQ stall check or its reconciler ends it: either way cancelled, nothing stored.
    const next = svc.startWorker();
    t.after(() => stopChild(next));
    const ended = await waitFor('the build to end', async () => {
      const r = await getBuild(running.id);
      return TERMINAL.includes(r.status) ? r : undefined;
    }, 60_000);
    assert.equal(ended.status, 'cancelled', `${ended.status} ${ended.error ?? ''}`);
    assert.equal(ended.forecastId, null);
  });
});
