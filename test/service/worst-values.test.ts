/**
 * Issue 35, items 1, 2 and 9: one stored value (slotSeconds 1e308, deadlineSlot 1e300, an event of year
 * 9999) made every read route that turns slots into dates answer 500, for every tenant. This test first
 * shows the values are refused where they enter, then stores the worst values the validators allow (at
 * every limit of input-bounds.ts) and, beyond them, rows as a database from before the bounds may hold
 * them, and reads every route that shows them: none may fail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService, stopChild, waitFor } from '../../harness/service';
import { MAX_REVENUE, MAX_SLOT_SECONDS, MAX_SPAN_SECONDS } from '../../src/engine/model/input-bounds';

const WEEK = MAX_SLOT_SECONDS;
/** The most week-long slots a document may span (100 years). */
const SLOTS = Math.floor(MAX_SPAN_SECONDS / WEEK);

describe('worst stored values', () => {
  let svc: Service;
  let farmerKey: string;
  let customerKey: string;
  let clusterId: string;
  let forecastIds: string[] = [];
  let batchId: string;
  const solves: { id: string; planId: string }[] = [];

  const req = async (key: string, method: string, path: string, body?: unknown) => {
    const r = await fetch(`${svc.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, text, json: () => JSON.parse(text) };
  };

  before(async () => {
    svc = await startService();
    const farmer = await svc.tenant('worst-farmer', ['farmer']);
    const customer = await svc.tenant('worst-customer', ['customer']);
    farmerKey = farmer.keys.farmer;
    customerKey = customer.keys.customer;
    const cluster = await req(farmerKey, 'POST', '/v1/clusters', { name: 'edge', metrics: ['cpu'], nodes: [{ id: 'w01', capacity: { cpu: 4 } }] });
    assert.equal(cluster.status, 201, cluster.text);
    clusterId = cluster.json().id;
  });
  after(async () => svc?.close());

  it('refuses the reported values where they enter, writing nothing', async () => {
    const forecasts = await req(farmerKey, 'POST', `/v1/clusters/${clusterId}/forecasts`, { slotSeconds: 1e308, slots: 2, usage: { w01: { cpu: [0, 0] } } });
    assert.equal(forecasts.status, 422, forecasts.text);
    assert.deepEqual(forecasts.json().problems.map((p: { path: string }) => p.path), ['slotSeconds']);
    const late = await req(farmerKey, 'POST', `/v1/clusters/${clusterId}/forecasts`, { slotSeconds: WEEK, slots: 10, startsAt: '9999-12-01T00:00:00Z', usage: {} });
    assert.equal(late.status, 422, 'a window past 9999-12-31');
    const instance = (job: Record<string, unknown>, slotSeconds = 60) => ({
      format: 'fallow.instance/v1', name: 'x', horizon: { slots: 10, slotSeconds }, metrics: ['cpu'], nodes: [{ id: 'n', capacity: { cpu: 1 } }],
      jobs: [{ id: 'j', stages: [{ id: 's', tasks: 1, demand: { cpu: 1 }, durationSeconds: 60 }], ...job }],
    });
    const cases: [unknown, string][] = [
      [instance({}, 1e300), 'instance.horizon.slotSeconds'],
      [instance({ deadlineSlot: 1e300 }), 'instance.jobs[0].deadlineSlot'],
      [instance({ releaseSlot: 100_001 }), 'instance.jobs[0].releaseSlot'],
      [instance({ revenue: { onTime: 1e308, late: 0 } }), 'instance.jobs[0].revenue.onTime'],
      [instance({ revenue: { onTime: 10.5, late: 0 } }), 'instance.jobs[0].revenue.onTime'],
    ];
    for (const [inst, path] of cases) {
      const r = await req(customerKey, 'POST', '/v1/solves', { instance: inst, strategy: 'rffd', timeBudgetMs: 200 });
      assert.equal(r.status, 422, `${path}: ${r.text}`);
      assert.ok(r.json().problems.some((p: { path: string }) => p.path === path), `${path}: ${r.text}`);
    }
    const counts = await svc.sql<{ f: number; s: number }>('SELECT (SELECT count(*) FROM forecasts)::int AS f, (SELECT count(*) FROM solves)::int AS s');
    assert.deepEqual(counts, [{ f: 0, s: 0 }]);
  });

  it('stores the worst allowed values, and older rows beyond them, and every read route answers', async () => {
    // Forecasts at the limits: week-long slots spanning 100 years from 2000 (covers now: offered), and one ending in 9999.
    for (const body of [
      { slotSeconds: WEEK, slots: SLOTS, startsAt: '2000-01-01T00:00:00Z', usage: { w01: { cpu: Array(SLOTS).fill(1) } } },
      { slotSeconds: WEEK, slots: 4, startsAt: '9999-12-01T00:00:00Z', usage: { w01: { cpu: [0, 0, 0, 0] } } },
    ]) {
      const r = await req(farmerKey, 'POST', `/v1/clusters/${clusterId}/forecasts`, body);
      assert.equal(r.status, 201, r.text);
      forecastIds.push(r.json().id);
    }
    const job = (id: string) => ({ id, releaseSlot: 0, deadlineSlot: SLOTS, revenue: { onTime: MAX_REVENUE, late: -MAX_REVENUE }, stages: [{ id: 'm', tasks: 1, demand: { cpu: 1 }, durationSeconds: 60 }] });
    const batch = await req(customerKey, 'POST', '/v1/batches', { name: 'edge', jobs: [job('a'), job('b')] });
    assert.equal(batch.status, 201, batch.text);
    batchId = batch.json().id;
    const bodies = [
      { clusterId, forecastId: forecastIds[0], batchId, strategy: 'rffd', objective: 'revenue', timeBudgetMs: 300, startsAt: new Date().toISOString() },
      {
        instance: { format: 'fallow.instance/v1', name: 'edge', horizon: { slots: SLOTS, slotSeconds: WEEK }, metrics: ['cpu'], nodes: [{ id: 'n', capacity: { cpu: 1 } }], jobs: [job('a'), { ...job('late'), stages: [{ id: 'm', tasks: 1, demand: { cpu: 1 }, durationSeconds: 366 * 86_400 }] }] },
        strategy: 'rffd', objective: 'revenue', timeBudgetMs: 300, startsAt: '9999-12-31T00:00:00Z',
      },
    ];
    for (const body of bodies) {
      const r = await req(customerKey, 'POST', '/v1/solves', body);
      assert.equal(r.status, 202, r.text);
      solves.push({ id: r.json().id, planId: '' });
    }
    const worker = svc.startWorker();
    try {
      for (const s of solves)
        s.planId = await waitFor('the solve to end', async () => {
          const r = await req(customerKey, 'GET', `/v1/solves/${s.id}`);
          const d = r.json();
          if (d.status === 'failed') throw new Error(`solve failed: ${d.error}`);
          return d.status === 'succeeded' ? (d.planId as string) : undefined;
        }, 60_000);
    } finally {
      await stopChild(worker);
    }
    // Committed: accounting counts committed (or completed) plans only, and these are the values its reports
    // must survive. A plan whose window has no task left ahead reads as completed at once.
    for (const s of solves) {
      const committed = await req(customerKey, 'POST', `/v1/plans/${s.planId}/commit`);
      assert.equal(committed.status, 200, committed.text);
      assert.ok(['committed', 'completed'].includes(committed.json().status), committed.text);
    }
    // Events at both ends of the window: a year back and a day ahead (less a minute for the clock).
    const now = Date.now();
    const ev = (id: string, type: string, at: number) => ({ id, solveId: solves[0].id, job: 'a', stage: 'm', task: 0, node: 'w01', type, at: new Date(at).toISOString() });
    const events = await req(farmerKey, 'POST', '/v1/executions/events', { events: [ev('s', 'started', now - 366 * 86_400_000 + 60_000), ev('f', 'finished', now + 86_400_000 - 60_000)] });
    assert.equal(events.status, 200, events.text);

    await readEverything('at the limits');

    // Rows as stored before the bounds: slotSeconds 1e308 in a forecast and in a solve, deadlines of 1e300.
    await svc.sql(`UPDATE forecasts SET slot_seconds = 1e308 WHERE id = $1`, [forecastIds[1]]);
    await svc.sql(`INSERT INTO forecasts (tenant_id, cluster_id, cluster_version, slot_seconds, slots, quantile, starts_at, usage)
                   SELECT tenant_id, cluster_id, cluster_version, 1e308, 2, quantile, now() - interval '1 hour', '{}' FROM forecasts WHERE id = $1`, [forecastIds[0]]);
    await svc.sql(`UPDATE solves SET instance = jsonb_set(instance, '{horizon,slotSeconds}', '1e300') WHERE id = $1`, [solves[1].id]);
    await svc.sql(
      `UPDATE plans SET document = jsonb_set(document, '{kpis,jobs}', (SELECT jsonb_agg(j || '{"deadlineSlot": 1e300, "endSlot": 1e300}') FROM jsonb_array_elements(document->'kpis'->'jobs') j)) WHERE solve_id = ANY($1)`,
      [solves.map((s) => s.id)],
    );
    await readEverything('beyond the limits (rows from before the bounds)');
  });

  /** Every route that shows a stored slot, date or amount answers 200 (never a 5xx), for each role that reads it. */
  async function readEverything(what: string): Promise<void> {
    const op = svc.operatorKey;
    const range = 'from=2000-01-01T00:00:00Z&to=2001-01-01T00:00:00Z';
    const routes: [string, string][] = [
      [customerKey, '/v1/offered-clusters'],
      [farmerKey, `/v1/clusters/${clusterId}/forecasts`],
      ...forecastIds.map((id): [string, string] => [farmerKey, `/v1/forecasts/${id}`]),
      [customerKey, `/v1/batches/${batchId}/predictions`],
      ...solves.flatMap((s): [string, string][] => [
        [customerKey, `/v1/solves/${s.id}`],
        [customerKey, `/v1/solves/${s.id}/executions`],
        [customerKey, `/v1/plans/${s.planId}`],
        [customerKey, `/v1/plans/${s.planId}/assignments`],
        [customerKey, `/v1/plans/${s.planId}/charts/gantt.json`],
      ]),
      ...['customer', 'farmer', 'operator'].flatMap((role): [string, string][] => {
        const key = role === 'customer' ? customerKey : role === 'farmer' ? farmerKey : op;
        return [
          [key, `/v1/accounting/${role}`],
          [key, `/v1/accounting/${role}?basis=actual`],
          [key, `/v1/accounting/${role}?format=csv`],
          [key, `/v1/accounting/${role}?${range}`],
          [key, `/v1/accounting/${role}/charts/revenue.json`],
          [key, `/v1/accounting/${role}/charts/revenue.json?basis=actual`],
        ];
      }),
    ];
    const failures: string[] = [];
    for (const [key, path] of routes) {
      const r = await req(key, 'GET', path);
      if (r.status !== 200) failures.push(`${path}: ${r.status} ${r.text.slice(0, 200)}`);
    }
    assert.deepEqual(failures, [], `${what}: every read route answers 200`);
  }
});
