/**
 * Accounting follows commitments (issue 37, point 6), against the real service (API, a worker, Postgres,
 * Redis). A customer's plan A is committed; its plan B, solved on the same cluster, stays proposed. Every
 * report (customer, farmer, operator; plan and actual basis; CSV; revenue chart) shows A's figures and not
 * one of B's, even with execution events reported for B's tasks (one of them killed). Committing B adds
 * exactly B's figures (its KPIs, its assignments' capacity, its incident); releasing it gives back reports
 * identical to those before. A plan C whose window lies a few seconds ahead is committed and then completes
 * by itself when its last task has ended, as the service decides it (not by writing the status in SQL, which
 * would only show that the query lists 'completed'): completed, it still counts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseCsv } from '../../src/modules/accounting/csv';
import { accountingCluster, HOUR, STARTS_AT, stage } from '../support/accounting-fixtures';
import { Service, startService, waitFor } from '../../harness/service';
import { DEFAULT_INPUT_LIMITS } from '../../src/engine/model/input-bounds';

const SHARE_BPS = 3000;
const SLOTS = 48;
const RANGE = `from=${encodeURIComponent(STARTS_AT)}&to=${encodeURIComponent('2030-01-03T00:00:00Z')}`;
// Each batch has a job that cannot meet its deadline (two hours of work due after one): a penalty to count.
const JOBS_A = [
  { id: 'a1', deadlineSlot: 6, revenue: { onTime: 1000, late: -200 }, stages: [stage('map', 2, 1)] },
  { id: 'a2', deadlineSlot: 1, revenue: { onTime: 300, late: -500 }, stages: [stage('map', 1, 2)] },
];
const JOBS_B = [
  { id: 'b1', deadlineSlot: 10, revenue: { onTime: 750, late: -100 }, stages: [stage('map', 2, 1), stage('reduce', 1, 1, ['map'])] },
  { id: 'b2', deadlineSlot: 1, revenue: { onTime: 500, late: -50 }, stages: [stage('map', 1, 2)] },
];
/** C: one ten-second task in ten-second slots, due by its third slot. */
const C_SLOT_SECONDS = 10;
const JOBS_C = [{ id: 'c1', deadlineSlot: 3, revenue: { onTime: 400, late: -40 }, stages: [{ id: 'map', tasks: 1, demand: { cpu: 1, ram: 2 }, durationSeconds: C_SLOT_SECONDS }] }];

interface Assignment { job: string; stage: string; task: number; node: string; start: number; end: number }
interface Solved { solveId: string; planId: string; plan: Json; assignments: Assignment[]; startsAt: string; slotSeconds: number }
type Json = any;

/** What the plans should add up to in every report, from their KPIs and assignments alone. */
function expected(plans: Solved[]) {
  const jobs = plans.flatMap((p) => p.plan.kpis.jobs as { accepted: boolean; revenue: number }[]);
  const hours = plans.reduce((h, p) => h + p.assignments.reduce((s, a) => s + (a.end - a.start), 0) * (p.slotSeconds / HOUR), 0);
  const sum = (f: (j: { accepted: boolean; revenue: number }) => number) => jobs.reduce((s, j) => s + f(j), 0);
  return {
    jobs: jobs.length,
    amountDue: sum((j) => Math.max(0, j.revenue)),
    penalties: sum((j) => Math.max(0, -j.revenue)),
    net: sum((j) => j.revenue),
    jobsRun: jobs.filter((j) => j.accepted).length,
    shareEarned: sum((j) => (j.accepted ? Math.floor((Math.max(0, j.revenue) * SHARE_BPS) / 10000) : 0)),
    cpuHours: hours,
  };
}

