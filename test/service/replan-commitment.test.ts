/**
 * A committed plan's commitment moves to its re-plan (issue 39): when the re-plan's plan is stored, in the same
 * transaction and under the cluster's lock, the new version is committed with its holds and the old one released
 * ("superseded by"); when the new version no longer fits what another customer committed meanwhile, nothing moves
 * (the new version stays proposed, the old one committed) and the re-plan says why; committing the new version
 * later takes the commitment over once it fits. Real Postgres, Redis and a
 * worker process, stopped while the re-plan waits so that the other commit comes first.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AssignmentDoc } from '../../src/engine/model/types';
import { Service, startService, stopChild, waitFor } from '../../harness/service';

type Json = any;

const HOUR = 3600;
/** The window starts at the current hour, so that its first tasks are not too late to commit while the test runs. */
const T0 = Math.floor(Date.now() / (HOUR * 1000)) * HOUR * 1000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** One node that runs one 2-core task at a time, for four hours. */
const NODES = [{ id: 'n1', capacity: { cpu: 2 } }];
const TWO = [{ id: 'pair', stages: [{ id: 'run', tasks: 2, demand: { cpu: 2 }, durationSeconds: HOUR }] }];
const ONE = [{ id: 'single', stages: [{ id: 'run', tasks: 1, demand: { cpu: 2 }, durationSeconds: HOUR }] }];

