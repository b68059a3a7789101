/**
 * Fault test (issue 21, item 1) on a private PostgreSQL this test starts on its own port (never the shared
 * one): Postgres goes away while a solve runs and comes back after its budget. The worker keeps the plan and
 * retries storing it; the solve ends `succeeded` with exactly one plan soon after Postgres returns. Requests
 * during the outage answer 503 with Retry-After. Before: BullMQ spent its attempts in 2 s, the plan was lost
 * and the solve stayed `running` forever.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { privatePostgres, PrivatePostgres } from '../support/private-postgres';
import { Service, startService, stopChild, waitFor } from '../../harness/service';

describe('Postgres outage during a solve', () => {
  let pg: PrivatePostgres;
  let svc: Service;
  let customer: string;
  const sharedUrl = process.env.DATABASE_URL;
  /** A fresh connection per query: the harness's own connection does not survive the outage. */
  const query = async <T>(text: string, params: unknown[]): Promise<T[]> => {
    const c = new Client({ connectionString: svc.config.databaseUrl });
    await c.connect();
    try {
      return (await c.query(text, params)).rows as T[];
    } finally {
      await c.end();
    }
  };

  before(async () => {
    pg = privatePostgres();
    pg.startOnFreePort();
    process.env.DATABASE_URL = pg.url; // startService creates its database on this server
    svc = await startService();
    customer = (await svc.tenant('pg-outage', ['customer'])).keys.customer;
  });
  after(async () => {
    try {
      pg.start();
    } catch {
      // running already
    }
    await svc?.close().catch(() => undefined); // its connection died with the outage; the server goes below
    pg?.remove();
    process.env.DATABASE_URL = sharedUrl;
  });

  it('stores the plan once Postgres is back, and answers 503 while it is away', async (t) => {
    const worker = svc.startWorker({ FALLOW_STORE_RETRY_MS: '120000' });
    try {
      // Overloaded (not every task fits), so ls runs to its 6 s budget.
      const instance = ephemeralInstance({ nodes: 3, jobs: 16, maxMaps: 40, slots: 16, seed: 5 });
      const r = await fetch(`${svc.baseUrl}/v1/solves`, {
        method: 'POST',
        headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ instance, strategy: 'ls', timeBudgetMs: 6000 }),
      });
      assert.equal(r.status, 202);
      const id = ((await r.json()) as { id: string }).id;
      await waitFor('the solve to run', async () => ((await query<{ status: string }>('SELECT status FROM solves WHERE id = $1', [id]))[0].status === 'running' ? true : undefined));
      pg.stop();
      const during = await fetch(`${svc.baseUrl}/v1/solves/${id}`, { headers: { authorization: `Bearer ${customer}` }, signal: AbortSignal.timeout(15_000) });
      assert.equal(during.status, 503, await during.text());
      assert.ok(Number(during.headers.get('retry-after')) > 0);
      // Down past the budget: the plan is ready while Postgres is away.
      await new Promise((resolve) => setTimeout(resolve, 9000));
      pg.start();
      const back = Date.now();
      const row = await waitFor(
        'the solve to end',
        async () => {
          const [s] = await query<{ status: string; error: string | null; plan_id: string | null }>('SELECT status, error, plan_id FROM solves WHERE id = $1', [id]).catch(() => [undefined]);
          return s && s.status !== 'running' && s.status !== 'queued' ? s : undefined;
        },
        60_000,
        250,
      );
      assert.equal(row.status, 'succeeded', row.error ?? '');
      assert.ok(row.plan_id);
      const [plans] = await query<{ n: number }>('SELECT count(*)::int AS n FROM plans WHERE solve_id = $1', [id]);
      assert.equal(plans.n, 1);
      // The store retries back off to at most 30 s apart; measured, the solve ends well inside a minute.
      const ms = Date.now() - back;
      t.diagnostic(`solve ended ${ms} ms after Postgres came back`);
      assert.ok(ms < 60_000);
    } finally {
      await stopChild(worker);
    }
  });
});
