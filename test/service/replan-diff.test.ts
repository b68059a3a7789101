/**
 * GET /v1/plans/{id}/diff?against= on a hand-made case: two batches solved on one single-node cluster over the
 * same two-hour window, each with exactly one feasible plan of every task (release slots force the order), so
 * that the diff's moved, added and dropped tasks, job ends and revenue are known in advance. A plan of another
 * cluster, or none, is a 422 naming query:against.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService, waitFor } from '../../harness/service';
import { problem } from '../support/problem';

type Json = any;

const STARTS_AT = '2030-06-01T00:00:00.000Z';
const HORIZON = { slots: 2, slotSeconds: 3600 };
const task = (id: string, releaseSlot: number, revenue?: Json) => ({
  id,
  releaseSlot,
  ...(revenue ? { deadlineSlot: 1, revenue } : {}),
  stages: [{ id: 'run', tasks: 1, demand: { cpu: 1 }, durationSeconds: 3600 }],
});
/** One task an hour fits the node: `a` runs j1 then j2, `b` runs j3 then j1 (late). */
const A = [task('j1', 0, { onTime: 10, late: 3 }), task('j2', 1)];
const B = [task('j3', 0), task('j1', 1, { onTime: 10, late: 3 })];

describe('plan diff on a hand-made case', () => {
  let svc: Service;
  let customer: string;
  let farmer: string;
  let plans: { a: string; b: string; elsewhere: string };

  before(async () => {
    svc = await startService();
    svc.startWorker();
    const t = await svc.tenant('diff', ['farmer', 'customer']);
    farmer = t.keys.farmer;
    customer = t.keys.customer;
    const cluster = async (name: string) => (await svc.client(farmer).POST('/v1/clusters', { body: { name, metrics: ['cpu'], nodes: [{ id: 'n1', capacity: { cpu: 1 } }], lendable: true } })).data!.id;
    const [one, two] = [await cluster('one'), await cluster('two')];
    const solved = async (clusterId: string, jobs: Json) => {
      const batchId = (await svc.client(customer).POST('/v1/batches', { body: { name: 'b', jobs } })).data!.id;
      const r = await svc.client(customer).POST('/v1/solves', { body: { clusterId, batchId, horizon: HORIZON, startsAt: STARTS_AT, strategy: 'exact', timeBudgetMs: 2000 } });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      const s = await waitFor(`solve ${r.data!.id}`, async () => {
        const x = (await svc.client(customer).GET('/v1/solves/{id}', { params: { path: { id: r.data!.id } } })).data!;
        return ['succeeded', 'failed', 'cancelled'].includes(x.status) ? x : undefined;
      }, 90_000);
      assert.equal(s.status, 'succeeded', JSON.stringify(s));
      return s.planId as string;
    };
    plans = { a: await solved(one, A), b: await solved(one, B), elsewhere: await solved(two, A) };
  });
  after(async () => svc?.close());

  const diff = (id: string, against?: string, limit?: number) =>
    svc.client(customer).GET('/v1/plans/{id}/diff', { params: { path: { id }, query: { against: against as string, ...(limit !== undefined ? { limit } : {}) } } });

  it('the plans are the only ones possible', async () => {
    const get = async (id: string) => (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id } } })).data!.assignments.map((x) => `${x.job}@${x.node}:${x.start}`);
    assert.deepEqual(await get(plans.a), ['j1@n1:0', 'j2@n1:1']);
    assert.deepEqual(await get(plans.b), ['j3@n1:0', 'j1@n1:1']);
  });

  it('b against a: j1 moved an hour later, j3 added, j2 dropped, j1 late, the revenue 7 less', async () => {
    const r = await diff(plans.b, plans.a);
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    assert.deepEqual(r.data, {
      planId: plans.b,
      against: plans.a,
      offsetSlots: 0,
      counts: { moved: 1, added: 1, dropped: 1, kept: 0, jobsChanged: 3 },
      moved: [{ job: 'j1', stage: 'run', task: 0, before: { node: 'n1', start: 0, end: 1 }, after: { node: 'n1', start: 1, end: 2 } }],
      added: [{ job: 'j3', stage: 'run', task: 0, node: 'n1', start: 0, end: 1 }],
      dropped: [{ job: 'j2', stage: 'run', task: 0, node: 'n1', start: 1, end: 2 }],
      jobs: [
        { job: 'j3', before: null, after: { accepted: true, endSlot: 1, revenue: null }, endChange: null },
        { job: 'j1', before: { accepted: true, endSlot: 1, revenue: 10 }, after: { accepted: true, endSlot: 2, revenue: 3 }, endChange: 1 },
        { job: 'j2', before: { accepted: true, endSlot: 2, revenue: null }, after: null, endChange: null },
      ],
      makespan: { before: 2, after: 2 },
      revenue: { before: 10, after: 3, change: -7 },
      truncated: false,
    });
  });

  it('limit cuts the lists, never the counts; a plan against itself changes nothing', async () => {
    const cut = (await diff(plans.b, plans.a, 1)).data!;
    assert.deepEqual([cut.jobs.length, cut.counts.jobsChanged, cut.truncated], [1, 3, true]);
    const same = (await diff(plans.a, plans.a)).data!;
    assert.deepEqual(same.counts, { moved: 0, added: 0, dropped: 0, kept: 2, jobsChanged: 0 });
  });

  it('against a plan of another cluster, a plan that does not exist, or nothing: a 422 naming query:against', async () => {
    for (const against of [plans.elsewhere, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', undefined]) {
      const body = problem(await diff(plans.a, against), 422);
      assert.deepEqual(body.problems.map((p) => p.path), ['query:against'], JSON.stringify(body));
    }
    const limit = problem(await diff(plans.a, plans.b, 0 as never), 422);
    assert.deepEqual(limit.problems.map((p) => p.path), ['query:limit']);
  });
});