describe('accounting follows commitments', () => {
  let svc: Service;
  let farmer: { id: string; keys: Record<string, string> };
  let customer: { id: string; keys: Record<string, string> };
  let clusterId: string;
  let a: Solved;
  let b: Solved;
  const get = async (key: string, path: string): Promise<{ status: number; body: Json }> => {
    const r = await fetch(`${svc.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    const type = r.headers.get('content-type') ?? '';
    return { status: r.status, body: type.includes('json') ? await r.json() : await r.text() };
  };
  const post = async (key: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const r = await fetch(`${svc.baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  };

  async function solved(jobs: unknown[], run: { startsAt: string; forecastId?: string; horizon?: { slots: number; slotSeconds: number } }): Promise<Solved> {
    const c = svc.client(customer.keys.customer);
    const batch = await c.POST('/v1/batches', { body: { name: 'nightly', jobs: jobs as never } });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
    const solve = await c.POST('/v1/solves', { body: { clusterId, batchId: batch.data!.id, strategy: 'rffd', timeBudgetMs: 300, ...run } });
    assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
    const done = await waitFor('the solve to end', async () => {
      const r = await c.GET('/v1/solves/{id}', { params: { path: { id: solve.data!.id } } });
      return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
    }, 60_000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const plan = (await get(customer.keys.customer, `/v1/plans/${done.planId}`)).body;
    assert.equal(plan.status, 'proposed');
    assert.ok(plan.kpis.jobs.every((j: Json) => j.accepted), 'every job is scheduled');
    const assignments = (await get(customer.keys.customer, `/v1/plans/${done.planId}/assignments?limit=1000`)).body.items;
    return { solveId: done.id, planId: done.planId!, plan, assignments, startsAt: run.startsAt, slotSeconds: plan.window.slotSeconds };
  }

  /** Started and finished events at the planned times; `killed`: one task of the plan is killed and run again. */
  function events(s: Solved, killed: boolean): Json[] {
    const time = (slot: number) => new Date(Date.parse(s.startsAt) + slot * s.slotSeconds * 1000).toISOString();
    return s.assignments.flatMap((x, i) => {
      const base = { solveId: s.solveId, job: x.job, stage: x.stage, task: x.task, node: x.node };
      const key = `${s.solveId}/${x.job}/${x.stage}/${x.task}`;
      const rerun =
        killed && i === 0
          ? [
              { ...base, id: `${key}/killed`, type: 'killed', at: new Date(Date.parse(time(x.start)) + 1000).toISOString(), reason: 'regular load peak' },
              { ...base, id: `${key}/restarted`, type: 'started', at: new Date(Date.parse(time(x.start)) + 2000).toISOString() },
            ]
          : [];
      return [{ ...base, id: `${key}/started`, type: 'started', at: time(x.start) }, ...rerun, { ...base, id: `${key}/finished`, type: 'finished', at: time(x.end) }];
    });
  }

  /** Every report of a range and basis, as JSON, CSV and chart spec. */
  async function reports(range: string, basis: 'plan' | 'actual') {
    const q = `?${range}&basis=${basis}`;
    const read = async (key: string, path: string) => {
      const r = await get(key, path);
      assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
      return r.body;
    };
    return {
      customer: await read(customer.keys.customer, `/v1/accounting/customer${q}`),
      customerCsv: parseCsv(await read(customer.keys.customer, `/v1/accounting/customer${q}&format=csv`)),
      customerChart: await read(customer.keys.customer, `/v1/accounting/customer/charts/revenue.json${q}`),
      farmer: await read(farmer.keys.farmer, `/v1/accounting/farmer${q}`),
      farmerCsv: parseCsv(await read(farmer.keys.farmer, `/v1/accounting/farmer${q}&format=csv`)),
      operator: await read(svc.operatorKey, `/v1/accounting/operator${q}`),
      operatorChart: await read(svc.operatorKey, `/v1/accounting/operator/charts/revenue.json${q}`),
    };
  }

  /** The reports count exactly `plans`: their jobs, money, share, capacity; and `incidents` killed tasks. */
  function countsExactly(r: Awaited<ReturnType<typeof reports>>, plans: Solved[], incidents: number, what: string): void {
    const e = expected(plans);
    const c = r.customer;
    assert.deepEqual([...new Set(c.jobs.map((j: Json) => j.solveId))].sort(), plans.map((p) => p.solveId).sort(), `${what}: the customer's lines are of these plans`);
    assert.deepEqual([c.totals.jobs, c.totals.amountDue, c.totals.penalties, c.totals.net], [e.jobs, e.amountDue, e.penalties, e.net], `${what}: customer totals`);
    const [header, ...rows] = r.customerCsv;
    assert.equal(rows.length, e.jobs, `${what}: CSV rows`);
    assert.equal(rows.reduce((s, row) => s + Number(row[header.indexOf('net')]), 0), e.net, `${what}: CSV net`);
    const due = r.customerChart.layer[0].data.values.filter((v: Json) => v.series === 'amount due').reduce((s: number, v: Json) => s + v.amount, 0);
    assert.equal(Math.round(due * 100), e.amountDue, `${what}: the revenue chart draws the amounts due`);

    const f = r.farmer.totals;
    assert.deepEqual([f.jobsRun, f.revenueBasis, f.shareEarned, f.incidents], [e.jobsRun, e.amountDue, e.shareEarned, incidents], `${what}: farmer totals`);
    assert.ok(Math.abs((f.capacityLent.cpu ?? 0) - e.cpuHours) < 1e-9, `${what}: cpu lent ${f.capacityLent.cpu} vs ${e.cpuHours}`);
    assert.ok(Math.abs((f.capacityLent.ram ?? 0) - 2 * e.cpuHours) < 1e-9, `${what}: ram lent ${f.capacityLent.ram} vs ${2 * e.cpuHours}`);
    assert.equal(r.farmer.incidents.length, incidents);
    const [fHeader, ...fRows] = r.farmerCsv;
    assert.equal(fRows.reduce((s, row) => s + Number(row[fHeader.indexOf('share_earned')]), 0), e.shareEarned, `${what}: farmer CSV share`);

    const o = r.operator.totals;
    assert.deepEqual([o.revenue, o.penalties, o.payouts, o.margin], [e.amountDue, e.penalties, e.shareEarned, e.amountDue - e.penalties - e.shareEarned], `${what}: operator totals`);
    const opRevenue = r.operatorChart.layer[0].data.values.filter((v: Json) => v.series === 'revenue').reduce((s: number, v: Json) => s + v.amount, 0);
    assert.equal(Math.round(opRevenue * 100), e.amountDue, `${what}: the operator's chart draws the revenue`);
  }

  before(async () => {
    // Events of 2030: the window of event times (FALLOW_EVENT_MAX_AHEAD_SECONDS) reaches that far here.
    svc = await startService({ input: { ...DEFAULT_INPUT_LIMITS, eventMaxAheadSeconds: 10 * 366 * 86_400 } });
    svc.startWorker();
    farmer = await svc.tenant('commit-farm', ['farmer']);
    customer = await svc.tenant('commit-shop', ['customer']);
    const share = await svc.client(svc.operatorKey).PUT('/v1/tenants/{id}/revenue-share', { params: { path: { id: farmer.id } }, body: { shareBps: SHARE_BPS } });
    assert.equal(share.response.status, 200, JSON.stringify(share.error));
    const f = svc.client(farmer.keys.farmer);
    const cluster = await f.POST('/v1/clusters', { body: accountingCluster('commit-north') as never });
    assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
    clusterId = cluster.data!.id;
    const forecast = await f.POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId } },
      body: { slotSeconds: HOUR, slots: SLOTS, quantile: 0.9, startsAt: STARTS_AT, usage: { w01: { cpu: Array(SLOTS).fill(0.25) } } },
    });
    assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));

    a = await solved(JOBS_A, { startsAt: STARTS_AT, forecastId: forecast.data!.id });
    const committed = await post(customer.keys.customer, `/v1/plans/${a.planId}/commit`);
    assert.equal(committed.status, 200, JSON.stringify(committed.body));
    // B is solved after A's commitment, so it plans around A and can be committed later.
    b = await solved(JOBS_B, { startsAt: STARTS_AT, forecastId: forecast.data!.id });
    for (const p of [a, b]) assert.ok(expected([p]).penalties > 0, 'each plan has a late job: penalties count too');
    // What ran, as the farmer reports it, for both plans: B's tasks ran (one was killed) though nobody committed B.
    const reported = await post(farmer.keys.farmer, '/v1/executions/events', { events: [...events(a, false), ...events(b, true)] });
    assert.equal(reported.status, 200, JSON.stringify(reported.body));
  });
  after(async () => svc?.close());

  let beforeCommit: { plan: Awaited<ReturnType<typeof reports>>; actual: Awaited<ReturnType<typeof reports>> };

  it('a proposed plan adds nothing to any report, on the plan or the actual basis, even with its tasks reported run', async () => {
    beforeCommit = { plan: await reports(RANGE, 'plan'), actual: await reports(RANGE, 'actual') };
    countsExactly(beforeCommit.plan, [a], 0, 'plan basis, B proposed');
    // Events at the planned times: the actual basis agrees with A's plan; B's events and its kill are not billed.
    countsExactly(beforeCommit.actual, [a], 0, 'actual basis, B proposed');
  });

  it('committing it adds exactly its figures, its capacity and its incident', async () => {
    // An operator commits it this time (a customer may commit its own, as A was).
    const r = await post(svc.operatorKey, `/v1/plans/${b.planId}/commit`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'committed');
    // The farmer's incidents are killed-task events, shown on every basis.
    countsExactly(await reports(RANGE, 'plan'), [a, b], 1, 'plan basis, B committed');
    const actual = await reports(RANGE, 'actual');
    countsExactly(actual, [a, b], 1, 'actual basis, B committed');
    assert.equal(actual.farmer.incidents[0].solveId, b.solveId);
  });

  it("releasing it takes every one of its figures out again: the reports are those from before its commit", async () => {
    const r = await post(customer.keys.customer, `/v1/plans/${b.planId}/release`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'released');
    assert.deepEqual(await reports(RANGE, 'plan'), beforeCommit.plan);
    assert.deepEqual(await reports(RANGE, 'actual'), beforeCommit.actual);
  });

  it('a committed plan still counts once completed (its last task ended), on the plan and the actual basis', async () => {
    // A window starting 20 s from now: long enough to solve and commit before it ends (commit refuses a plan
    // whose last task has ended), short enough to wait for its end.
    const startsAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 20_000).toISOString();
    const c = await solved(JOBS_C, { startsAt, horizon: { slots: 4, slotSeconds: C_SLOT_SECONDS } });
    const committed = await post(customer.keys.customer, `/v1/plans/${c.planId}/commit`);
    assert.equal(committed.status, 200, JSON.stringify(committed.body));
    const done = await waitFor('the plan to complete', async () => {
      const p = (await get(customer.keys.customer, `/v1/plans/${c.planId}`)).body;
      return p.status === 'completed' ? p : undefined;
    }, 120_000, 500);
    assert.ok(done.completedAt);
    // Completion is read from the clock, never written by a read: the row still says committed.
    assert.deepEqual(await svc.sql<{ status: string }>('SELECT status FROM plans WHERE id = $1', [c.planId]), [{ status: 'committed' }], 'derived, not stored');
    const reported = await post(farmer.keys.farmer, '/v1/executions/events', { events: events(c, false) });
    assert.equal(reported.status, 200, JSON.stringify(reported.body));
    const range = `from=${encodeURIComponent(new Date(Date.parse(startsAt) - HOUR * 1000).toISOString())}&to=${encodeURIComponent(new Date(Date.parse(startsAt) + HOUR * 1000).toISOString())}`;
    countsExactly(await reports(range, 'plan'), [c], 0, 'plan basis, C completed');
    countsExactly(await reports(range, 'actual'), [c], 0, 'actual basis, C completed');
  });
});