describe("a committed plan's commitment moves to its re-plan", () => {
  let svc: Service;
  let farmer: string;
  let a: string;
  let b: string;

  before(async () => {
    svc = await startService();
    farmer = (await svc.tenant('farm', ['farmer'])).keys.farmer;
    a = (await svc.tenant('shop-a', ['customer'])).keys.customer;
    b = (await svc.tenant('shop-b', ['customer'])).keys.customer;
  });
  after(async () => svc?.close());

  /** A lendable cluster of NODES with an idle forecast over four hours from T0. */
  async function cluster(name: string): Promise<string> {
    const c = await svc.client(farmer).POST('/v1/clusters', { body: { name, metrics: ['cpu'], nodes: NODES, lendable: true } });
    assert.ok(c.data, JSON.stringify(c.error));
    const f = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: c.data.id } }, body: { slotSeconds: HOUR, slots: 4, startsAt: at(0), usage: { n1: { cpu: [0, 0, 0, 0] } } } });
    assert.ok(f.data, JSON.stringify(f.error));
    return c.data.id;
  }
  async function ended(k: string, id: string): Promise<Json> {
    return waitFor(`solve ${id} to end`, async () => {
      const s = (await svc.client(k).GET('/v1/solves/{id}', { params: { path: { id } } })).data!;
      return ['succeeded', 'failed', 'cancelled'].includes(s.status) ? s : undefined;
    }, 90_000);
  }
  async function solved(k: string, clusterId: string, jobs: Json): Promise<{ solveId: string; plan: Json }> {
    const batchId = (await svc.client(k).POST('/v1/batches', { body: { name: 'b', jobs } })).data!.id;
    const r = await svc.client(k).POST('/v1/solves', { body: { clusterId, batchId, startsAt: at(0), strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const s = await ended(k, r.data!.id);
    assert.equal(s.status, 'succeeded', JSON.stringify(s));
    return { solveId: s.id, plan: (await plan(k, s.planId)).data! };
  }
  const plan = (k: string, id: string) => svc.client(k).GET('/v1/plans/{id}', { params: { path: { id } } });
  const commit = (k: string, id: string) => svc.client(k).POST('/v1/plans/{id}/commit', { params: { path: { id } } });
  const holds = async (planId: string) => (await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM plan_holds WHERE plan_id = $1', [planId]))[0].n;
  /** The farmer reports the task at slot 0 started, then killed half an hour in. */
  async function killFirst(solveId: string, p: Json): Promise<void> {
    const t = (p.assignments as AssignmentDoc[]).find((x) => x.start === 0)!;
    assert.ok(t, JSON.stringify(p.assignments));
    const ev = (id: string, type: string, minute: number) => ({ id: `${solveId}-${id}`, solveId, job: t.job, stage: t.stage, task: t.task, node: t.node, type, at: at(minute) });
    const r = await svc.client(farmer).POST('/v1/executions/events', { body: { events: [ev('s', 'started', 1), ev('k', 'killed', 30)] } as never });
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
  }

  it('moves in one transaction: the new version committed with its holds, the old one released as superseded', async () => {
    const worker = svc.startWorker();
    try {
      const clusterId = await cluster('alone');
      const first = await solved(a, clusterId, TWO);
      assert.equal((await commit(a, first.plan.id)).data!.status, 'committed');
      assert.equal(await holds(first.plan.id), 2);
      await killFirst(first.solveId, first.plan);
      const r = await svc.client(a).POST('/v1/plans/{id}/replan', { params: { path: { id: first.plan.id } }, body: { nowSlot: 1, strategy: 'rffd', timeBudgetMs: 300 } });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      const done = await ended(a, r.data!.id);
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      assert.deepEqual(done.replan.commitment, { moved: true, reason: null });
      const now = (await plan(a, done.planId)).data!;
      const old = (await plan(a, first.plan.id)).data!;
      assert.equal(now.status, 'committed');
      assert.ok(now.committedAt);
      assert.equal(old.status, 'released');
      assert.equal(old.releaseReason, `superseded by re-plan ${now.id}, which holds its capacity now`);
      assert.equal(old.supersededBy, now.id);
      assert.equal(await holds(first.plan.id), 0);
      assert.equal(await holds(now.id), 2);
      // Both tasks from slot 1 on: the killed one runs again.
      assert.ok((now.assignments as AssignmentDoc[]).every((x) => x.start >= 1), JSON.stringify(now.assignments));
    } finally {
      await stopChild(worker);
    }
  });

  it('a re-plan is cancelled as a solve is: a queued one at once, without a plan, and the plan may be re-planned again', async () => {
    const worker = svc.startWorker();
    let first: { solveId: string; plan: Json };
    try {
      first = await solved(a, await cluster('cancelled'), TWO);
    } finally {
      await stopChild(worker);
    }
    const queued = await svc.client(a).POST('/v1/plans/{id}/replan', { params: { path: { id: first.plan.id } }, body: { nowSlot: 1 } });
    assert.equal(queued.response.status, 202, JSON.stringify(queued.error));
    const cancelled = await svc.client(a).DELETE('/v1/solves/{id}', { params: { path: { id: queued.data!.id } } });
    assert.deepEqual([cancelled.data!.status, cancelled.data!.planId], ['cancelled', null]);
    assert.equal((await plan(a, first.plan.id)).data!.supersededBy, null);
    const again = await svc.client(a).POST('/v1/plans/{id}/replan', { params: { path: { id: first.plan.id } }, body: { nowSlot: 1 } });
    assert.equal(again.response.status, 202, JSON.stringify(again.error));
    await svc.client(a).DELETE('/v1/solves/{id}', { params: { path: { id: again.data!.id } } });
  });

  /**
   * A's plan committed, B's planned around it at the third hour; A's re-plan from slot 1 (its first task killed)
   * queued with no worker while B commits that hour, then run: A's new version needs the hour B now holds.
   */
  async function failedMove(name: string): Promise<{ mine: { solveId: string; plan: Json }; theirs: { solveId: string; plan: Json }; done: Json }> {
    const clusterId = await cluster(name);
    const worker = svc.startWorker();
    let mine: { solveId: string; plan: Json };
    let theirs: { solveId: string; plan: Json };
    try {
      mine = await solved(a, clusterId, TWO);
      assert.equal((await commit(a, mine.plan.id)).data!.status, 'committed');
      theirs = await solved(b, clusterId, ONE);
      assert.deepEqual((theirs.plan.assignments as AssignmentDoc[]).map((x) => x.start), [2], 'B plans around the two held hours');
    } finally {
      await stopChild(worker);
    }
    await killFirst(mine.solveId, mine.plan);
    const r = await svc.client(a).POST('/v1/plans/{id}/replan', { params: { path: { id: mine.plan.id } }, body: { nowSlot: 1, strategy: 'rffd', timeBudgetMs: 300 } });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const busy = await svc.client(a).POST('/v1/plans/{id}/replan', { params: { path: { id: mine.plan.id } }, body: { nowSlot: 1 } });
    assert.equal(busy.response.status, 409, 'one re-plan of a plan at a time');
    assert.equal((await commit(b, theirs.plan.id)).data!.status, 'committed');
    const again = svc.startWorker();
    try {
      const done = await ended(a, r.data!.id);
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      return { mine, theirs, done };
    } finally {
      await stopChild(again);
    }
  }

  it("does not move when another customer committed what the new version needs meanwhile: it stays proposed and says why; committing it later moves it once it fits", async () => {
    const { mine, theirs, done } = await failedMove('shared');
    assert.equal(done.replan.commitment.moved, false);
    assert.match(done.replan.commitment.reason, new RegExp(`no longer fits .*; plan ${mine.plan.id} stays committed`));
    const now = (await plan(a, done.planId)).data!;
    assert.equal(now.status, 'proposed');
    assert.equal(now.supersedes, mine.plan.id);
    const old = (await plan(a, mine.plan.id)).data!;
    assert.equal(old.status, 'committed');
    assert.equal(old.supersededBy, now.id);
    assert.equal(await holds(mine.plan.id), 2);
    assert.equal(await holds(now.id), 0);
    assert.equal(await holds(theirs.plan.id), 1);
    // Committing the new version later takes the commitment over as the re-plan would have: refused while it does not fit...
    const refused = await commit(a, now.id);
    assert.equal(refused.response.status, 409);
    assert.match((refused.error as Json).detail, /no longer fits/);
    assert.equal((await plan(a, mine.plan.id)).data!.status, 'committed');
    // ... and once the other customer gives its hour back, the new version is committed and the old one released.
    assert.equal((await svc.client(b).POST('/v1/plans/{id}/release', { params: { path: { id: theirs.plan.id } } })).data!.status, 'released');
    const moved = await commit(a, now.id);
    assert.equal(moved.data?.status, 'committed', JSON.stringify(moved.error));
    assert.equal((await plan(a, mine.plan.id)).data!.status, 'released');
    assert.equal(await holds(mine.plan.id), 0);
    assert.equal(await holds(now.id), 2);
  });

  it('a re-plan of that proposed version plans around the other commitment and takes over the commitment of the version before it', async () => {
    const { mine, theirs, done } = await failedMove('again');
    const worker = svc.startWorker();
    try {
      const r = await svc.client(a).POST('/v1/plans/{id}/replan', { params: { path: { id: done.planId } }, body: { nowSlot: 1, strategy: 'rffd', timeBudgetMs: 300 } });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      const third = await ended(a, r.data!.id);
      assert.equal(third.status, 'succeeded', JSON.stringify(third));
      assert.deepEqual(third.replan.commitment, { moved: true, reason: null });
      const v3 = (await plan(a, third.planId)).data!;
      assert.equal(v3.version, 3);
      assert.equal(v3.status, 'committed');
      assert.deepEqual((v3.assignments as AssignmentDoc[]).map((x) => x.start).sort(), [1, 3], 'around the hour B holds');
      assert.equal((await plan(a, mine.plan.id)).data!.status, 'released');
      assert.equal((await plan(a, done.planId)).data!.status, 'proposed');
      assert.deepEqual([await holds(mine.plan.id), await holds(v3.id), await holds(theirs.plan.id)], [0, 2, 1]);
      // A superseded version is not committed: its newest one holds its tasks.
      const stale = await commit(a, done.planId);
      assert.equal(stale.response.status, 409);
      assert.match((stale.error as Json).detail, new RegExp(`superseded by plan ${v3.id}`));
    } finally {
      await stopChild(worker);
    }
  });
});
