/**
 * Plan simulations against the real service and a worker process: a plan solved through the API is replayed
 * with actual = its forecast (no kills, timing as planned), with a heavier actual load under Cuckoo's QoS
 * (kills and relaunches), with no actual at all (the report says the forecast was taken as actual); invalid
 * requests are 422 problems naming each path and queue nothing; other tenants see 404s; listings page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { Service, startService, waitFor } from '../../harness/service';

const S = 300;
const SLOTS = 24;
const flat = (v: number) => Array(SLOTS).fill(v);
const step = (v0: number, n: number, v1: number) => Array.from({ length: SLOTS }, (_, t) => (t < n ? v0 : v1));
const CLUSTER = {
  name: 'sim-north',
  metrics: ['cpu', 'ram'],
  nodes: [
    { id: 'w01', capacity: { cpu: 4, ram: 16 }, speed: 1 },
    { id: 'w02', capacity: { cpu: 4, ram: 16 }, speed: 1 },
  ],
};
const FORECAST = { w01: { cpu: flat(0.25), ram: flat(0.1) }, w02: { cpu: flat(0), ram: flat(0.2) } };
const JOBS = [
  {
    id: 'j1',
    deadlineSlot: 12,
    revenue: { onTime: 100, late: -20 },
    stages: [
      { id: 'map', tasks: 6, demand: { cpu: 1, ram: 2 }, durationSeconds: 600 },
      { id: 'reduce', tasks: 2, after: ['map'], demand: { cpu: 1, ram: 2 }, durationSeconds: 300 },
    ],
  },
  { id: 'j2', revenue: { onTime: 50, late: 50 }, stages: [{ id: 'map', tasks: 4, demand: { cpu: 1, ram: 2 }, durationSeconds: 900 }] },
];

type Json = any;

describe('plan simulations', () => {
  let svc: Service;
  let a: { id: string; keys: Record<string, string> };
  let b: { id: string; keys: Record<string, string> };
  let planId: string;
  let forecastId: string;
  let clusterId: string;
  let batchId: string;
  let plan: Json;
  const customer = () => svc.client(a.keys.customer);
  const count = async () => Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM simulations'))[0].n);
  const simulate = (body: Json, key = a.keys.customer, id = planId) => svc.client(key).POST('/v1/plans/{planId}/simulations', { params: { path: { planId: id } }, body });
  const finished = (id: string) =>
    waitFor('the simulation to end', async () => {
      const r = await customer().GET('/v1/simulations/{id}', { params: { path: { id } } });
      return r.data && (r.data.status === 'succeeded' || r.data.status === 'failed') ? r.data : undefined;
    }, 45_000);
  const run = async (body: Json) => {
    const r = await simulate(body);
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    assert.equal(r.response.headers.get('location'), `/v1/simulations/${r.data!.id}`);
    assert.equal(r.data!.status, 'queued');
    const done = await finished(r.data!.id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.ok(done.report && done.startedAt && done.finishedAt);
    return done;
  };

  before(async () => {
    svc = await startService();
    svc.startWorker();
    a = await svc.tenant('sim-a', ['farmer', 'customer']);
    b = await svc.tenant('sim-b', ['farmer', 'customer']);
    const f = svc.client(a.keys.farmer);
    const cluster = await f.POST('/v1/clusters', { body: CLUSTER as never });
    assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
    const forecast = await f.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: cluster.data!.id } }, body: { slotSeconds: S, slots: SLOTS, quantile: 0.9, usage: FORECAST } });
    assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));
    forecastId = forecast.data!.id;
    clusterId = cluster.data!.id;
    const batch = await customer().POST('/v1/batches', { body: { name: 'sim', jobs: JOBS as never } });
    assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
    batchId = batch.data!.id;
    const solve = await customer().POST('/v1/solves', { body: { clusterId: cluster.data!.id, forecastId, batchId: batch.data!.id, strategy: 'ls', timeBudgetMs: 1000 } });
    assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
    const done = await waitFor('the solve to end', async () => {
      const r = await customer().GET('/v1/solves/{id}', { params: { path: { id: solve.data!.id } } });
      return r.data && ['succeeded', 'failed', 'cancelled'].includes(r.data.status) ? r.data : undefined;
    }, 60_000);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    planId = done.planId!;
    plan = (await customer().GET('/v1/plans/{id}', { params: { path: { id: planId } } })).data;
    assert.equal(plan.objective.scheduledTasks, 12, 'the plan runs every task');
  });
  after(async () => svc?.close());

  it('actual = the forecast: no kills, nothing remote, every job ends when the plan says', async () => {
    const done = await run({ actualForecastId: forecastId });
    assert.deepEqual([done.actualSource, done.actualForecastId, done.qos, done.seed], ['forecast', forecastId, 'salamander', 1]);
    const r = done.report!;
    assert.deepEqual([r.mode, r.driver, r.qos], ['plan', 'plan:ls', 'salamander']);
    assert.deepEqual([r.relaunches, r.relaunchedTaskPct, r.remoteTaskPct, r.unfinishedJobs, r.rejectedJobs, r.interferenceSlots, r.deadlineMisses], [0, 0, 0, 0, 0, 0, 0]);
    const planned = plan.objective.makespanSlots * S;
    assert.ok(r.makespanSeconds <= planned + 1e-6 && r.makespanSeconds > planned - S, `${r.makespanSeconds} vs planned ${planned}`);
    assert.deepEqual(r.jobs.map((j) => j.id), ['j1', 'j2']);
    for (const j of r.jobs) {
      const k = plan.kpis.jobs.find((x: Json) => x.id === j.id);
      assert.ok(j.endSeconds !== null && j.endSeconds <= k.endSlot * S + 1e-6, `${j.id} ends at ${j.endSeconds}, planned ${k.endSlot * S}`);
      assert.equal(j.onTime, k.onTime);
      assert.equal(j.revenue, k.revenue);
    }
    assert.equal(r.revenue, plan.kpis.revenue);
    assert.ok(r.jobExecutionSeconds.min > 0 && r.jobExecutionSeconds.max <= planned + 1e-6);
  });

  it('without an actual, the plan\'s own forecast is replayed, and the simulation says so', async () => {
    const done = await run({});
    assert.equal(done.actualSource, 'plan');
    assert.equal(done.actualForecastId, null);
    assert.match(done.actualDescription, /plan's own forecast/);
    const same = await run({ actualForecastId: forecastId });
    const { elapsedMs: _a, ...x } = done.report!;
    const { elapsedMs: _b, ...y } = same.report!;
    assert.deepEqual(x, y);
  });

  it('a heavier actual load makes Cuckoo\'s controller, as Salamander reads it, kill and relaunch tasks', async () => {
    // From slot 1 the regular customers take 90% of w01's CPU and, in slots 2-3, 80% of w02's: the tasks
    // over-commit CPU, which Cuckoo's controller as Salamander describes it kills for (Salamander's would throttle).
    // The load moves linearly within slots (100-ms controller), so w02's tasks are killed while it rises through
    // slot 1; they run again once it has fallen back (a lasting 80% would leave no room for a 1-core task at all).
    const w02 = Array.from({ length: SLOTS }, (_, t) => (t === 2 || t === 3 ? 0.8 : 0));
    const actualUsage = { w01: { cpu: step(0.25, 1, 0.9), ram: flat(0.1) }, w02: { cpu: w02, ram: flat(0.2) } };
    const done = await run({ actualUsage, qos: 'cuckoo-salamander-reading', seed: 3 });
    assert.deepEqual([done.actualSource, done.qos, done.seed], ['usage', 'cuckoo-salamander-reading', 3]);
    const r = done.report!;
    assert.equal(r.qos, 'cuckoo-salamander-reading');
    assert.ok(r.relaunches > 0 && r.relaunchedTaskPct > 0, JSON.stringify(r));
    const calm = await run({ actualForecastId: forecastId, qos: 'cuckoo-salamander-reading' });
    assert.equal(calm.report!.relaunches, 0, 'the same controller kills nothing under the forecast load');
    assert.ok(r.makespanSeconds > calm.report!.makespanSeconds, `the kills cost time: ${r.makespanSeconds} s vs ${calm.report!.makespanSeconds} s calm`);
  });

  it('invalid requests are 422 problems naming each path, and nothing is stored or queued', async () => {
    const before = await count();
    const bad = await simulate({ actualUsage: { w01: { cpu: [...flat(0.1).slice(1), 2], gpu: flat(0) }, w99: { cpu: flat(0) }, w02: { ram: [0.1] } } });
    assert.deepEqual(
      problem(bad, 422).problems.map((p) => p.path).sort(),
      ['actualUsage.w01.cpu[23]', 'actualUsage.w01.gpu', 'actualUsage.w02.ram', 'actualUsage.w99'],
    );
    const both = await simulate({ actualUsage: FORECAST, actualForecastId: forecastId, qos: 'strict', seed: -1 });
    assert.deepEqual(problem(both, 422).problems.map((p) => p.path).sort(), ['actualForecastId', 'qos', 'seed']);
    const notObject = await simulate({ actualUsage: [1, 2] });
    assert.deepEqual(problem(notObject, 422).problems.map((p) => p.path), ['actualUsage']);
    const malformed = await fetch(`${svc.baseUrl}/v1/plans/${planId}/simulations`, { method: 'POST', headers: { Authorization: `Bearer ${a.keys.customer}`, 'Content-Type': 'application/json' }, body: '{"qos":' });
    assert.equal(malformed.status, 400);
    const unknownForecast = await simulate({ actualForecastId: '00000000-0000-4000-8000-000000000000' });
    problem(unknownForecast, 404);
    problem(await simulate({}, a.keys.customer, '00000000-0000-4000-8000-000000000000'), 404);
    assert.equal(await count(), before);
    const waiting = await svc.sql<{ n: number }>("SELECT count(*)::int AS n FROM simulations WHERE status = 'queued'");
    assert.equal(Number(waiting[0].n), 0);
  });

  it('tenancy: another tenant gets 404s; the operator sees and simulates every plan', async () => {
    const own = await run({});
    const other = svc.client(b.keys.customer);
    problem(await simulate({}, b.keys.customer), 404);
    problem(await other.GET('/v1/plans/{planId}/simulations', { params: { path: { planId } } }), 404);
    problem(await other.GET('/v1/simulations/{id}', { params: { path: { id: own.id } } }), 404);
    const op = svc.client(svc.operatorKey);
    const seen = await op.GET('/v1/simulations/{id}', { params: { path: { id: own.id } } });
    assert.equal(seen.response.status, 200);
    const byOperator = await simulate({}, svc.operatorKey);
    assert.equal(byOperator.response.status, 202, JSON.stringify(byOperator.error));
    const row = await svc.sql<{ tenant_id: string }>('SELECT tenant_id FROM simulations WHERE id = $1', [byOperator.data!.id]);
    assert.equal(row[0].tenant_id, a.id, 'the plan\'s tenant owns it, so its customer sees it');
    await finished(byOperator.data!.id);
  });

  it('lists a plan\'s simulations newest first, in pages', async () => {
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await customer().GET('/v1/plans/{planId}/simulations', { params: { path: { planId }, query: { limit: 2, ...(cursor ? { cursor } : {}) } } });
      assert.equal(page.response.status, 200, JSON.stringify(page.error));
      assert.ok(page.data!.items.length <= 2);
      all.push(...page.data!.items.map((s) => s.id));
      cursor = page.data!.nextCursor ?? undefined;
    } while (cursor);
    const rows = await svc.sql<{ id: string }>('SELECT id FROM simulations WHERE plan_id = $1 ORDER BY date_trunc(\'milliseconds\', created_at) DESC, id DESC', [planId]);
    assert.deepEqual(all, rows.map((r) => r.id));
    assert.ok(all.length >= 6);
    problem(await customer().GET('/v1/plans/{planId}/simulations', { params: { path: { planId }, query: { cursor: 'nonsense' } } }), 422);
  });

  it('runs an online policy on a cluster, batch and forecast as long work: the report of the policy, no plan', async () => {
    const post = (body: Json, key = a.keys.customer) => svc.client(key).POST('/v1/simulations', { body });
    // POSUM over HTTP: the portfolio's decisions, its score and F_c in the stored report.
    const posum = await post({ clusterId, batchId, forecastId, policy: 'posum', qos: 'none', periodSeconds: 1800, lookAheadSeconds: 3600, delta: 0.7, gamma: 2 });
    assert.equal(posum.response.status, 202, JSON.stringify(posum.error));
    const ran = await finished(posum.data!.id);
    assert.equal(ran.status, 'succeeded', ran.error ?? '');
    assert.equal(ran.report!.driver, 'posum');
    assert.ok(ran.report!.decisions!.length > 0 && ran.report!.decisions![0].scores.length === 16);
    assert.equal(typeof ran.report!.fc, 'number');
    assert.deepEqual([(ran.posum as Json).allocation.delta, (ran.posum as Json).weights.gamma, (ran.posum as Json).periodSeconds, (ran.posum as Json).decideOnArrival], [0.7, 2, 1800, true]);
    assert.deepEqual([ran.qosPeriodSeconds, ran.report!.qosPeriodSeconds], [0.1, 0.1], 'the QoS controller checks every 100 ms by default');
    // A provisioning policy leases the cluster's lease nodes: on a cluster without any it is a 422 naming provision.
    const noLease = await post({ clusterId, batchId, forecastId, policy: 'hsrtf', provision: 'dlx', qos: 'none' });
    assert.deepEqual((problem(noLease, 422).problems as Json[]).map((p) => p.path), ['provision']);
    assert.match(problem(noLease, 422).problems[0].message, /"dlx" leases the cluster's nodes that carry lease, and this cluster has none/);
    const leasing = await svc.client(a.keys.farmer).POST('/v1/clusters', {
      body: { ...CLUSTER, name: 'sim-leasing', nodes: [...CLUSTER.nodes, { id: 'w03', capacity: { cpu: 4, ram: 16 }, speed: 1, lease: { startupSeconds: 60, minLeaseSeconds: 600 } }] } as never,
    });
    assert.equal(leasing.response.status, 201, JSON.stringify(leasing.error));
    const member = await post({ clusterId: leasing.data!.id, batchId, policy: 'hsrtf', provision: 'dlx', qos: 'none', qosPeriodSeconds: S, horizon: { slots: SLOTS, slotSeconds: S } });
    assert.equal(member.response.status, 202, JSON.stringify(member.error));
    const memberRun = await finished(member.data!.id);
    assert.deepEqual([memberRun.status, memberRun.provision, memberRun.report!.provisioning], ['succeeded', 'dlx', 'dlx']);
    assert.deepEqual([memberRun.qosPeriodSeconds, memberRun.report!.qosPeriodSeconds], [S, S], 'once per slot, as asked');
    const truth = { trueSeconds: { j2: { map: 1800 } }, runtimeSigma: 0.2 };
    for (const [policy, reduceSlowstart, truthOf] of [['aco-bp', 0.05, undefined], ['fair', undefined, truth]] as const) {
      const r = await post({ clusterId, batchId, forecastId, policy, qos: 'none', seed: 3, reduceSlowstart, ...truthOf });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      assert.equal(r.response.headers.get('location'), `/v1/simulations/${r.data!.id}`);
      assert.deepEqual([r.data!.planId, r.data!.policy, r.data!.status], [null, policy, 'queued']);
      const done = await finished(r.data!.id);
      assert.equal(done.status, 'succeeded', done.error ?? '');
      const report = done.report!;
      assert.deepEqual([report.mode, report.driver, report.qos, report.seed, report.unfinishedJobs], ['policy', policy, 'none', 3, 0]);
      assert.deepEqual([done.reduceSlowstart, report.reduceSlowstart], [reduceSlowstart ?? 1, reduceSlowstart ?? 1]);
      assert.deepEqual([done.trueSeconds, done.runtimeSigma], [truthOf?.trueSeconds ?? null, truthOf?.runtimeSigma ?? 0]);
      // j2's maps really take 1800 s (twice the instance's 900 s, give or take the spread).
      if (truthOf) assert.ok(report.jobs[1].computeSeconds! > 1800 * Math.exp(-0.8), `j2 took ${report.jobs[1].computeSeconds} s`);
      assert.deepEqual(report.jobs.map((j: Json) => j.id), ['j1', 'j2']);
      assert.ok(report.utilisation.seconds.length > 0 && report.jainFairness > 0);
    }
    // Every problem at once, nothing stored; someone else's batch is a 404; a farmer may not run a batch.
    const before = await count();
    const bad = await post({ clusterId, batchId, policy: 'sjf', qos: 'fast', seed: -1, reduceSlowstart: 0, runtimeSigma: -1, qosPeriodSeconds: 0 });
    assert.equal(bad.response.status, 422);
    assert.deepEqual((bad.error as Json).problems.map((p: Json) => p.path).sort(), ['policy', 'qos', 'qosPeriodSeconds', 'reduceSlowstart', 'runtimeSigma', 'seed']);
    const slower = await post({ clusterId, batchId, forecastId, policy: 'fair', qosPeriodSeconds: S + 1 });
    assert.deepEqual([slower.response.status, (slower.error as Json).problems.map((p: Json) => p.path)], [422, ['qosPeriodSeconds']], 'longer than a slot');
    const badPosum = await post({ clusterId, batchId, forecastId, policy: 'posum', provision: 'lots', delta: 2, alpha: -1, periodSeconds: 0, lookAheadSeconds: 'long', lsMember: 'yes', lookAheadMode: 'exact', decideOnArrival: 'yes' });
    assert.equal(badPosum.response.status, 422);
    assert.deepEqual((badPosum.error as Json).problems.map((p: Json) => p.path).sort(), ['alpha', 'decideOnArrival', 'delta', 'lookAheadMode', 'lookAheadSeconds', 'lsMember', 'periodSeconds', 'provision']);
    const badTruth = await post({ clusterId, batchId, forecastId, policy: 'fair', trueSeconds: { j1: { nope: 5 }, j9: { map: 1 } } });
    assert.equal(badTruth.response.status, 422);
    assert.deepEqual((badTruth.error as Json).problems.map((p: Json) => p.path).sort(), ['trueSeconds.j1.nope', 'trueSeconds.j9']);
    assert.equal((await post({ clusterId, batchId, forecastId, policy: 'fair' }, b.keys.customer)).response.status, 404);
    assert.equal((await post({ clusterId, batchId, forecastId, policy: 'fair' }, a.keys.farmer)).response.status, 403);
    assert.equal(await count(), before);
  });

  it('a policy simulation naming no forecast uses the newest covering its start and says so; a stale one is refused or, when allowed, used with a warning', async () => {
    const post = (body: Json) => svc.client(a.keys.customer).POST('/v1/simulations', { body });
    // before() posted forecastId without startsAt: it covers now, for SLOTS slots.
    const chosen = await post({ clusterId, batchId, policy: 'fair', qos: 'none' });
    assert.equal(chosen.response.status, 202, JSON.stringify(chosen.error));
    assert.deepEqual([chosen.data!.forecastId, chosen.data!.forecastChoice, chosen.data!.warnings], [forecastId, 'newest-covering-start', []]);
    const got = await customer().GET('/v1/simulations/{id}', { params: { path: { id: chosen.data!.id } } });
    assert.deepEqual([got.data!.forecastId, got.data!.forecastChoice, got.data!.startsAt], [forecastId, 'newest-covering-start', chosen.data!.startsAt]);

    // A forecast built from history starts in the past: here two days ago, over 2 hours.
    const past = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const built = await svc.client(a.keys.farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: S, slots: SLOTS, startsAt: past, usage: FORECAST } });
    assert.equal(built.response.status, 201, JSON.stringify(built.error));
    const before = await count();
    const stale = problem(await post({ clusterId, batchId, forecastId: built.data!.id, policy: 'fair' }), 422);
    assert.deepEqual(stale.problems.map((p) => p.path), ['startsAt']);
    assert.match(stale.problems[0].message, /the simulation starts at .*set allowStaleForecast to run the simulation with this one/);
    assert.doesNotMatch(stale.problems[0].message, /solve/);
    assert.equal(await count(), before, 'nothing stored');
    const allowed = await post({ clusterId, batchId, forecastId: built.data!.id, policy: 'fair', qos: 'none', allowStaleForecast: true });
    assert.equal(allowed.response.status, 202, JSON.stringify(allowed.error));
    assert.deepEqual([allowed.data!.forecastId, allowed.data!.forecastChoice], [built.data!.id, 'request']);
    assert.equal(allowed.data!.warnings.length, 1);
    assert.match(allowed.data!.warnings[0], /^stale forecast: .*its slot 0 was used as the simulation's \(allowStaleForecast\)/);
    const done = await finished(allowed.data!.id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.deepEqual(done.warnings, allowed.data!.warnings);
    // Starting inside that forecast's window is no stale use: no warning.
    const inside = await post({ clusterId, batchId, forecastId: built.data!.id, policy: 'fair', startsAt: past });
    assert.equal(inside.response.status, 202, JSON.stringify(inside.error));
    assert.deepEqual([inside.data!.startsAt, inside.data!.warnings], [past, []]);
    // A start no forecast covers, none named: a 422 naming forecastId; the plan replay route takes no startsAt.
    const none = problem(await post({ clusterId, batchId, policy: 'fair', startsAt: '2040-01-01T00:00:00Z' }), 422);
    assert.deepEqual(none.problems.map((p) => p.path), ['forecastId']);
    assert.match(none.problems[0].message, new RegExp(`no forecast of cluster ${clusterId} \\(version 1\\) covers 2040-01-01T00:00:00.000Z, the simulation's startsAt`));
    const badTypes = problem(await post({ clusterId, batchId, policy: 'fair', startsAt: 'soon', allowStaleForecast: 'yes' }), 422);
    assert.deepEqual(badTypes.problems.map((p) => p.path).sort(), ['allowStaleForecast', 'startsAt']);
    const replay = problem(await simulate({ startsAt: past, allowStaleForecast: true }), 422);
    assert.deepEqual(replay.problems.map((p) => [p.path, p.message]), [['startsAt', 'startsAt should not exist'], ['allowStaleForecast', 'allowStaleForecast should not exist']], 'a plan replay runs on its plan\'s window');
  });
});
