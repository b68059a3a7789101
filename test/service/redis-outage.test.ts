/**
 * Fault test (issue 21, item 3) on a private Redis this test starts on its own port (never the shared one):
 * while Redis is away, authenticated requests answer 503 with Retry-After at once instead of hanging, and
 * nothing is created for them, then or when Redis comes back. Before: they hung at the rate limiter and
 * every one of them ran once Redis returned. Then (item 5) Redis restarts without its data: the queued
 * solve whose job it lost is queued again by the reconciler and runs. Before: it stayed queued forever.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PrivateRedis } from '../support/private-redis';
import { Service, startService, waitFor } from '../../harness/service';

describe('Redis outage', () => {
  let svc: Service;
  const redis = new PrivateRedis();
  let customer: string;
  const count = async () => Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM solves'))[0].n);
  const postSolve = () =>
    fetch(`${svc.baseUrl}/v1/solves`, {
      method: 'POST',
      headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        instance: { format: 'fallow.instance/v1', name: 'outage', horizon: { slots: 4, slotSeconds: 300 }, metrics: ['cpu'], nodes: [{ id: 'h0', capacity: { cpu: 4 } }], jobs: [{ id: 'j0', stages: [{ id: 'm', tasks: 1, demand: { cpu: 1 }, durationSeconds: 300 }] }] },
        strategy: 'rffd',
        timeBudgetMs: 300,
      }),
      signal: AbortSignal.timeout(10_000),
    });

  before(async () => {
    await redis.start();
    svc = await startService({ redisUrl: redis.url });
    customer = (await svc.tenant('outage', ['customer'])).keys.customer;
  });
  after(async () => {
    if (!(await redis.answers())) await redis.start();
    await svc?.close();
    redis.stop();
  });

  it('answers 503 with Retry-After at once while Redis is away, and creates nothing then or later', async () => {
    await redis.kill();
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      const r = await postSolve();
      const ms = Date.now() - t0;
      assert.equal(r.status, 503, await r.text());
      assert.equal(r.headers.get('content-type')?.split(';')[0], 'application/problem+json');
      assert.ok(Number(r.headers.get('retry-after')) > 0, 'Retry-After');
      assert.ok(ms < 5000, `answered in ${ms} ms`);
    }
    assert.equal(await count(), 0);
    // /metrics answers (without fresh queue counts) and the queue board says 503, both at once.
    const t1 = Date.now();
    const metrics = await fetch(`${svc.baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(metrics.status, 200);
    const board = await fetch(`${svc.baseUrl}/admin/queues`, { headers: { authorization: `Bearer ${svc.operatorKey}` }, signal: AbortSignal.timeout(10_000) });
    assert.equal(board.status, 503);
    assert.ok(Number(board.headers.get('retry-after')) > 0);
    assert.ok(Date.now() - t1 < 5000, `/metrics and /admin/queues took ${Date.now() - t1} ms`);
    await redis.start();
    // The API reconnects by itself; refused requests stay refused.
    const back = await waitFor('a solve to be accepted again', async () => {
      const r = await postSolve();
      return r.status === 202 ? r : undefined;
    });
    assert.equal(back.status, 202);
    assert.equal(await count(), 1);
  });

  it('a queued solve whose job was lost when Redis restarted without its data is queued again and runs', async (t) => {
    const [queued] = await svc.sql<{ id: string; status: string }>("SELECT id, status FROM solves");
    assert.equal(queued.status, 'queued');
    await redis.kill(); // no persistence: the restarted Redis is empty
    await redis.start();
    const probe = redis.client();
    assert.equal(await probe.dbsize(), 0, 'the restarted Redis holds nothing');
    await probe.quit();
    const t0 = Date.now();
    svc.startWorker({ FALLOW_RECONCILE_MS: '1000' });
    const done = await waitFor('the lost solve to end', async () => {
      const [r] = await svc.sql<{ status: string; error: string | null }>('SELECT status, error FROM solves WHERE id = $1', [queued.id]);
      return ['succeeded', 'failed', 'cancelled'].includes(r.status) ? r : undefined;
    }, 60_000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const [plans] = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM plans WHERE solve_id = $1', [queued.id]);
    assert.equal(plans.n, 1);
    t.diagnostic(`the lost solve ended ${Date.now() - t0} ms after a worker started (reconciler period 1 s)`);
  });

  it('a worker told to stop while its Redis connections reconnect exits within seconds', async () => {
    const clients = async () => {
      const probe = redis.client();
      return String(await probe.client('LIST').finally(() => probe.quit())).trim().split('\n').length;
    };
    const before = await clients();
    const worker = svc.startWorker();
    await waitFor('the worker to connect', async () => ((await clients()) >= before + 5 ? true : undefined));
    await redis.kill();
    await redis.start();
    // BullMQ's own close never resolves while a client is reconnecting (taskforcesh/bullmq#4656).
    const t0 = Date.now();
    const code = await new Promise<number | null | 'still running'>((resolve) => {
      const timer = setTimeout(() => resolve('still running'), 30_000);
      worker.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
      worker.kill('SIGTERM');
    });
    const ms = Date.now() - t0;
    assert.equal(code, 0);
    assert.ok(ms < 20_000, `the worker took ${ms} ms to exit`);
  });
});
