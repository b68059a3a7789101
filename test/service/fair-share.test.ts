/**
 * Hostile tenants (issue 35): queued work is taken in a per-tenant fair order, so one tenant's burst of long
 * work holds another tenant's short work for at most one of the burst's job lengths. One worker with one
 * slot; tenant A queues three 3-s searches (ls on the 60-job example uses its whole budget), then tenant B one
 * short solve. Before: B waited behind all three of A's (FIFO); now B starts when A's first ends.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { Service, startService, waitFor } from '../../harness/service';

const LARGE = JSON.parse(readFileSync(path.resolve(__dirname, '../../../examples/instance-large.json'), 'utf8'));
const BUDGET_MS = 3000;

describe('fair order across tenants', () => {
  let svc: Service;
  let a: string;
  let b: string;
  const post = async (key: string, body: object): Promise<string> => {
    const r = await fetch(`${svc.baseUrl}/v1/solves`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await r.text();
    assert.equal(r.status, 202, text);
    return (JSON.parse(text) as { id: string }).id;
  };

  before(async () => {
    svc = await startService();
    a = (await svc.tenant('burst', ['customer'])).keys.customer;
    b = (await svc.tenant('short', ['customer'])).keys.customer;
  });
  after(() => svc?.close());

  it("another tenant's short solve starts when the first of a burst of long ones ends, not after the burst", async (t) => {
    const burst: string[] = [];
    for (let i = 0; i < 3; i++) burst.push(await post(a, { instance: LARGE, strategy: 'ls', timeBudgetMs: BUDGET_MS, seed: i + 1 }));
    svc.startWorker({ FALLOW_WORKER_CONCURRENCY: '1', FALLOW_FAIR_SHARE_DELAY_MS: '500' });
    await waitFor("A's first solve to start", async () => {
      const [r] = await svc.sql<{ n: number }>(`SELECT count(*)::int AS n FROM solves WHERE status = 'running'`);
      return r.n > 0 ? true : undefined;
    }, 60_000);
    const short = await post(b, { instance: ephemeralInstance({ nodes: 2, jobs: 2, seed: 3 }), strategy: 'rffd', timeBudgetMs: 300 });
    const rows = await waitFor('every solve to end', async () => {
      const r = await svc.sql<{ id: string; status: string; error: string | null; created_at: Date; started_at: Date; finished_at: Date }>(
        'SELECT id, status, error, created_at, started_at, finished_at FROM solves',
      );
      return r.every((s) => ['succeeded', 'failed', 'cancelled'].includes(s.status)) ? r : undefined;
    }, 120_000);
    for (const r of rows) assert.equal(r.status, 'succeeded', r.error ?? '');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const shortRow = byId.get(short)!;
    const burstRows = burst.map((id) => byId.get(id)!).sort((x, y) => x.started_at.getTime() - y.started_at.getTime());
    // Only the burst's first had started before B's: the second and third started after B's began.
    const startedBefore = burstRows.filter((r) => r.started_at < shortRow.started_at).length;
    assert.equal(startedBefore, 1, `A's solves started at ${burstRows.map((r) => r.started_at.toISOString()).join(', ')}; B's at ${shortRow.started_at.toISOString()}`);
    assert.ok(shortRow.started_at >= burstRows[0].finished_at, "B's started once the slot was free");
    const waited = shortRow.started_at.getTime() - shortRow.created_at.getTime();
    const firstRan = burstRows[0].finished_at.getTime() - burstRows[0].started_at.getTime();
    t.diagnostic(`B's solve waited ${waited} ms in the queue; A's first ran ${firstRan} ms (budget ${BUDGET_MS} ms); A's last started ${burstRows[2].started_at.getTime() - shortRow.started_at.getTime()} ms after B's`);
  });
});
