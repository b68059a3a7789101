/**
 * Fault test (issue 21, item 3) on a private Redis this test starts on its own port (never the shared one):
 * while Redis is away, authenticated requests answer 503 with Retry-After at once instead of hanging, and
 * nothing is created for them, then or when Redis comes back. Before: they hung at the rate limiter and
 * every one of them ran once Redis returned.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import IORedis from 'ioredis';
import { Service, startService, waitFor } from '../../harness/service';

const PORT = 6300 + Math.floor(Math.random() * 90);

function startRedis(dir: string): ChildProcess {
  return spawn('redis-server', ['--port', String(PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
}

async function redisAnswers(): Promise<boolean> {
  const r = new IORedis({ port: PORT, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

describe('Redis outage', () => {
  let svc: Service;
  let redis: ChildProcess;
  let customer: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'fallow-redis-'));
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
    redis = startRedis(dir);
    await waitFor('the private Redis', async () => ((await redisAnswers()) ? true : undefined));
    svc = await startService({ redisUrl: `redis://127.0.0.1:${PORT}` });
    customer = (await svc.tenant('outage', ['customer'])).keys.customer;
  });
  after(async () => {
    if (redis.exitCode === null) redis.kill('SIGKILL');
    if (!(await redisAnswers())) {
      redis = startRedis(dir);
      await waitFor('the private Redis', async () => ((await redisAnswers()) ? true : undefined));
    }
    await svc?.close();
    redis.kill('SIGKILL');
  });

  it('answers 503 with Retry-After at once while Redis is away, and creates nothing then or later', async () => {
    redis.kill('SIGKILL');
    await waitFor('Redis to be gone', async () => ((await redisAnswers()) ? undefined : true));
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
    redis = startRedis(dir);
    await waitFor('Redis to be back', async () => ((await redisAnswers()) ? true : undefined));
    // The API reconnects by itself; refused requests stay refused.
    const back = await waitFor('a solve to be accepted again', async () => {
      const r = await postSolve();
      return r.status === 202 ? r : undefined;
    });
    assert.equal(back.status, 202);
    assert.equal(await count(), 1);
  });
});
