/**
 * Accounting on the simulated basis against the real service: a plan solved for revenue on a worker and
 * committed is simulated twice; basis=simulated shows its jobs pending before any simulation, then follows the latest
 * succeeded one: with actual = forecast it agrees with the plan, under a heavier actual load the job that
 * ends past its deadline is late with its penalty, at startsAt + its simulated end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountingCluster, HOUR, STARTS_AT, stage } from '../support/accounting-fixtures';
import { Service, startService, waitFor } from '../../harness/service';

const SLOTS = 24;
const CLUSTER = accountingCluster('sim-acc');
const JOBS = [
  { id: 'j1', deadlineSlot: 6, revenue: { onTime: 1000, late: -200 }, stages: [stage('map', 2, 1), stage('reduce', 1, 1, ['map'])] },
  { id: 'j2', revenue: { onTime: 750, late: 750 }, stages: [stage('map', 2, 1)] },
];

type Json = any;

describe('accounting on the simulated basis', () => {
  let svc: Service;
  let farmer: { id: string; keys: Record<string, string> };
  let customer: { id: string; keys: Record<string, string> };
  let forecastId: string;
  let planId: string;
  let plan: Json;
  const range = `from=${encodeURIComponent(STARTS_AT)}&to=${encodeURIComponent('2030-01-03T00:00:00Z')}`;
  const get = async (key: string, path: string): Promise<{ status: number; body: Json }> => {
    const r = await fetch(`${svc.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    return { status: r.status, body: await r.json() };
  };
  const simulate = async (body: Json) => {
    const c = svc.client(customer.keys.customer);
    const r = await c.POST('/v1/plans/{planId}/simulations', { params: { path: { planId } }, body });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const done = await waitFor('the simulation to end', async () => {
      const s = await c.GET('/v1/simulations/{id}', { params: { path: { id: r.data!.id } } });
      return s.data && ['succeeded', 'failed'].includes(s.data.status) ? s.data : undefined;
    }, 45_000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    return done.report!;
  };

  before(async () => {
    svc = await startService();
    svc.startWorker();
    farmer = await svc.tenant('sim-farm', ['farmer']);
    customer = await svc.tenant('sim-cust', ['customer']);
    const share = await svc.client(svc.operatorKey).PUT('/v1/tenants/{id}/revenue-share', { params: { path: { id: farmer.id } }, body: { shareBps: 3000 } });
    assert.equal(share.response.status, 200, JSON.stringify(share.error));
    const f = svc.client(farmer.keys.farmer);
    const cluster = await f.POST('/v1/clusters', { body: CLUSTER as never });
    assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
    const forecast = await f.POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId: cluster.data!.id } },
      body: { slotSeconds: HOUR, slots: SLOTS, quantile: 0.9, startsAt: STARTS_AT, usage: { w01: { cpu: Array(SLOTS).fill(0.25) } } },
    });
    assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));
    forecastId = forecast.data!.id;
    const c = svc.client(customer.keys.customer);
    const batch = await c.POST('/v1/batches', { body: { name: 'nightly', jobs: JOBS as never } });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
    // Both jobs on time earn the revenue bound, where ls stops: the budget is only a backstop, so that a
    // busy machine still gets that plan.
    const solve = await c.POST('/v1/solves', {
      body: { clusterId: cluster.data!.id, forecastId, batchId: batch.data!.id, strategy: 'ls', objective: 'revenue', startsAt: STARTS_AT, timeBudgetMs: 30_000 },
    });
    assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
    const done = await waitFor('the solve to end', async () => {
      const r = await c.GET('/v1/solves/{id}', { params: { path: { id: solve.data!.id } } });
      return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
    }, 60_000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    planId = done.planId!;
    plan = (await c.GET('/v1/plans/{id}', { params: { path: { id: planId } } })).data;
    assert.ok(plan.kpis.jobs.every((j: Json) => j.accepted && j.onTime), 'the plan runs both jobs on time');
    // Accounting counts committed plans only, on the simulated basis too.
    const committed = await c.POST('/v1/plans/{id}/commit', { params: { path: { id: planId } } });
    assert.equal(committed.response.status, 200, JSON.stringify(committed.error));
    assert.equal(committed.data!.status, 'committed');
  });
  after(async () => svc?.close());

  it('before any simulation every job is pending, with no amount', async () => {
    const r = await get(customer.keys.customer, `/v1/accounting/customer?${range}&basis=simulated`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.basis, 'simulated');
    assert.deepEqual(r.body.jobs.map((j: Json) => [j.job, j.sla, j.net]).sort(), [['j1', 'pending', 0], ['j2', 'pending', 0]]);
  });

  it('with actual = forecast the simulated basis agrees with the plan', async () => {
    const report = await simulate({ actualForecastId: forecastId });
    assert.equal(report.relaunches, 0);
    const sim = (await get(customer.keys.customer, `/v1/accounting/customer?${range}&basis=simulated`)).body;
    const planned = (await get(customer.keys.customer, `/v1/accounting/customer?${range}`)).body;
    assert.deepEqual(sim.jobs.map((j: Json) => [j.job, j.sla, j.net]), planned.jobs.map((j: Json) => [j.job, j.sla, j.net]));
    assert.equal(sim.totals.net, plan.kpis.revenue);
    for (const j of report.jobs) {
      const line = sim.jobs.find((l: Json) => l.job === j.id);
      assert.equal(line.endAt, new Date(Date.parse(STARTS_AT) + j.endSeconds! * 1000).toISOString(), 'placed at startsAt + the simulated end');
    }
  });

  it('a job the simulation ends past its deadline is late with its penalty, in every view', async () => {
    // The regular customers take 95% of both nodes' CPU: Salamander's controller throttles (0.2 core left per
    // node), so j1's two hours of work take ten or more: past its 6 h deadline.
    const heavy = { w01: { cpu: Array(SLOTS).fill(0.95) }, w02: { cpu: Array(SLOTS).fill(0.95) } };
    const report = await simulate({ actualUsage: heavy, qos: 'salamander' });
    const j1run = report.jobs.find((j) => j.id === 'j1')!;
    assert.ok(j1run.endSeconds! > 6 * HOUR, `j1 ends at ${j1run.endSeconds}`);
    assert.equal(j1run.onTime, false);
    const r = await get(customer.keys.customer, `/v1/accounting/customer?${range}&basis=simulated`);
    const j1 = r.body.jobs.find((j: Json) => j.job === 'j1');
    assert.deepEqual([j1.sla, j1.amountDue, j1.penalty, j1.net], ['late', 0, 200, -200], 'the latest succeeded simulation decides');
    assert.equal(j1.endAt, new Date(Date.parse(STARTS_AT) + j1run.endSeconds! * 1000).toISOString());
    assert.equal(j1.deadlineAt, new Date(Date.parse(STARTS_AT) + 6 * HOUR * 1000).toISOString());
    const j2 = r.body.jobs.find((j: Json) => j.job === 'j2');
    assert.deepEqual([j2.sla, j2.amountDue], ['on-time', 750], 'no deadline: on time whenever it ends');
    assert.deepEqual([r.body.totals.late, r.body.totals.penalties, r.body.totals.net], [1, 200, 550]);

    const o = (await get(svc.operatorKey, `/v1/accounting/operator?${range}&basis=simulated`)).body.totals;
    assert.deepEqual([o.revenue, o.penalties, o.payouts, o.jobsLate], [750, 200, Math.floor((750 * 3000) / 10000), 1]);
    assert.equal(o.margin, 750 - 200 - 225);
    const f = (await get(farmer.keys.farmer, `/v1/accounting/farmer?${range}&basis=simulated`)).body;
    assert.deepEqual([f.totals.jobsRun, f.totals.shareEarned], [2, 225]);
    assert.ok(f.totals.capacityLent.cpu > 0, 'capacity lent as planned');
  });
});
