/**
 * Revenue and SLA accounting against the real service: a farmer lends a cluster, a customer solves a batch
 * for revenue on a worker and commits the plan, and the customer, farmer and operator reports on the plan basis agree with the
 * plan's KPIs (CSV too); execution events then drive the actual basis (a late job and its penalty, a killed
 * task as the farmer's incident, two days as two periods), idempotently and all-or-nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { strategyNames } from '../../src/engine/strategies';
import { parseCsv } from '../../src/modules/accounting/csv';
import { problem } from '../support/problem';
import { accountingCluster, HOUR, STARTS_AT, stage } from '../support/accounting-fixtures';
import { Service, startService, stopChild, waitFor } from '../../harness/service';
import { DEFAULT_INPUT_LIMITS } from '../../src/engine/model/input-bounds';

const DAY2 = '2030-01-02T00:00:00.000Z';
const SLOTS = 48;
const CLUSTER = accountingCluster('north');
const JOBS = [
  { id: 'j1', deadlineSlot: 6, revenue: { onTime: 1000, late: -200 }, stages: [stage('map', 2, 1), stage('reduce', 1, 1, ['map'])] },
  { id: 'j2', deadlineSlot: 8, revenue: { onTime: 750, late: -100 }, stages: [stage('map', 2, 1)] },
  // Released on the second day, so it ends there.
  { id: 'j3', releaseSlot: 26, deadlineSlot: 32, revenue: { onTime: 500, late: -50 }, stages: [stage('map', 1, 2)] },
  // Cannot meet its deadline (2 hours of work, due after 1): late costs the operator 500.
  { id: 'j4', deadlineSlot: 1, revenue: { onTime: 300, late: -500 }, stages: [stage('map', 1, 2)] },
];

interface Assignment { job: string; stage: string; task: number; node: string; start: number; end: number }
type Json = any;

describe('accounting', () => {
  let svc: Service;
  let farmer: { id: string; keys: Record<string, string> };
  let customer: { id: string; keys: Record<string, string> };
  let other: { id: string; keys: Record<string, string> };
  let solveId: string;
  let plan: Json;
  let assignments: Assignment[];
  const count = async (table: string) => Number((await svc.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
  const time = (slot: number) => new Date(Date.parse(STARTS_AT) + slot * HOUR * 1000).toISOString();
  const get = async (key: string, path: string) => {
    const r = await fetch(`${svc.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    const type = r.headers.get('content-type') ?? '';
    return { status: r.status, type, body: type.includes('json') ? await r.json() : await r.text() } as { status: number; type: string; body: Json };
  };
  const postEvents = (key: string, events: unknown[]) =>
    fetch(`${svc.baseUrl}/v1/executions/events`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ events }) }).then(
      async (r) => ({ status: r.status, type: r.headers.get('content-type') ?? '', body: (await r.json()) as Json }),
    );
  const range = `from=${encodeURIComponent(STARTS_AT)}&to=${encodeURIComponent('2030-01-03T00:00:00Z')}`;

  before(async () => {
    // Events of 2030: the window of event times (FALLOW_EVENT_MAX_AHEAD_SECONDS) reaches that far here.
    svc = await startService({ input: { ...DEFAULT_INPUT_LIMITS, eventMaxAheadSeconds: 10 * 366 * 86_400 } });
    farmer = await svc.tenant('dc-north', ['farmer']);
    customer = await svc.tenant('acme', ['customer']);
    other = await svc.tenant('globex', ['farmer', 'customer']);
    const op = svc.client(svc.operatorKey);
    const share = await op.PUT('/v1/tenants/{id}/revenue-share', { params: { path: { id: farmer.id } }, body: { shareBps: 3000 } });
    assert.equal(share.response.status, 200, JSON.stringify(share.error));
    assert.equal(share.data!.revenueShareBps, 3000);

    const f = svc.client(farmer.keys.farmer);
    const cluster = await f.POST('/v1/clusters', { body: CLUSTER as never });
    assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
    const forecast = await f.POST('/v1/clusters/{clusterId}/forecasts', {
      params: { path: { clusterId: cluster.data!.id } },
      body: { slotSeconds: HOUR, slots: SLOTS, quantile: 0.9, startsAt: STARTS_AT, usage: { w01: { cpu: Array(SLOTS).fill(0.25) } } },
    });
    assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));
    const c = svc.client(customer.keys.customer);
    const batch = await c.POST('/v1/batches', { body: { name: 'nightly', jobs: JOBS as never } });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
    const strategy = strategyNames().includes('edf') ? 'edf' : 'ls'; // edf once the engine registers it
    const solve = await c.POST('/v1/solves', {
      body: { clusterId: cluster.data!.id, forecastId: forecast.data!.id, batchId: batch.data!.id, strategy: strategy as never, objective: 'revenue', startsAt: STARTS_AT, timeBudgetMs: 1000 },
    });
    assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
    assert.equal(solve.data!.objective, 'revenue');
    assert.equal(solve.data!.startsAt, STARTS_AT);
    solveId = solve.data!.id;
    const worker = svc.startWorker();
    const done = await waitFor('the solve to end', async () => {
      const r = await c.GET('/v1/solves/{id}', { params: { path: { id: solveId } } });
      return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
    }, 60000);
    await stopChild(worker);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    plan = (await c.GET('/v1/plans/{id}', { params: { path: { id: done.planId! } } })).data;
    assert.equal(plan.stats.objective, 'revenue', 'the worker passed the objective to the engine');
    assert.equal(plan.objective.revenue, plan.kpis.revenue);
    assert.equal(plan.kpis.jobs.length, JOBS.length, 'the stored KPIs keep every job\'s outcome');
    const rows = await c.GET('/v1/plans/{id}/assignments', { params: { path: { id: done.planId! }, query: { limit: 1000 } } });
    assignments = rows.data!.items;
    // Accounting counts committed plans only (accounting-commitments.test.ts shows a proposal counts nowhere).
    const committed = await c.POST('/v1/plans/{id}/commit', { params: { path: { id: done.planId! } } });
    assert.equal(committed.response.status, 200, JSON.stringify(committed.error));
    assert.equal(committed.data!.status, 'committed');
  });
  after(async () => svc?.close());

  const outcomes = () => plan.kpis.jobs as { id: string; accepted: boolean; endSlot: number | null; onTime: boolean | null; revenue: number }[];
  const accepted = () => outcomes().filter((o) => o.accepted);

  describe('solve requests', () => {
    it('default to tasks-then-makespan starting when created; bad objective or startsAt are 422 problems', async () => {
      const c = svc.client(customer.keys.customer);
      const instance = { format: 'fallow.instance/v1', name: 'x', horizon: { slots: 4, slotSeconds: 300 }, metrics: ['cpu'], nodes: [{ id: 'n', capacity: { cpu: 2 } }], jobs: [{ id: 'a', stages: [{ id: 's', tasks: 1, demand: { cpu: 1 }, durationSeconds: 300 }] }] };
      const r = await c.POST('/v1/solves', { body: { instance: instance as never, strategy: 'rffd', timeBudgetMs: 200 } });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      assert.equal(r.data!.objective, 'tasks-then-makespan');
      assert.equal(r.data!.startsAt, r.data!.createdAt);
      const stored = await c.GET('/v1/solves/{id}', { params: { path: { id: r.data!.id } } });
      assert.deepEqual([stored.data!.objective, stored.data!.startsAt, stored.data!.createdAt], ['tasks-then-makespan', r.data!.createdAt, r.data!.createdAt]);
      const before = await count('solves');
      const bad = await c.POST('/v1/solves', { body: { instance: instance as never, objective: 'profit' as never, startsAt: 'tomorrow' } });
      assert.deepEqual(problem(bad, 422).problems.map((p) => p.path).sort(), ['objective', 'startsAt']);
      assert.equal(await count('solves'), before);
    });
  });

  describe('revenue share', () => {
    it('only operators set it, for existing tenants, to 0..10000 basis points', async () => {
      const op = svc.client(svc.operatorKey);
      for (const shareBps of [-1, 10001, 1.5, 'half']) {
        const r = await op.PUT('/v1/tenants/{id}/revenue-share', { params: { path: { id: other.id } }, body: { shareBps: shareBps as never } });
        assert.deepEqual([...new Set(problem(r, 422).problems.map((p) => p.path))], ['shareBps'], `shareBps ${shareBps}`);
      }
      problem(await op.PUT('/v1/tenants/{id}/revenue-share', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } }, body: { shareBps: 10 } }), 404);
      problem(await svc.client(farmer.keys.farmer).PUT('/v1/tenants/{id}/revenue-share', { params: { path: { id: farmer.id } }, body: { shareBps: 10000 } }), 403);
      const t = await op.GET('/v1/tenants/{id}', { params: { path: { id: farmer.id } } });
      assert.equal(t.data!.revenueShareBps, 3000);
    });
  });

  describe('plan basis', () => {
    it("the customer's bill is the plan's revenue split into amounts due and penalties", async () => {
      const r = await get(customer.keys.customer, `/v1/accounting/customer?${range}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const report = r.body;
      assert.equal(report.currency, 'EUR');
      assert.equal(report.jobs.length, JOBS.length);
      const due = outcomes().reduce((s, o) => s + Math.max(0, o.revenue), 0);
      const penalties = outcomes().reduce((s, o) => s + Math.max(0, -o.revenue), 0);
      assert.deepEqual([report.totals.amountDue, report.totals.penalties, report.totals.net], [due, penalties, plan.kpis.revenue]);
      for (const o of outcomes()) {
        const line = report.jobs.find((j: Json) => j.job === o.id);
        assert.equal(line.sla, !o.accepted ? 'rejected' : o.onTime ? 'on-time' : 'late', o.id);
        assert.equal(line.net, o.revenue);
        assert.equal(line.solveId, solveId);
        assert.equal(line.endAt, o.accepted ? time(o.endSlot!) : null);
      }
      assert.equal(report.jobs.find((j: Json) => j.job === 'j1').deadlineAt, time(6));
      // j3 ends on the second day: two daily bills, one monthly, and the batch total is the whole bill.
      assert.ok(outcomes().find((o) => o.id === 'j3')!.accepted, 'the plan runs j3');
      assert.deepEqual(report.bills.map((b: Json) => b.periodStart), [STARTS_AT, DAY2]);
      assert.equal(report.bills.reduce((s: number, b: Json) => s + b.net, 0), plan.kpis.revenue);
      assert.equal(report.batches.length, 1);
      assert.equal(report.batches[0].net, plan.kpis.revenue);
      const month = await get(customer.keys.customer, `/v1/accounting/customer?${range}&period=month`);
      assert.deepEqual(month.body.bills.map((b: Json) => [b.periodStart, b.net]), [['2030-01-01T00:00:00.000Z', plan.kpis.revenue]]);
      const day2 = await get(customer.keys.customer, `/v1/accounting/customer?from=${encodeURIComponent(DAY2)}`);
      assert.deepEqual(day2.body.jobs.map((j: Json) => j.job), ['j3'], 'from is inclusive and filters by the job\'s time');
    });

    it('the CSV export has a header and the same totals', async () => {
      const json = (await get(customer.keys.customer, `/v1/accounting/customer?${range}`)).body;
      const r = await get(customer.keys.customer, `/v1/accounting/customer?${range}&format=csv`);
      assert.equal(r.status, 200);
      assert.match(r.type, /^text\/csv/);
      const [header, ...rows] = parseCsv(r.body);
      assert.deepEqual(header, ['solve_id', 'batch_id', 'job', 'sla', 'deadline_at', 'end_at', 'period_start', 'currency', 'amount_due', 'penalty', 'net']);
      assert.equal(rows.length, JOBS.length);
      const sum = (col: string) => rows.reduce((s, row) => s + Number(row[header.indexOf(col)]), 0);
      assert.deepEqual([sum('amount_due'), sum('penalty'), sum('net')], [json.totals.amountDue, json.totals.penalties, json.totals.net]);
      const op = await get(svc.operatorKey, `/v1/accounting/operator?${range}&format=csv`);
      const [opHeader, ...opRows] = parseCsv(op.body);
      assert.equal(opRows.reduce((s, row) => s + Number(row[opHeader.indexOf('margin')]), 0), (await get(svc.operatorKey, `/v1/accounting/operator?${range}`)).body.totals.margin);
    });

    it("the farmer's report: jobs run, capacity lent as in the plan, 30 % of the positive revenue", async () => {
      const r = await get(farmer.keys.farmer, `/v1/accounting/farmer?${range}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const report = r.body;
      assert.equal(report.shareBps, 3000);
      assert.equal(report.totals.jobsRun, accepted().length);
      const share = accepted().reduce((s, o) => s + Math.floor((Math.max(0, o.revenue) * 3000) / 10000), 0);
      assert.equal(report.totals.shareEarned, share);
      assert.equal(report.totals.revenueBasis, accepted().reduce((s, o) => s + Math.max(0, o.revenue), 0));
      // Every task asks for 1 cpu and 2 ram, for (end - start) one-hour slots.
      const hours = assignments.reduce((s, a) => s + (a.end - a.start), 0);
      assert.ok(Math.abs(report.totals.capacityLent.cpu - hours) < 1e-9, `${report.totals.capacityLent.cpu} vs ${hours}`);
      assert.ok(Math.abs(report.totals.capacityLent.ram - 2 * hours) < 1e-9);
      assert.deepEqual([...new Set(report.clusters.map((c: Json) => c.clusterName))], ['north']);
      assert.deepEqual(report.clusters.map((c: Json) => c.periodStart), [STARTS_AT, DAY2]);
      const csv = parseCsv((await get(farmer.keys.farmer, `/v1/accounting/farmer?${range}&format=csv`)).body);
      assert.ok(csv[0].includes('capacity_cpu_hours') && csv[0].includes('share_earned'));
      assert.equal(csv.slice(1).reduce((s, row) => s + Number(row[csv[0].indexOf('share_earned')]), 0), share);
    });

    it("the operator's margin identity holds, with PRU and JCR of the plan", async () => {
      const r = await get(svc.operatorKey, `/v1/accounting/operator?${range}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const t = r.body.totals;
      const customerReport = (await get(svc.operatorKey, `/v1/accounting/customer?${range}&customerId=${customer.id}`)).body;
      const farmerReport = (await get(svc.operatorKey, `/v1/accounting/farmer?${range}&farmerId=${farmer.id}`)).body;
      assert.equal(t.revenue, customerReport.totals.amountDue);
      assert.equal(t.penalties, customerReport.totals.penalties);
      assert.equal(t.payouts, farmerReport.totals.shareEarned);
      assert.equal(t.margin, t.revenue - t.penalties - t.payouts);
      assert.ok(Math.abs(t.pru - plan.kpis.pru) < 1e-9, `${t.pru} vs ${plan.kpis.pru}`);
      assert.ok(Math.abs(t.jcr - plan.kpis.jcr) < 1e-9, `${t.jcr} vs ${plan.kpis.jcr}`);
      assert.equal(t.jobsOnTime + t.jobsLate + t.jobsRejected, JOBS.length);
      assert.deepEqual(r.body.farmers.map((f: Json) => f.farmerId), [farmer.id, farmer.id]);
      assert.deepEqual(r.body.customers.map((c: Json) => c.customerId), [customer.id, customer.id]);
      assert.equal(r.body.periods.reduce((s: number, p: Json) => s + p.margin, 0), t.margin);
    });
  });

  describe('execution events and the actual basis', () => {
    /** Started/finished events at the planned times; j1's reduce finishes an hour after j1's deadline (slot 7), one map task of j2 is killed and rerun. */
    const events = () => {
      const out: Json[] = [];
      for (const a of assignments) {
        const base = { solveId, job: a.job, stage: a.stage, task: a.task, node: a.node };
        const key = `${a.job}/${a.stage}/${a.task}`;
        out.push({ ...base, id: `${key}/started`, type: 'started', at: time(a.start) });
        if (a.job === 'j2' && a.task === 0) {
          out.push({ ...base, id: `${key}/killed`, type: 'killed', at: new Date(Date.parse(time(a.start)) + 600_000).toISOString(), reason: 'regular load peak' });
          out.push({ ...base, id: `${key}/restarted`, type: 'started', at: new Date(Date.parse(time(a.start)) + 900_000).toISOString() });
        }
        out.push({ ...base, id: `${key}/finished`, type: 'finished', at: time(a.job === 'j1' && a.stage === 'reduce' ? 7 : a.end) });
      }
      return out;
    };

    it('bad events are 422 problems naming each events[i].field, and nothing is written', async () => {
      const good = events()[0];
      const bad = [
        good,
        { ...good, id: 'x1', solveId: '00000000-0000-4000-8000-000000000000' },
        { ...good, id: 'x2', job: 'j9' },
        { ...good, id: 'x3', stage: 'shuffle' },
        { ...good, id: 'x4', task: 99, node: 'w77' },
        { ...good, id: 'x5', type: 'paused', at: '2030-13-01' },
      ];
      const r = await postEvents(farmer.keys.farmer, bad);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.match(r.type, /^application\/problem\+json/);
      assert.deepEqual(r.body.problems.map((p: Json) => p.path), ['events[1].solveId', 'events[2].job', 'events[3].stage', 'events[4].task', 'events[4].node', 'events[5].type', 'events[5].at']);
      assert.equal(await count('execution_events'), 0);
      // Another farmer (not running this cluster) and the customer of a by-reference solve may not report on it.
      for (const key of [other.keys.farmer, customer.keys.customer]) {
        const denied = await postEvents(key, [good]);
        assert.deepEqual(denied.body.problems.map((p: Json) => p.path), ['events[0].solveId']);
      }
      assert.equal((await postEvents(farmer.keys.farmer, [])).status, 422);
      assert.equal(await count('execution_events'), 0);
    });

    it('records events once: a retry is all duplicates, a changed event is a 409 and writes nothing', async () => {
      const all = events();
      const first = await postEvents(farmer.keys.farmer, all);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(first.body, { accepted: all.length, duplicates: 0 });
      const again = await postEvents(farmer.keys.farmer, all);
      assert.deepEqual(again.body, { accepted: 0, duplicates: all.length });
      assert.equal(await count('execution_events'), all.length);
      const changed = { ...all[1], at: '2030-01-01T23:00:00Z' };
      const fresh = { ...all[0], id: 'brand-new' };
      const conflict = await postEvents(farmer.keys.farmer, [fresh, changed]);
      assert.equal(conflict.status, 409, JSON.stringify(conflict.body));
      assert.deepEqual(conflict.body.problems.map((p: Json) => p.path), ['events[1].id']);
      assert.match(conflict.body.problems[0].message, new RegExp(all[1].id));
      assert.equal(await count('execution_events'), all.length, 'the fresh event of the rejected request was not written');
    });

    it('the actual basis shows the late job with its penalty, and the farmer its incident', async () => {
      const r = await get(customer.keys.customer, `/v1/accounting/customer?${range}&basis=actual`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const j1 = r.body.jobs.find((j: Json) => j.job === 'j1');
      assert.equal(j1.sla, 'late');
      assert.deepEqual([j1.amountDue, j1.penalty, j1.net], [0, 200, -200]);
      const j2 = r.body.jobs.find((j: Json) => j.job === 'j2');
      assert.equal(j2.sla, 'on-time', 'a killed task that finished later counts as finished');
      assert.equal(j2.amountDue, 750);
      assert.deepEqual(r.body.bills.map((b: Json) => b.periodStart), [STARTS_AT, DAY2], 'events on two days land in two periods');
      const expectedNet = r.body.jobs.reduce((s: number, j: Json) => s + j.net, 0);
      assert.equal(r.body.totals.net, expectedNet);

      const f = (await get(farmer.keys.farmer, `/v1/accounting/farmer?${range}&basis=actual`)).body;
      assert.equal(f.totals.incidents, 1);
      assert.deepEqual(f.incidents.map((i: Json) => [i.job, i.stage, i.task, i.reason]), [['j2', 'map', 0, 'regular load peak']]);
      assert.equal(f.totals.jobsRun, accepted().length);
      assert.equal(f.totals.shareEarned, r.body.jobs.reduce((s: number, j: Json) => s + Math.floor((j.amountDue * 3000) / 10000), 0));
      // j1's reduce ran until slot 7 instead of its planned end; j2's killed-and-rerun task spans its planned time.
      const planned = assignments.reduce((s, a) => s + (a.end - a.start), 0);
      const extra = assignments.filter((a) => a.job === 'j1' && a.stage === 'reduce').reduce((s, a) => s + (7 - a.end), 0);
      assert.ok(extra > 0);
      assert.ok(Math.abs(f.totals.capacityLent.cpu - (planned + extra)) < 1e-9, `${f.totals.capacityLent.cpu} vs ${planned + extra}`);

      const o = (await get(svc.operatorKey, `/v1/accounting/operator?${range}&basis=actual`)).body.totals;
      assert.equal(o.jobsLate, r.body.totals.late);
      assert.equal(o.margin, o.revenue - o.penalties - o.payouts);
      assert.equal(o.penalties, r.body.totals.penalties);
    });

    it("GET /v1/solves/{id}/executions: each job's tasks and actual SLA", async () => {
      const r = await get(customer.keys.customer, `/v1/solves/${solveId}/executions`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const j1 = r.body.jobs.find((j: Json) => j.job === 'j1');
      assert.deepEqual([j1.totalTasks, j1.startedTasks, j1.finishedTasks, j1.killedTasks, j1.sla], [3, 3, 3, 0, 'late']);
      assert.equal(j1.deadlineAt, time(6));
      const j2 = r.body.jobs.find((j: Json) => j.job === 'j2');
      assert.deepEqual([j2.finishedTasks, j2.killedTasks, j2.sla], [2, 1, 'on-time']);
      assert.equal((await get(farmer.keys.farmer, `/v1/solves/${solveId}/executions`)).status, 200, 'the farmer running it reads it too');
      for (const key of [other.keys.customer, other.keys.farmer]) assert.equal((await get(key, `/v1/solves/${solveId}/executions`)).status, 404);
    });
  });

  describe('access and parameters', () => {
    it('tenants see only their own accounting', async () => {
      assert.equal((await get(other.keys.customer, `/v1/accounting/customer?customerId=${customer.id}`)).status, 404);
      assert.equal((await get(other.keys.farmer, `/v1/accounting/farmer?farmerId=${farmer.id}`)).status, 404);
      const own = await get(other.keys.customer, `/v1/accounting/customer?${range}`);
      assert.deepEqual([own.status, own.body.jobs.length, own.body.totals.net], [200, 0, 0]);
      const ownFarm = await get(other.keys.farmer, `/v1/accounting/farmer?${range}&basis=actual`);
      assert.deepEqual([ownFarm.body.clusters.length, ownFarm.body.incidents.length], [0, 0]);
      assert.equal((await get(farmer.keys.farmer, '/v1/accounting/customer')).status, 403);
      assert.equal((await get(customer.keys.customer, '/v1/accounting/farmer')).status, 403);
      for (const key of [farmer.keys.farmer, customer.keys.customer]) assert.equal((await get(key, '/v1/accounting/operator')).status, 403);
      const missing = await get(svc.operatorKey, '/v1/accounting/customer');
      assert.deepEqual([missing.status, missing.body.problems[0].path], [422, 'query:customerId']);
      assert.equal((await get(svc.operatorKey, '/v1/accounting/farmer?farmerId=00000000-0000-4000-8000-000000000000')).status, 404);
    });

    it('bad query parameters are 422 problems naming each parameter', async () => {
      const r = await get(customer.keys.customer, '/v1/accounting/customer?from=soon&period=year&basis=guess&format=pdf');
      assert.equal(r.status, 422);
      assert.deepEqual(r.body.problems.map((p: Json) => p.path), ['query:from', 'query:period', 'query:basis', 'query:format']);
    });
  });
});
