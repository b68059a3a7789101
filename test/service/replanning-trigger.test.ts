/**
 * Automatic re-planning (issue 39 part 2): a cluster's farmer turns it on (PUT /v1/clusters/{id}/replanning,
 * validated naming every bad field), and then a node-lost event, a killed task or usage that misses the plan's
 * forecast requests a re-plan of each running plan it concerns (GET /v1/clusters/{id}/replanning/requests), at
 * most once per minIntervalSeconds per plan (and its versions), also when two API processes fire at once, and
 * hands it to the re-planning API: end to end, a node-lost gives a new version of the plan that takes over its
 * commitment and puts nothing on the node while it is lost. Real Postgres, Redis, a worker and a second API process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ExtraApi, Service, startService, waitFor } from '../../harness/service';
import { problem } from '../support/problem';
import { solveToEnd } from '../support/solve-to-end';
import { farmAndShop } from '../support/farm-and-shop';

const HOUR_MS = 3_600_000;
const NODES = [
  { id: 'n1', capacity: { cpu: 4 } },
  { id: 'n2', capacity: { cpu: 4 } },
];
/** Ten one-hour tasks of 2 cores: under the forecast's 10 % load one a node at a time, so both nodes run slots 0 to 4. */
const JOBS = [{ id: 'etl', stages: [{ id: 'map', tasks: 10, demand: { cpu: 2 }, durationSeconds: 3600 }] }];

type Json = any;

