/**
 * A solve that needs more memory than its thread's share fails with a reason the user reads, and the
 * worker lives on to run the next one (before the share, one large solve grew a worker to 12.5 GB).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService, waitFor } from '../../harness/service';

function instance(tasks: number): Record<string, unknown> {
  return {
    format: 'fallow.instance/v1',
    name: `memory-${tasks}`,
    horizon: { slots: 2000, slotSeconds: 60 },
    metrics: ['cpu'],
    nodes: Array.from({ length: 50 }, (_, i) => ({ id: `n${i}`, capacity: { cpu: 32 } })),
    jobs: Array.from({ length: tasks / 100 }, (_, j) => ({ id: `j${j}`, stages: [{ id: 'map', tasks: 100, demand: { cpu: 1 }, durationSeconds: 60 }] })),
  };
}

describe('memory share of a solve', () => {
  let svc: Service;
  let customer: string;
  const submit = async (tasks: number): Promise<string> => {
    const r = await fetch(`${svc.baseUrl}/v1/solves`, {
      method: 'POST',
      headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ instance: instance(tasks), strategy: 'rffd', timeBudgetMs: 2000 }),
    });
    assert.equal(r.status, 202);
    return ((await r.json()) as { id: string }).id;
  };
  const ended = (id: string) =>
    waitFor(`solve ${id} to end`, async () => {
      const [row] = await svc.sql<{ status: string; error: string | null }>('SELECT status, error FROM solves WHERE id = $1', [id]);
      return row.status === 'succeeded' || row.status === 'failed' ? row : undefined;
    });

  before(async () => {
    svc = await startService();
    customer = (await svc.tenant('memory', ['customer'])).keys.customer;
  });
  after(() => svc?.close());

  it('fails the solve over its share with the reason, then runs a small one on the same worker', async () => {
    const worker = svc.startWorker({ FALLOW_THREAD_MEMORY_MB: '16', FALLOW_WORKER_CONCURRENCY: '1' });
    const big = await ended(await submit(100_000));
    assert.equal(big.status, 'failed');
    assert.match(big.error ?? '', /the solve failed: ran out of memory \(its share is 16 MB of heap\)/);
    const small = await ended(await submit(100));
    assert.equal(small.status, 'succeeded', small.error ?? '');
    assert.equal(worker.exitCode, null, 'the worker is still running');
  });
});
