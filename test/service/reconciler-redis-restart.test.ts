/**
 * Hostile infrastructure (issue 35, item 4): Redis restarts without its data while a worker keeps running.
 * The reconciler's job scheduler lived only in Redis and was registered when a worker booted, so after such a
 * restart nothing swept any more: a queued solve whose job was lost stayed queued (3 minutes, until a worker
 * restart) while new solves ran. Now each worker registers the scheduler again once a period when it is
 * missing, and the lost solve is queued again and runs, with no worker restarted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PrivateRedis } from '../support/private-redis';
import { Service, startService, stopChild, waitFor } from '../../harness/service';

const INSTANCE = {
  format: 'fallow.instance/v1',
  name: 'restart',
  horizon: { slots: 4, slotSeconds: 300 },
  metrics: ['cpu'],
  nodes: [{ id: 'h0', capacity: { cpu: 4 } }],
  jobs: [{ id: 'j0', stages: [{ id: 'map', tasks: 2, demand: { cpu: 1 }, durationSeconds: 300 }] }],
};

describe('reconciler after Redis restarts empty under a running worker', () => {
  const redis = new PrivateRedis();
  let svc: Service;
  let customer: string;
  const post = () =>
    fetch(`${svc.baseUrl}/v1/solves`, {
      method: 'POST',
      headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ instance: INSTANCE, strategy: 'rffd', timeBudgetMs: 300 }),
    });
  /**
   * Queues a solve through the API. Right after the restart the API's own Redis clients may still be
   * reconnecting: it then answers 503 with Retry-After and changes nothing, and a client tries again, as here
   * (what this test is about is the worker and the reconciler, not how fast the API reconnects).
   */
  const solve = async (): Promise<string> => {
    let last = '';
    const r = await waitFor('the API to take a solve', async () => {
      const res = await post();
      last = await res.text();
      if (res.status === 503) return undefined;
      return { status: res.status, text: last };
    }, 30_000, 250).catch(() => ({ status: 503, text: last }));
    assert.equal(r.status, 202, r.text);
    return (JSON.parse(r.text) as { id: string }).id;
  };
  const ended = (id: string) =>
    waitFor(`solve ${id} to end`, async () => {
      const [r] = await svc.sql<{ status: string; error: string | null }>('SELECT status, error FROM solves WHERE id = $1', [id]);
      return ['succeeded', 'failed', 'cancelled'].includes(r.status) ? r : undefined;
    }, 60_000);

  before(async () => {
    await redis.start();
    svc = await startService({ redisUrl: redis.url });
    customer = (await svc.tenant('restart', ['customer'])).keys.customer;
  });
  after(async () => {
    if (!(await redis.answers())) await redis.start(); // the service's connections close cleanly
    await svc?.close();
    redis.stop();
  });

  it('a solve whose job the restart lost is queued again and runs, with the same worker', async (t) => {
    const worker = svc.startWorker({ FALLOW_RECONCILE_MS: '1000' });
    t.after(() => stopChild(worker));
    assert.equal((await ended(await solve())).status, 'succeeded', 'the worker runs solves before the restart');

    await redis.kill();
    await redis.start();
    const probe = redis.client();
    assert.equal(await probe.dbsize(), 0, 'the restarted Redis holds nothing');
    // A solve queued in Postgres whose job the restart lost (queued before it, older than a reconciler period).
    const [lost] = await svc.sql<{ id: string }>(
      `INSERT INTO solves (tenant_id, status, strategy, objective, time_budget_ms, seed, starts_at, shuffle_aware, instance, instance_name, forecast_choice, attempts, created_at)
       SELECT tenant_id, 'queued', strategy, objective, time_budget_ms, seed, starts_at, shuffle_aware, instance, instance_name, forecast_choice, 0, now() - interval '1 minute'
       FROM solves LIMIT 1 RETURNING id`,
    );
    // New work runs at once (the worker's queue clients reconnected)...
    assert.equal((await ended(await solve())).status, 'succeeded', 'a new solve runs after the restart');
    // ...and the lost one is swept by a reconciler registered again, with no worker restarted.
    const t0 = Date.now();
    const done = await ended(lost.id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const [plans] = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM plans WHERE solve_id = $1', [lost.id]);
    assert.equal(plans.n, 1);
    const schedulers = await probe.keys('*:maintenance:repeat*');
    await probe.quit();
    assert.ok(schedulers.length > 0, 'the reconciler\'s job scheduler is in the restarted Redis');
    t.diagnostic(`the lost solve ended ${Date.now() - t0} ms after the new one (reconciler period 1 s)`);
  });
});