describe('automatic re-planning: triggers, debounce, requests', () => {
  let svc: Service;
  let second: ExtraApi;
  let farmer: string;
  let otherFarmer: string;
  let customer: string;
  let batchId: string;
  const iso = (ms: number) => new Date(ms).toISOString();

  before(async () => {
    svc = await startService();
    svc.startWorker();
    second = await svc.startApi();
    ({ farmer, otherFarmer, customer, batchId } = await farmAndShop(svc, 'replan', JOBS));
  });
  after(async () => svc?.close());

  /**
   * A cluster whose forecast (10 % cpu on both nodes, six hourly slots) started half an hour ago, and a committed
   * plan on it made now: a running plan (its window started), its tasks on both nodes in slots 0 to 4.
   */
  async function runningPlan(settings?: Json, batch = batchId): Promise<{ clusterId: string; t0: number; solveId: string; plan: Json }> {
    const f = svc.client(farmer);
    const c = await f.POST('/v1/clusters', { body: { name: 'replan', metrics: ['cpu'], nodes: NODES } });
    assert.ok(c.data, JSON.stringify(c.error));
    const clusterId = c.data.id;
    const t0 = Date.now() - HOUR_MS / 2;
    const usage = { n1: { cpu: Array(6).fill(0.1) }, n2: { cpu: Array(6).fill(0.1) } };
    const fc = await f.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: 3600, slots: 6, startsAt: iso(t0), usage } });
    assert.ok(fc.data, JSON.stringify(fc.error));
    if (settings) assert.equal((await put(farmer, clusterId, settings)).response.status, 200);
    const { solve, plan } = await solveToEnd(svc.client(customer), { clusterId, batchId: batch, strategy: 'rffd', timeBudgetMs: 500 });
    const committed = await svc.client(customer).POST('/v1/plans/{id}/commit', { params: { path: { id: plan.id } } });
    assert.equal(committed.data?.status, 'committed', JSON.stringify(committed.error));
    return { clusterId, t0, solveId: solve.id, plan };
  }
  const put = (key: string, id: string, body: Json) => svc.client(key).PUT('/v1/clusters/{id}/replanning', { params: { path: { id } }, body });
  const get = (key: string, id: string) => svc.client(key).GET('/v1/clusters/{id}/replanning', { params: { path: { id } } });
  const requests = async (id: string) => {
    const r = await svc.client(farmer).GET('/v1/clusters/{id}/replanning/requests', { params: { path: { id } } });
    assert.ok(r.data, JSON.stringify(r.error));
    return r.data.items;
  };
  /** Waits for a re-plan's solve to end and returns it. */
  const replanEnded = (id: string): Promise<Json> =>
    waitFor(`re-plan ${id}`, async () => {
      const r = await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id } } });
      return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
    }, 90_000);
  const lose = (id: string, body: Json, api: { client: Service['client'] } = svc) => api.client(farmer).POST('/v1/clusters/{id}/events', { params: { path: { id } }, body });

  it('is off until set; a PUT names every bad field at once and writes nothing; only the farmer of the cluster (or an operator) sets it', async () => {
    const c = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'settings', metrics: ['cpu'], nodes: NODES } });
    const id = c.data!.id;
    const off = (await get(farmer, id)).data!;
    assert.deepEqual(off, { clusterId: id, enabled: false, on: ['node-lost', 'task-killed', 'forecast-miss'], forecastMissThreshold: 0.2, forecastMissWindowSeconds: 3600, minIntervalSeconds: 600, updatedAt: null });
    const bad = await put(farmer, id, { enabled: 'yes', on: ['node-lost', 'node-lost', 'reboot'], forecastMissThreshold: 1.5, forecastMissWindowSeconds: 10, minIntervalSeconds: -1 });
    assert.deepEqual(problem(bad, 422).problems.map((p) => p.path), ['enabled', 'on[1]', 'on[2]', 'forecastMissThreshold', 'forecastMissWindowSeconds', 'minIntervalSeconds']);
    const typo = await put(farmer, id, { enabled: true, minInterval: 60 });
    assert.deepEqual(problem(typo, 422).problems.map((p) => p.path), ['minInterval']);
    assert.equal((await get(farmer, id)).data!.updatedAt, null);
    assert.equal((await put(customer, id, { enabled: true })).response.status, 403);
    assert.equal((await put(otherFarmer, id, { enabled: true })).response.status, 404);
    assert.equal((await get(otherFarmer, id)).response.status, 404);
    const on = await put(farmer, id, { enabled: true, on: ['node-lost'], minIntervalSeconds: 0 });
    assert.deepEqual({ ...on.data!, updatedAt: typeof on.data!.updatedAt }, { clusterId: id, enabled: true, on: ['node-lost'], forecastMissThreshold: 0.2, forecastMissWindowSeconds: 3600, minIntervalSeconds: 0, updatedAt: 'string' });
    assert.deepEqual((await get(svc.operatorKey, id)).data, on.data);
  });

  it('automatic re-planning after a node-lost event: the running plan with a task on the node during the loss gets a request, once per interval', async () => {
    const { clusterId, t0, plan } = await runningPlan({ enabled: true, minIntervalSeconds: 3600 });
    // A loss after the plan's last task concerns no plan.
    assert.equal((await lose(clusterId, { type: 'node-lost', node: 'n1', at: iso(t0 + 5 * HOUR_MS), until: iso(t0 + 6 * HOUR_MS) })).response.status, 201);
    assert.deepEqual(await requests(clusterId), []);
    // n1 lost for slot 2: the plan's tasks still fit (n1's other five slots and n2's six), so its re-plan keeps the job.
    const lost = await lose(clusterId, { type: 'node-lost', node: 'n1', at: iso(t0 + 2 * HOUR_MS), until: iso(t0 + 3 * HOUR_MS), reason: 'taken back' });
    assert.equal(lost.response.status, 201, JSON.stringify(lost.error));
    const [r, ...more] = await requests(clusterId);
    assert.deepEqual(more, []);
    assert.deepEqual(
      { planId: r.planId, trigger: r.trigger, status: r.status, detail: r.detail },
      { planId: plan.id, trigger: 'node-lost', status: 'queued', detail: { eventId: lost.data!.id, node: 'n1', from: iso(t0 + 2 * HOUR_MS), until: iso(t0 + 3 * HOUR_MS) } },
    );
    assert.match(r.reason, /node n1 lost from/);
    assert.ok(r.solveId, 'the re-plan was queued');
    await replanEnded(r.solveId!);
    // Within minIntervalSeconds another loss requests nothing more, for the plan or its new version.
    assert.equal((await lose(clusterId, { type: 'node-lost', node: 'n2' })).response.status, 201);
    assert.equal((await requests(clusterId)).length, 1);
    // With no interval, it does (n2 lost from now: every task the new version holds there); turned off, nothing does.
    assert.equal((await put(farmer, clusterId, { enabled: true, minIntervalSeconds: 0 })).response.status, 200);
    assert.equal((await lose(clusterId, { type: 'node-lost', node: 'n2' })).response.status, 201);
    assert.equal((await requests(clusterId)).length, 2);
    assert.equal((await put(farmer, clusterId, { enabled: false, minIntervalSeconds: 0 })).response.status, 200);
    assert.equal((await lose(clusterId, { type: 'node-lost', node: 'n2' })).response.status, 201);
    assert.equal((await requests(clusterId)).length, 2);
    assert.equal((await svc.client(customer).GET('/v1/clusters/{id}/replanning/requests', { params: { path: { id: clusterId } } })).response.status, 403);
  });

  it('end to end: a node lost now is re-planned around; the new version supersedes the plan, holds its commitment and puts nothing on the node while it is lost', async () => {
    // Six one-hour tasks of 2 cores: the plan runs three on each node, in slots 0 to 2.
    const small = await svc.client(customer).POST('/v1/batches', { body: { name: 'small', jobs: [{ id: 'six', stages: [{ id: 'map', tasks: 6, demand: { cpu: 2 }, durationSeconds: 3600 }] }] } });
    const { clusterId, t0, plan } = await runningPlan({ enabled: true, on: ['node-lost'], minIntervalSeconds: 3600 }, small.data!.id);
    assert.ok(plan.assignments.some((a: Json) => a.node === 'n1'), 'the plan runs tasks on n1');
    const until = t0 + 2 * HOUR_MS;
    const lost = await lose(clusterId, { type: 'node-lost', node: 'n1', until: iso(until), reason: 'taken back' });
    assert.equal(lost.response.status, 201, JSON.stringify(lost.error));
    const [request] = await requests(clusterId);
    assert.deepEqual({ planId: request.planId, status: request.status, error: request.error }, { planId: plan.id, status: 'queued', error: null });
    const solve = await replanEnded(request.solveId!);
    assert.equal(solve.status, 'succeeded', solve.error ?? '');
    assert.equal(solve.kind, 'replan');
    assert.equal(solve.replan.requestedBy, 'system');
    assert.match(solve.replan.reason, /^node-lost: node n1 lost from/);
    const next = (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: solve.planId! } } })).data!;
    const old = (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: plan.id } } })).data!;
    assert.deepEqual({ supersedes: next.supersedes, version: next.version, status: next.status }, { supersedes: plan.id, version: 2, status: 'committed' });
    assert.deepEqual({ supersededBy: old.supersededBy, status: old.status }, { supersededBy: next.id, status: 'released' });
    assert.equal(next.rejected.length, 0, 'every job still runs');
    // Slot t is [t0 + t h, t0 + (t + 1) h): the loss, from now to t0 + 2 h, takes slots 0 and 1 of n1 (now is in slot 0).
    const onLost = (next.assignments as Json[]).filter((a) => a.node === 'n1' && t0 + a.start * HOUR_MS < until);
    assert.deepEqual(onLost, [], 'nothing on n1 while it is lost');
    // The cluster holds the new version's tasks, none on n1 during the loss.
    const held = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM plan_holds WHERE plan_id = $1 AND node = $2 AND from_at < $3', [next.id, 'n1', new Date(until)]);
    assert.equal(held[0].n, 0);
    // A second loss within minIntervalSeconds does not re-plan the new version (it is the same plan).
    assert.equal((await lose(clusterId, { type: 'node-lost', node: 'n2', at: iso(t0 + 3 * HOUR_MS) })).response.status, 201);
    assert.equal((await requests(clusterId)).length, 1);
  });

  it('two API processes hit by node-lost events at once request one re-plan of the plan', async () => {
    const { clusterId, t0, plan } = await runningPlan({ enabled: true, minIntervalSeconds: 3600 });
    const events = await Promise.all([
      ...[0, 1, 2].map((i) => lose(clusterId, { type: 'node-lost', node: 'n1', at: iso(t0 + (1 + i) * HOUR_MS) })),
      ...[0, 1, 2].map((i) => lose(clusterId, { type: 'node-lost', node: 'n2', at: iso(t0 + (1 + i) * HOUR_MS) }, second)),
    ]);
    for (const e of events) assert.equal(e.response.status, 201, JSON.stringify(e.error));
    const made = await requests(clusterId);
    assert.deepEqual(made.map((r: Json) => r.planId), [plan.id]);
  });

  it('a killed task reported on the plan requests a re-plan when the cluster re-plans on task-killed, and not otherwise', async () => {
    const { clusterId, solveId, plan } = await runningPlan({ enabled: true, on: ['task-killed'], minIntervalSeconds: 0 });
    // node-lost is not on: nothing.
    assert.equal((await lose(clusterId, { type: 'node-lost', node: 'n1' })).response.status, 201);
    assert.deepEqual(await requests(clusterId), []);
    const a = plan.assignments.find((x: Json) => x.start === 0);
    const now = Date.now();
    const event = (id: string, type: 'started' | 'killed', at: number) => ({ id, solveId, job: a.job, stage: a.stage, task: a.task, node: a.node, type, at: iso(at) });
    const started = await svc.client(farmer).POST('/v1/executions/events', { body: { events: [event(`s-${solveId}`, 'started', now - 60_000)] } });
    assert.equal(started.response.status, 200, JSON.stringify(started.error));
    assert.deepEqual(await requests(clusterId), []);
    const killed = await svc.client(farmer).POST('/v1/executions/events', { body: { events: [event(`k-${solveId}`, 'killed', now - 1000)] } });
    assert.equal(killed.response.status, 200, JSON.stringify(killed.error));
    const [r, ...more] = await requests(clusterId);
    assert.deepEqual(more, []);
    assert.deepEqual({ planId: r.planId, trigger: r.trigger, killed: r.detail.killed }, { planId: plan.id, trigger: 'task-killed', killed: [{ solveId, job: a.job, stage: a.stage, task: a.task, node: a.node, at: iso(now - 1000) }] });
    // The same event again is a duplicate: it kills nothing new.
    await svc.client(farmer).POST('/v1/executions/events', { body: { events: [event(`k-${solveId}`, 'killed', now - 1000)] } });
    assert.equal((await requests(clusterId)).length, 1);
  });

  it('usage that misses the forecast the plan was made on by more than the threshold requests a re-plan; usage close to it, or old, does not', async () => {
    const { clusterId } = await runningPlan({ enabled: true, on: ['forecast-miss'], forecastMissThreshold: 0.3, minIntervalSeconds: 0 });
    const post = (value: number, atMs: number) =>
      svc.client(farmer).POST('/v1/clusters/{clusterId}/usage', {
        params: { path: { clusterId } },
        body: { samples: ['n1', 'n2'].map((node) => ({ timestamp: Math.floor(atMs / 1000), node, metric: 'cpu', value })) } as never,
      });
    const now = Date.now();
    // Forecast 0.1, used 0.3: a miss of 0.2, under the threshold.
    assert.equal((await post(0.3, now - 120_000)).response.status, 200);
    assert.deepEqual(await requests(clusterId), []);
    // Two days ago, far off the forecast: a back-fill, outside the window the miss is measured over.
    assert.equal((await post(1, now - 48 * HOUR_MS)).response.status, 200);
    assert.deepEqual(await requests(clusterId), []);
    // Used 0.9 later in the same slot: the slot's peak 0.9 misses 0.1 by 0.8.
    assert.equal((await post(0.9, now - 60_000)).response.status, 200);
    const [r, ...more] = await waitFor('the request', async () => {
      const made = await requests(clusterId);
      return made.length ? made : undefined;
    });
    assert.deepEqual(more, []);
    assert.equal(r.trigger, 'forecast-miss');
    assert.ok(Math.abs((r.detail.miss as number) - 0.8) < 1e-9, JSON.stringify(r.detail));
    assert.equal(r.detail.slots, 2);
    assert.equal(r.detail.threshold, 0.3);
  });
});
