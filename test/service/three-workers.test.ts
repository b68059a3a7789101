/**
 * Horizontal scale: three worker processes against one Redis share 30 solves, each solve is stored exactly
 * once, and the reconciler runs once per period for the deployment, not once per worker.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WorkQueues } from '../../src/modules/queue/queue.module';
import { SOLVE_WORK } from '../../src/modules/solves/solve.kind';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { Service, startService, waitFor } from '../../harness/service';

describe('three workers', () => {
  let svc: Service;
  let customer: string;

  before(async () => {
    svc = await startService();
    customer = (await svc.tenant('three', ['customer'])).keys.customer;
  });
  after(() => svc?.close());

  it('spread 30 solves, store each once, and reconcile once per period', async (t) => {
    const env = { FALLOW_RECONCILE_MS: '1000', FALLOW_WORKER_CONCURRENCY: '1' };
    for (let i = 0; i < 3; i++) svc.startWorker(env);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await fetch(`${svc.baseUrl}/v1/solves`, {
        method: 'POST',
        headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ instance: ephemeralInstance({ nodes: 3, jobs: 4, seed: i + 1 }), strategy: 'ls', timeBudgetMs: 300 }),
      });
      assert.equal(r.status, 202);
      ids.push(((await r.json()) as { id: string }).id);
    }
    await waitFor(
      'every solve to end',
      async () => {
        const [row] = await svc.sql<{ n: number }>(`SELECT count(*)::int AS n FROM solves WHERE status IN ('succeeded', 'failed', 'cancelled')`);
        return row.n === 30 ? true : undefined;
      },
      120_000,
    );
    const statuses = await svc.sql<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM solves GROUP BY status');
    assert.deepEqual(statuses, [{ status: 'succeeded', n: 30 }]);
    const [plans] = await svc.sql<{ n: number; solves: number }>('SELECT count(*)::int AS n, count(DISTINCT solve_id)::int AS solves FROM plans');
    assert.deepEqual(plans, { n: 30, solves: 30 });
    const queues = svc.app.get(WorkQueues);
    // On a starved machine a lock can lapse: BullMQ gives up on a job still running and the reconciler
    // queues it again, while its first run stores the plan. The second run then only skips (the solve has
    // ended): wait for every job to be done before reading who ran it.
    // A job BullMQ gave up on as stalled past its limit ends `failed` although its solve succeeded once (asserted
    // above); any other failure is a bug. CI saw one such run on a loaded machine (session 20).
    let states: string[] = [];
    await waitFor('every job to complete', async () => {
      states = await Promise.all(ids.map((id) => queues.of(SOLVE_WORK).getJobState(id)));
      return states.every((s) => s === 'completed' || s === 'failed') ? true : undefined;
    }, 60_000).catch((e: Error) => {
      const counts: Record<string, number> = {};
      for (const s of states) counts[s] = (counts[s] ?? 0) + 1;
      throw new Error(`${e.message}; job states: ${JSON.stringify(counts)}`);
    });
    const byWorker = new Map<string, number>();
    for (const id of ids) {
      const job = await queues.of(SOLVE_WORK).getJob(id);
      if ((await job?.getState()) === 'failed') {
        assert.match(String(job?.failedReason), /stalled/i, `job ${id} failed: ${job?.failedReason}`);
        continue;
      }
      const worker = String((job?.returnvalue as { worker?: string } | undefined)?.worker);
      byWorker.set(worker, (byWorker.get(worker) ?? 0) + 1);
    }
    t.diagnostic(`solves per worker: ${JSON.stringify(Object.fromEntries(byWorker))}`);
    assert.equal(byWorker.size, 3, `solves per worker: ${JSON.stringify(Object.fromEntries(byWorker))}`);
    // The reconciler: one job per period for the deployment, whichever worker takes it.
    const windowMs = 6000;
    const since = Date.now();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const done = await queues.maintenance().getJobs(['completed'], 0, 200);
    const inWindow = done.filter((j) => (j.finishedOn ?? 0) >= since && (j.finishedOn ?? 0) < since + windowMs);
    t.diagnostic(`reconciler runs in ${windowMs} ms at a 1000 ms period: ${inWindow.length}`);
    assert.ok(inWindow.length >= 4 && inWindow.length <= 7, `${inWindow.length} reconciler runs in ${windowMs} ms`);
  });
});
