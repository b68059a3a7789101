import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ThreadError } from '../../src/engine/threads/run-in-thread';
import { ThreadPool } from '../../src/engine/threads/thread-pool';
import type { PoolWorkerInput } from './pool-worker';

const FILE = join(__dirname, 'pool-worker.js');
const threadOf = (answer: string) => answer.split(' on ')[1];

describe('ThreadPool: long-lived threads for short work (the API\'s charts)', () => {
  const pools: ThreadPool<PoolWorkerInput, string>[] = [];
  const pool = (size: number, taskTimeoutMs = 30_000) => {
    const p = new ThreadPool<PoolWorkerInput, string>(FILE, { size, taskTimeoutMs });
    pools.push(p);
    return p;
  };
  after(() => Promise.all(pools.map((p) => p.close())));

  it('answers each task in order and reuses its threads between tasks (no more threads than its size)', async () => {
    const p = pool(2);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => p.run({ echo: `t${i}` })));
    assert.deepEqual(answers.map((a) => a.split(' on ')[0]), ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']);
    assert.ok(new Set(answers.map(threadOf)).size <= 2, `threads used: ${answers.map(threadOf)}`);
    const again = await p.run({ echo: 'later' });
    assert.ok(answers.map(threadOf).includes(threadOf(again)), 'a later task runs on a thread that already exists');
  });

  it('a task that throws fails alone, with its message; the thread serves the next one', async () => {
    const p = pool(1);
    const first = await p.run({ echo: 'a' });
    await assert.rejects(p.run({ fail: 'no such chart' }), (e: unknown) => e instanceof ThreadError && e.reason === 'error' && e.message === 'no such chart');
    assert.equal(threadOf(await p.run({ echo: 'b' })), threadOf(first));
  });

  it('a task over its time limit has its thread terminated; the queued task runs on a fresh thread', async () => {
    const p = pool(1, 300);
    const stuck = p.run({ spinMs: 60_000 });
    const next = p.run({ echo: 'queued' });
    await assert.rejects(stuck, (e: unknown) => e instanceof ThreadError && e.reason === 'killed' && /300 ms/.test(e.message));
    assert.match(await next, /^queued on \d+$/);
  });

  it('a thread that dies fails its task as crashed and is replaced', async () => {
    const p = pool(1);
    const before = threadOf(await p.run({ echo: 'x' }));
    await assert.rejects(p.run({ exit: true }), (e: unknown) => e instanceof ThreadError && e.reason === 'crashed');
    assert.notEqual(threadOf(await p.run({ echo: 'y' })), before);
  });

  it('runLoaded reads a task\'s input only once a thread is free for it; a load that fails fails its task alone', async () => {
    const p = pool(2);
    let loading = 0;
    let most = 0;
    const load = (i: number) => async (): Promise<PoolWorkerInput> => {
      most = Math.max(most, ++loading);
      await new Promise((r) => setTimeout(r, 20));
      loading--;
      if (i === 3) throw new Error('the plan is gone');
      return { echo: `t${i}` };
    };
    const answers = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => p.runLoaded(load(i))));
    assert.ok(most <= 2, `at most 2 inputs read at once, saw ${most}`);
    assert.deepEqual(answers.map((a) => (a.status === 'fulfilled' ? a.value.split(' on ')[0] : (a.reason as Error).message)), ['t0', 't1', 't2', 'the plan is gone', 't4', 't5', 't6', 't7']);
  });

  it('a missing thread script and a closed pool are failures that say so', async () => {
    await assert.rejects(new ThreadPool(join(__dirname, 'nope.js'), { size: 1, taskTimeoutMs: 1000 }).run({ echo: 'x' }), (e: unknown) => e instanceof ThreadError && e.reason === 'missing');
    const p = pool(1);
    await p.close();
    await assert.rejects(p.run({ echo: 'x' }), (e: unknown) => e instanceof ThreadError && e.reason === 'killed');
  });
});
