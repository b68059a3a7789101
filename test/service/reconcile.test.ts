/**
 * The reconciler against the real service: a queued solve whose job Redis lost is queued again and runs; a
 * running solve whose job BullMQ gave up on is queued again; one claimed too often fails with a reason the
 * user reads. Before the reconciler all three stayed queued or running forever.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WorkQueues } from '../../src/modules/queue/queue.module';
import { SOLVE_WORK } from '../../src/modules/solves/solve.kind';
import { Service, startService, waitFor } from '../../harness/service';

const INSTANCE = {
  format: 'fallow.instance/v1',
  name: 'reconcile',
  horizon: { slots: 4, slotSeconds: 300 },
  metrics: ['cpu'],
  nodes: [{ id: 'h0', capacity: { cpu: 4 } }],
  jobs: [{ id: 'j0', stages: [{ id: 'map', tasks: 2, demand: { cpu: 1 }, durationSeconds: 300 }] }],
};

describe('reconciler', () => {
  let svc: Service;
  let customer: string;
  const solveRow = async (id: string) => (await svc.sql<{ status: string; error: string | null; attempts: number }>('SELECT status, error, attempts FROM solves WHERE id = $1', [id]))[0];
  /** A solve created through the API (no worker runs yet), aged past the reconciler's grace period. */
  const agedSolve = async (): Promise<string> => {
    const r = await fetch(`${svc.baseUrl}/v1/solves`, {
      method: 'POST',
      headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ instance: INSTANCE, strategy: 'rffd', timeBudgetMs: 300 }),
    });
    assert.equal(r.status, 202);
    const id = ((await r.json()) as { id: string }).id;
    await svc.sql(`UPDATE solves SET created_at = now() - interval '1 hour' WHERE id = $1`, [id]);
    return id;
  };
  const queue = () => svc.app.get(WorkQueues).of(SOLVE_WORK);

  before(async () => {
    svc = await startService();
    customer = (await svc.tenant('reconcile', ['customer'])).keys.customer;
  });
  after(() => svc?.close());

  it('queues lost work again, fails work claimed too often, and the worker runs what was queued again', async () => {
    // 1. Queued in Postgres, job lost from Redis (Redis restarted without its data).
    const lost = await agedSolve();
    await queue().remove(lost);
    // 2. Running in Postgres, job failed in Redis (BullMQ spent its attempts while Postgres was down).
    const gaveUp = await agedSolve();
    await queue().remove(gaveUp);
    await svc.sql(`UPDATE solves SET status = 'running', attempts = 3, started_at = now() WHERE id = $1`, [gaveUp]);
    // 3. Claimed as often as allowed already, job lost: the reconciler fails it rather than loop.
    const poison = await agedSolve();
    await queue().remove(poison);
    await svc.sql(`UPDATE solves SET status = 'running', attempts = 5 WHERE id = $1`, [poison]);
    assert.equal((await queue().getJobState(lost)), 'unknown');

    svc.startWorker({ FALLOW_RECONCILE_MS: '500', FALLOW_MAX_ATTEMPTS: '5' });
    for (const id of [lost, gaveUp]) {
      const row = await waitFor(`solve ${id} to succeed`, async () => {
        const r = await solveRow(id);
        return r.status === 'succeeded' || r.status === 'failed' ? r : undefined;
      });
      assert.equal(row.status, 'succeeded', row.error ?? '');
      const [plan] = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM plans WHERE solve_id = $1', [id]);
      assert.equal(plan.n, 1);
    }
    const failed = await waitFor('the poison solve to fail', async () => {
      const r = await solveRow(poison);
      return r.status === 'failed' ? r : undefined;
    });
    assert.match(failed.error ?? '', /could not be run: its job was missing from the queue, after 5 attempts/);
  });
});
