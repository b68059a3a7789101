/**
 * A re-plan plans on the cluster as it is now (refresh current, the default): a node removed from the cluster is
 * lost (its started tasks run again elsewhere), a node added is used, and a newer forecast's regular load replaces
 * the plan's where it covers the window; refresh none plans on the instance as it was solved. The service itself
 * re-plans through ReplansService.replan(planId, { system, reason }, body), which the re-plan records. Events reported on
 * an earlier version's solve still count. Real Postgres, Redis and a worker process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AssignmentDoc, InstanceDoc } from '../../src/engine/model/types';
import { ReplansService } from '../../src/modules/replans/replans.service';
import { Service, startService, waitFor } from '../../harness/service';

type Json = any;

const HOUR = 3600;
const T0 = Math.floor(Date.now() / (HOUR * 1000)) * HOUR * 1000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const JOBS = [
  {
    id: 'etl',
    stages: [
      { id: 'map', tasks: 4, demand: { cpu: 2 }, durationSeconds: HOUR },
      { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1 }, durationSeconds: HOUR },
    ],
  },
];
const key = (a: Pick<AssignmentDoc, 'job' | 'stage' | 'task'>) => `${a.job}/${a.stage}/${a.task}`;

describe('a re-plan reads the cluster as it is now', () => {
  let svc: Service;
  let farmer: string;
  let customer: string;
  let clusterId: string;
  let first: { solveId: string; plan: Json };
  let started: AssignmentDoc[];

  before(async () => {
    svc = await startService();
    svc.startWorker();
    farmer = (await svc.tenant('farm', ['farmer'])).keys.farmer;
    customer = (await svc.tenant('shop', ['customer'])).keys.customer;
    const nodes = [
      { id: 'n1', capacity: { cpu: 4 } },
      { id: 'n2', capacity: { cpu: 4 } },
    ];
    clusterId = (await svc.client(farmer).POST('/v1/clusters', { body: { name: 'changing', metrics: ['cpu'], nodes, lendable: true } })).data!.id;
    const f = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: HOUR, slots: 6, startsAt: at(0), usage: { n1: { cpu: Array(6).fill(0) } } } });
    assert.ok(f.data, JSON.stringify(f.error));
    const batchId = (await svc.client(customer).POST('/v1/batches', { body: { name: 'etl', jobs: JOBS as never } })).data!.id;
    const r = await svc.client(customer).POST('/v1/solves', { body: { clusterId, batchId, startsAt: at(0), strategy: 'rffd', timeBudgetMs: 300 } });
    const solve = await ended(r.data!.id);
    first = { solveId: solve.id, plan: (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: solve.planId } } })).data };
    // The farmer reports every task of the first slot started where planned.
    started = (first.plan.assignments as AssignmentDoc[]).filter((a) => a.start === 0);
    assert.deepEqual([...new Set(started.map((a) => a.node))].sort(), ['n1', 'n2'], JSON.stringify(first.plan.assignments));
    const events = started.map((a, i) => ({ id: `s${i}`, solveId: first.solveId, job: a.job, stage: a.stage, task: a.task, node: a.node, type: 'started', at: at(5) }));
    assert.equal((await svc.client(farmer).POST('/v1/executions/events', { body: { events } as never })).response.status, 200);
  });
  after(async () => svc?.close());

  async function ended(id: string): Promise<Json> {
    const s = await waitFor(`solve ${id} to end`, async () => {
      const x = (await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id } } })).data!;
      return ['succeeded', 'failed', 'cancelled'].includes(x.status) ? x : undefined;
    }, 90_000);
    assert.equal(s.status, 'succeeded', JSON.stringify(s));
    return s;
  }
  const instanceOf = async (id: string) => (await svc.client(customer).GET('/v1/solves/{id}/instance', { params: { path: { id } } })).data as unknown as InstanceDoc;
  const planOf = async (id: string) => (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id } } })).data!;

  let second: Json;

  it('refresh none: the instance as it was solved, the started tasks frozen where they run', async () => {
    // The cluster changes first (n2 taken back, n3 added) and gets a newer forecast; refresh none ignores both.
    const put = await svc.client(farmer).PUT('/v1/clusters/{id}', { params: { path: { id: clusterId } }, body: { metrics: ['cpu'], nodes: [{ id: 'n1', capacity: { cpu: 4 } }, { id: 'n3', capacity: { cpu: 4 } }] } as never });
    assert.equal(put.response.status, 200, JSON.stringify(put.error));
    const r = await svc.client(customer).POST('/v1/plans/{id}/replan', { params: { path: { id: first.plan.id } }, body: { nowSlot: 1, refresh: 'none', strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    second = await ended(r.data!.id);
    assert.equal(second.clusterVersion, 1);
    const instance = await instanceOf(second.id);
    assert.deepEqual(instance.nodes.map((n) => n.id), ['n1', 'n2']);
    assert.deepEqual(instance.frozen!.assignments.map(key), started.map(key));
  });

  it('refresh current (the default), asked by the service itself: the lost node gone, the new one used, the newer forecast read', async () => {
    const newer = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: HOUR, slots: 5, startsAt: at(60), usage: { n1: { cpu: Array(5).fill(0.25) } } } });
    assert.ok(newer.data, JSON.stringify(newer.error));
    const replans = svc.app.get(ReplansService, { strict: false });
    const queued = await replans.replan(second.planId, { system: true, reason: 'node n2 was taken back' }, { nowSlot: 1, strategy: 'rffd', timeBudgetMs: 300 });
    const done = await ended(queued.id);
    assert.equal(done.kind, 'replan');
    assert.equal(done.replan.requestedBy, 'system');
    assert.equal(done.replan.reason, 'node n2 was taken back');
    assert.equal(done.clusterVersion, 2);
    assert.equal(done.forecastId, newer.data.id);
    const instance = await instanceOf(done.id);
    assert.deepEqual(instance.nodes.map((n) => n.id), ['n1', 'n3']);
    // Slot 0 is past (the plan's forecast), the newer one from slot 1.
    assert.deepEqual(instance.usage, { n1: { cpu: [0, 0.25, 0.25, 0.25, 0.25, 0.25] } });
    // The maps on n2 (reported on the first version's solve) run again; those on n1 stay.
    const onN1 = started.filter((a) => a.node === 'n1').map(key);
    const onN2 = started.filter((a) => a.node === 'n2').map(key);
    assert.deepEqual(instance.frozen!.assignments.map(key), onN1);
    assert.deepEqual(done.replan.rerun.tasks.filter((t: Json) => t.reason === 'node-lost').map(key), onN2);
    assert.equal(done.replan.rerun.nodeLost, onN2.length);
    const plan = await planOf(done.planId);
    assert.equal(plan.version, 3);
    assert.ok((plan.assignments as AssignmentDoc[]).every((a) => a.node !== 'n2'), JSON.stringify(plan.assignments));
    for (const k of onN2) assert.ok((plan.assignments as AssignmentDoc[]).find((a) => key(a) === k)!.start >= 1, `${k} runs again from slot 1`);
  });
});
