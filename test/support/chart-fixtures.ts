/**
 * A plan solved through the service for the chart tests: three nodes, three jobs that fit and one that cannot
 * (its tasks ask for more CPU than any node has, so the plan rejects it), and a replay of it under a heavier
 * load than forecast, so that Cuckoo's QoS as Salamander reads it (cuckoo-salamander-reading: kills for CPU) kills and relaunches tasks.
 */
import assert from 'node:assert/strict';
import { Service, waitFor } from '../../harness/service';

export const SLOT_SECONDS = 300;
export const SLOTS = 24;
const flat = (v: number) => Array(SLOTS).fill(v);

export const CHART_CLUSTER = {
  name: 'charts-north',
  metrics: ['cpu', 'ram'],
  nodes: [
    { id: 'c01', capacity: { cpu: 4, ram: 16 }, speed: 1 },
    { id: 'c02', capacity: { cpu: 4, ram: 16 }, speed: 1 },
    { id: 'c03', capacity: { cpu: 8, ram: 32 }, speed: 2 },
  ],
};
const FORECAST = { c01: { cpu: flat(0.25), ram: flat(0.1) }, c02: { cpu: flat(0), ram: flat(0.2) }, c03: { cpu: flat(0.5), ram: flat(0.3) } };
export const CHART_JOBS = [
  {
    id: 'wordcount',
    deadlineSlot: 12,
    revenue: { onTime: 100, late: -20 },
    stages: [
      { id: 'map', tasks: 6, demand: { cpu: 1, ram: 2 }, durationSeconds: 600 },
      { id: 'reduce', tasks: 2, after: ['map'], demand: { cpu: 1, ram: 2 }, durationSeconds: 300 },
    ],
  },
  { id: 'sort', revenue: { onTime: 50, late: 50 }, stages: [{ id: 'map', tasks: 4, demand: { cpu: 1, ram: 2 }, durationSeconds: 900 }] },
  { id: 'join', revenue: { onTime: 30, late: 10 }, stages: [{ id: 'map', tasks: 3, demand: { cpu: 2, ram: 4 }, durationSeconds: 600 }] },
  { id: 'too-big', revenue: { onTime: 500, late: 0 }, stages: [{ id: 'map', tasks: 1, demand: { cpu: 64, ram: 2 }, durationSeconds: 300 }] },
];
export const SCHEDULED_TASKS = 8 + 4 + 3;

/** Posts the cluster, forecast and batch as tenant `keys`, solves, and returns the plan's id and document. */
export async function solvedPlan(svc: Service, keys: Record<string, string>): Promise<{ planId: string; plan: any }> {
  const farmer = svc.client(keys.farmer);
  const customer = svc.client(keys.customer);
  const cluster = await farmer.POST('/v1/clusters', { body: CHART_CLUSTER as never });
  assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
  const clusterId = cluster.data!.id;
  const forecast = await farmer.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: SLOT_SECONDS, slots: SLOTS, quantile: 0.9, startsAt: '2030-01-01T00:00:00Z', usage: FORECAST } });
  assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));
  const batch = await customer.POST('/v1/batches', { body: { name: 'charts', jobs: CHART_JOBS as never } });
  assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
  const solve = await customer.POST('/v1/solves', { body: { clusterId, forecastId: forecast.data!.id, batchId: batch.data!.id, strategy: 'ls', timeBudgetMs: 1000, startsAt: '2030-01-01T00:00:00Z' } });
  assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
  const done = await waitFor('the solve to end', async () => {
    const r = await customer.GET('/v1/solves/{id}', { params: { path: { id: solve.data!.id } } });
    return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
  }, 60_000);
  assert.equal(done.status, 'succeeded', done.error ?? '');
  const plan = (await customer.GET('/v1/plans/{id}', { params: { path: { id: done.planId! } } })).data as any;
  assert.equal(plan.objective.scheduledTasks, SCHEDULED_TASKS, 'every job but too-big is scheduled');
  assert.deepEqual(plan.rejected, ['too-big']);
  return { planId: done.planId!, plan };
}

/** Replays the plan with every node's CPU taken by the regular customers after a while (kills under Salamander's reading of Cuckoo's controller; Cuckoo's own would throttle); waits for the report. */
export async function simulatedPlan(svc: Service, key: string, planId: string): Promise<any> {
  const heavy = (v0: number) => Array.from({ length: SLOTS }, (_, t) => (t < 3 ? v0 : 0.9));
  const actualUsage = { c01: { cpu: heavy(0.25), ram: flat(0.1) }, c02: { cpu: heavy(0), ram: flat(0.2) }, c03: { cpu: heavy(0.5), ram: flat(0.3) } };
  const client = svc.client(key);
  const r = await client.POST('/v1/plans/{planId}/simulations', { params: { path: { planId } }, body: { actualUsage, qos: 'cuckoo-salamander-reading', seed: 1 } });
  assert.equal(r.response.status, 202, JSON.stringify(r.error));
  const done = await waitFor('the simulation to end', async () => {
    const s = await client.GET('/v1/simulations/{id}', { params: { path: { id: r.data!.id } } });
    return s.data && ['succeeded', 'failed'].includes(s.data.status) ? s.data : undefined;
  }, 60_000);
  assert.equal(done.status, 'succeeded', done.error ?? '');
  return done;
}

/** GET with an optional Bearer key, the body as text. */
export async function getText(svc: Service, path: string, key?: string): Promise<{ status: number; type: string; body: string; headers: Headers }> {
  const res = await fetch(svc.baseUrl + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text(), headers: res.headers };
}
