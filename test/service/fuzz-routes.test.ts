/**
 * Issue 35, item 8: 1,051 fuzz cases over 15 routes found forty 500s (ids that are not UUIDs, NUL and lone
 * surrogates in stored strings, `"name": null`, ...). This property test sends every POST and PUT route of the
 * OpenAPI document (a route the list below lacks fails the first test) bodies made by mutating a valid one (a
 * leaf replaced by another type, an extreme number, a string with a NUL or a lone surrogate, null; a field
 * dropped or added), random JSON and random text, and the valid body with each of its nodes replaced by a
 * 50,000-element array; and asserts for each: a 2xx, or a 4xx problem+json (a 400/422 naming its fields in
 * `problems[].path`); never a 5xx; and on a 4xx nothing written in any table (no row added or removed, none
 * updated).
 *
 * Cost: writes are checked once per streak of refused bodies, not twice per body: BATCH bodies go at once, each
 * answer is checked on its own, then one snapshot of every table (test/support/table-writes.ts) is compared
 * with the one taken before; a streak with a 2xx in it sends its refused bodies again as a streak of their own,
 * and a streak that wrote something is replayed body by body to name the culprit.
 * FUZZ_RUNS: random bodies per route (default 300), FUZZ_BATCH (4), FUZZ_SEED (35).
 * Measured on the shared 2-core machine (the whole file, `node --test dist/test/service/fuzz-routes.test.js`,
 * build excluded; load average at start -> end):
 * - before (1bb481f, its gbt valid body given history so it passes): default 40 bodies a route, 50.5 s wall,
 *   28 s CPU, load 10.1 -> 11.1; FUZZ_RUNS=300 (4,500 bodies, about 750 of them 50,000-element arrays drawn at
 *   random, and two row counts around each body): 254 s wall, 143 s CPU, load 11.1 -> 6.3.
 * - after (this file, default 300 random bodies a route, 4,500 in all, plus 149 huge arrays, each sent once):
 *   153 s wall, 113 s CPU, 17/17 pass, load 5.1 -> 5.6; an earlier run at load 12.2 -> 9.6 took 202 s.
 *   The huge arrays are most of what is left (the service takes about 3.6 s at load 8 to refuse a 50,000-job
 *   instance): POST /v1/solves with an instance 36 s, POST /v1/batches 27 s; a small-bodied route's 300 take 3-6 s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Service, startService, stopChild, waitFor } from '../../harness/service';
import { assertProperty } from '../support/fixtures';
import { tableSnapshots, TableSnapshot, tablesWritten } from '../support/table-writes';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Route {
  method: 'POST' | 'PUT';
  /** The OpenAPI path template this route is an instance of. */
  template: string;
  /** What tells two routes on one template apart (the test's name). */
  variant?: string;
  path: () => string;
  key: () => string;
  body: () => Json;
}

interface Answer {
  status: number;
  type: string;
  text: string;
}

/** Random bodies per route (besides one 50,000-element array at each node of the valid body). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** Random bodies sent at once: a streak's answers are checked one by one, its writes once (see checkStreak). */
const BATCH = Number(process.env.FUZZ_BATCH ?? 4);
const HUGE = 50_000;

/** Every leaf and container of a body, as a path of keys and indexes (the root is []). */
function paths(v: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.slice(0, 6).forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) paths(v[k], [...at, k], out);
  return out;
}

const EXTREMES: Json[] = [1e308, -1e308, -1, 0, 0.5, 2 ** 53 + 2, 'NaN', 'Infinity', '1e308', 99999999999999999999, -0];
const STRINGS: Json[] = ['\u0000', 'a\u0000b', '\ud800', 'x\udc00', '', 'x'.repeat(20_001), 'constructor', '00000000-0000-0000-0000-000000000000', 'x', '2030-02-31T00:00:00Z', '0000-01-01T00:00:00Z'];
const TYPES: Json[] = [null, true, false, [], {}, [1, 'a', null], { a: 1 }, 7, 'text'];

/** One mutation of a valid body: which node (an index into its paths), what to do, and the replacement drawn. */
const mutation = fc.record({
  node: fc.nat(),
  kind: fc.constantFrom('replace', 'drop', 'add'),
  value: fc.oneof(fc.constantFrom(...EXTREMES), fc.constantFrom(...STRINGS), fc.constantFrom(...TYPES), fc.double(), fc.integer(), fc.string({ unit: 'binary' })),
  field: fc.oneof(fc.constantFrom('extra', '\u0000', '\ud800k', 'name'), fc.string({ maxLength: 5 })),
});

function mutate(body: Json, m: { node: number; kind: string; value: Json; field: string }): Json {
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  const all = paths(copy);
  const target = all[m.node % all.length];
  if (target.length === 0) return m.kind === 'replace' ? m.value : copy;
  const parent = target.slice(0, -1).reduce<any>((o, k) => o[k], copy);
  const last = target[target.length - 1];
  if (m.kind === 'replace') parent[last] = m.value;
  else if (m.kind === 'drop') Array.isArray(parent) ? parent.splice(Number(last), 1) : delete parent[last];
  else {
    const holder = parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last]) ? parent[last] : parent;
    if (Array.isArray(holder)) holder.push(m.value);
    else holder[m.field] = m.value;
  }
  return copy;
}

/**
 * The valid body with one node replaced by a 50,000-element array of itself (of its first element, if it is an
 * array): over every limit on jobs, nodes, samples or events. One per node, each sent once: these are the
 * heavy bodies (megabytes), and drawing them at random sent the same few many times over.
 */
function hugeArrayBodies(valid: Json): Json[] {
  return paths(valid)
    .filter((at) => at.length > 0)
    .map((at) => {
      const copy = JSON.parse(JSON.stringify(valid)) as Json;
      const parent = at.slice(0, -1).reduce<any>((o, k) => o[k], copy);
      const last = at[at.length - 1];
      parent[last] = Array(HUGE).fill(Array.isArray(parent[last]) ? parent[last][0] ?? 1 : parent[last]);
      return copy;
    });
}

/** A body as the failure messages show it (only built when one fails: a huge body is megabytes). */
const shown = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body))?.slice(0, 300);

/** A template's instances: each `{name}` is one path segment, the rest is literal. */
const templatePattern = (template: string) => new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`);

describe('fuzzing every POST and PUT route', () => {
  let svc: Service;
  let snapshot: () => Promise<TableSnapshot>;
  /** What one route's test did, for its diagnostic line. */
  const tally = { accepted: 0, refused: 0, snapshots: 0 };
  const ids = { farmer: '', customer: '', cluster: '', forecast: '', batch: '', solve: '', plan: '', inlinePlan: '' };
  const keys = { farmer: '', customer: '' };

  const instance = () => ({
    format: 'fallow.instance/v1',
    name: 'fuzz',
    horizon: { slots: 20, slotSeconds: 60 },
    metrics: ['cpu'],
    nodes: [{ id: 'n1', rack: 'r1', capacity: { cpu: 2 } }],
    jobs: [{ id: 'j1', releaseSlot: 0, deadlineSlot: 10, revenue: { onTime: 100, late: -5 }, stages: [{ id: 'm', tasks: 2, demand: { cpu: 1 }, durationSeconds: 60 }] }],
  });
  const op = () => svc.operatorKey;
  const fk = () => keys.farmer;
  const ck = () => keys.customer;
  const nodes = [{ id: 'n1', rack: 'r1', flavor: 'm', capacity: { cpu: 2 }, speed: 1, maxTasks: 4 }];
  /** The last usage sample of the history posted in before(): the usage route's valid body comes after it. */
  const HISTORY_END = 1_704_067_200;

  const routes: Route[] = [
    { method: 'POST', template: '/v1/clusters', path: () => '/v1/clusters', key: fk, body: () => ({ name: 'c', metrics: ['cpu'], nodes, network: { intraRackMbps: 1000, interRackMbps: 100 }, lendable: true }) },
    { method: 'PUT', template: '/v1/clusters/{id}', path: () => `/v1/clusters/${ids.cluster}`, key: fk, body: () => ({ name: 'c', metrics: ['cpu'], nodes, lendable: true }) },
    { method: 'POST', template: '/v1/clusters/{clusterId}/forecasts', path: () => `/v1/clusters/${ids.cluster}/forecasts`, key: fk, body: () => ({ slotSeconds: 60, slots: 3, quantile: 0.5, startsAt: '2030-01-01T00:00:00Z', usage: { n1: { cpu: [0.1, 0.2, 0.3] } } }) },
    { method: 'POST', template: '/v1/clusters/{clusterId}/usage', path: () => `/v1/clusters/${ids.cluster}/usage`, key: fk, body: () => ({ samples: [{ timestamp: HISTORY_END + 3600, node: 'n1', metric: 'cpu', value: 0.5 }] }) },
    { method: 'POST', template: '/v1/clusters/{clusterId}/forecasts:build', path: () => `/v1/clusters/${ids.cluster}/forecasts:build`, key: fk, body: () => ({ horizonSlots: 24, slotSeconds: 3600, quantile: 0.9, model: 'gbt', trainingDays: 7, headroom: 0 }) },
    { method: 'POST', template: '/v1/batches', path: () => '/v1/batches', key: ck, body: () => ({ name: 'b', jobs: instance().jobs as Json }) },
    { method: 'POST', template: '/v1/solves', variant: 'an instance', path: () => '/v1/solves', key: ck, body: () => ({ instance: instance() as Json, strategy: 'rffd', objective: 'revenue', timeBudgetMs: 100, startsAt: '2030-01-01T00:00:00Z', seed: 1, transfers: 'ignored' }) },
    { method: 'POST', template: '/v1/solves', variant: 'references', path: () => '/v1/solves', key: ck, body: () => ({ clusterId: ids.cluster, forecastId: ids.forecast, batchId: ids.batch, strategy: 'rffd', timeBudgetMs: 100 }) },
    { method: 'POST', template: '/v1/executions/events', path: () => '/v1/executions/events', key: fk, body: () => ({ events: [{ id: `e-${Math.random()}`, solveId: ids.solve, job: 'j1', stage: 'm', task: 0, node: 'n1', type: 'started', at: new Date().toISOString(), reason: 'r', inputBytes: 1, locality: 'node' }] }) },
    { method: 'POST', template: '/v1/simulations', path: () => '/v1/simulations', key: ck, body: () => ({ policy: 'edls-sh', clusterId: ids.cluster, batchId: ids.batch, forecastId: ids.forecast, qos: 'none', seed: 1 }) },
    { method: 'POST', template: '/v1/plans/{planId}/simulations', path: () => `/v1/plans/${ids.plan}/simulations`, key: ck, body: () => ({ qos: 'salamander', seed: 1, actualUsage: { n1: { cpu: Array(20).fill(0.2) } } }) },
    { method: 'POST', template: '/v1/clusters/{id}/events', path: () => `/v1/clusters/${ids.cluster}/events`, key: fk, body: () => ({ type: 'node-lost', node: 'n1', at: new Date().toISOString(), until: new Date(Date.now() + 3_600_000).toISOString(), reason: 'r' }) },
    { method: 'PUT', template: '/v1/clusters/{id}/replanning', path: () => `/v1/clusters/${ids.cluster}/replanning`, key: fk, body: () => ({ enabled: true, on: ['node-lost', 'forecast-miss'], forecastMissThreshold: 0.3, forecastMissWindowSeconds: 1800, minIntervalSeconds: 60 }) },
    { method: 'PUT', template: '/v1/clusters/{id}/quotas/{customer}', path: () => `/v1/clusters/${ids.cluster}/quotas/${ids.customer}`, key: fk, body: () => ({ shares: { cpu: 0.5 }, borrow: true }) },
    { method: 'POST', template: '/v1/quotes', path: () => '/v1/quotes', key: ck, body: () => ({ clusterId: ids.cluster, batchId: ids.batch, forecastId: ids.forecast, safetyMargin: 0.05 }) },
    // The first valid body queues a re-plan (no worker runs it): the plan is then being re-planned, a 409 for every later one.
    { method: 'POST', template: '/v1/plans/{id}/replan', path: () => `/v1/plans/${ids.plan}/replan`, key: ck, body: () => ({ nowSlot: 1, assumeStartedAsPlanned: true, refresh: 'current', strategy: 'rffd', timeBudgetMs: 100, seed: 1, frozen: [{ job: 'j1', stage: 'm', task: 0, node: 'n1', start: 0 }] }) },
    // No body: whatever is sent is ignored. Commit first (a 2xx, then 2xx again: it is idempotent), then release.
    { method: 'POST', template: '/v1/plans/{id}/commit', path: () => `/v1/plans/${ids.inlinePlan}/commit`, key: ck, body: () => ({}) },
    { method: 'POST', template: '/v1/plans/{id}/release', path: () => `/v1/plans/${ids.inlinePlan}/release`, key: ck, body: () => ({}) },
    { method: 'POST', template: '/v1/tenants', path: () => '/v1/tenants', key: op, body: () => ({ name: 'fuzzed' }) },
    { method: 'PUT', template: '/v1/tenants/{id}/revenue-share', path: () => `/v1/tenants/${ids.farmer}/revenue-share`, key: op, body: () => ({ shareBps: 3000 }) },
    { method: 'PUT', template: '/v1/tenants/{id}/score-weights', path: () => `/v1/tenants/${ids.customer}/score-weights`, key: op, body: () => ({ alpha: 1, beta: 1, gamma: 1 }) },
    { method: 'POST', template: '/v1/tenants/{id}/keys', path: () => `/v1/tenants/${ids.customer}/keys`, key: op, body: () => ({ role: 'customer', label: 'k' }) },
    // Last: the subscriptions it makes hear nothing here (no worker runs while the routes are fuzzed).
    { method: 'POST', template: '/v1/webhooks', path: () => '/v1/webhooks', key: ck, body: () => ({ url: 'http://127.0.0.1:9/hooks', events: ['solve.ended', 'commit.refused'], clusterId: ids.cluster, secret: 'fuzz-secret-0123456789abcdef' }) },
  ];

  before(async () => {
    svc = await startService();
    const farmer = await svc.tenant('fuzz-farmer', ['farmer']);
    const customer = await svc.tenant('fuzz-customer', ['customer']);
    Object.assign(ids, { farmer: farmer.id, customer: customer.id });
    Object.assign(keys, { farmer: farmer.keys.farmer, customer: customer.keys.customer });
    const f = svc.client(keys.farmer);
    const c = svc.client(keys.customer);
    const cluster = await f.POST('/v1/clusters', { body: { name: 'c', metrics: ['cpu'], nodes: [{ id: 'n1', capacity: { cpu: 2 } }] } as never });
    ids.cluster = cluster.data!.id;
    // Two days of hourly history, so the build route's valid body (gbt, a day's lag) is accepted.
    const samples = Array.from({ length: 48 }, (_, i) => ({ timestamp: HISTORY_END - i * 3600, node: 'n1', metric: 'cpu', value: 0.5 }));
    const usage = await f.POST('/v1/clusters/{clusterId}/usage', { params: { path: { clusterId: ids.cluster } }, body: { samples } as never });
    assert.ok(usage.response.ok, `usage history: ${JSON.stringify(usage.error)}`);
    const forecast = await f.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: ids.cluster } }, body: { slotSeconds: 60, slots: 20, usage: { n1: { cpu: Array(20).fill(0.1) } } } });
    ids.forecast = forecast.data!.id;
    const batch = await c.POST('/v1/batches', { body: { name: 'b', jobs: instance().jobs as never } });
    ids.batch = batch.data!.id;
    const solve = await c.POST('/v1/solves', { body: { clusterId: ids.cluster, forecastId: ids.forecast, batchId: ids.batch, strategy: 'rffd', timeBudgetMs: 200 } as never });
    ids.solve = solve.data!.id;
    // A plan of a whole instance in 2030 for commit and release: the fuzzed PUT of the cluster writes new
    // versions no forecast covers, which would refuse a commit of the cluster's plan whatever its body.
    const inline = await c.POST('/v1/solves', { body: { instance: instance(), strategy: 'rffd', timeBudgetMs: 200, startsAt: '2030-01-01T00:00:00Z' } as never });
    const worker = svc.startWorker();
    try {
      ids.plan = await waitFor('the solve', async () => (await c.GET('/v1/solves/{id}', { params: { path: { id: ids.solve } } })).data?.planId ?? undefined, 60_000);
      ids.inlinePlan = await waitFor('the inline solve', async () => (await c.GET('/v1/solves/{id}', { params: { path: { id: inline.data!.id } } })).data?.planId ?? undefined, 60_000);
    } finally {
      await stopChild(worker);
    }
    // The idempotency store is written by design for a replayed key (none is sent here); migrations are not the service's.
    const take = await tableSnapshots(svc.sql, ['idempotency_keys', 'migrations', 'typeorm_metadata']);
    snapshot = () => (tally.snapshots++, take());
  });
  after(async () => svc?.close());

  const send = async (route: Route, body: unknown): Promise<Answer> => {
    const r = await fetch(`${svc.baseUrl}${route.path()}`, {
      method: route.method,
      headers: { authorization: `Bearer ${route.key()}`, 'content-type': 'application/json' },
      body: typeof body === 'string' && body.startsWith('RAW:') ? body.slice(4) : JSON.stringify(body),
    });
    tally[r.status < 400 ? 'accepted' : 'refused']++;
    return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
  };
  const what = (route: Route, body: unknown, r: Answer) => `${route.method} ${route.path()} ${shown(body)} -> ${r.status} ${r.text.slice(0, 300)}`;

  /** One answer on its own: never a 5xx; a 4xx is problem+json, and a 400/422 names each problem's field. */
  const checkAnswer = (route: Route, body: unknown, r: Answer) => {
    if (r.status >= 500) assert.fail(what(route, body, r));
    if (r.status < 400) return;
    if (!/application\/problem\+json/.test(r.type)) assert.fail(`a 4xx is problem+json: ${what(route, body, r)}`);
    if (r.status !== 400 && r.status !== 422) return;
    const problem = JSON.parse(r.text) as { problems?: { path?: unknown; message?: unknown }[] };
    if (!problem.problems?.length) assert.fail(`a 400/422 names its fields: ${what(route, body, r)}`);
    for (const p of problem.problems) if (typeof p.path !== 'string' || typeof p.message !== 'string') assert.fail(`each problem has a path and a message: ${what(route, body, r)}`);
  };

  /** Each body alone, with the tables compared around it: names a refused body that wrote. */
  const oneByOne = async (route: Route, bodies: unknown[]) => {
    for (const body of bodies) {
      const before = await snapshot();
      const r = await send(route, body);
      checkAnswer(route, body, r);
      if (r.status < 400) continue;
      const written = tablesWritten(before, await snapshot());
      if (written.length) assert.fail(`no row written on a ${r.status} (${written.join(', ')}): ${what(route, body, r)}`);
    }
  };

  /**
   * A streak of bodies, each answer checked, and the tables compared once around them all when every one was
   * refused. Small bodies go at once (their answers wait on Postgres); heavy ones (`atOnce` false) one after
   * another, as their cost is this process's CPU, and at once they stalled its event loop past the rate
   * limiter's 1 s Redis timeout (a 503 for a neighbour). A streak with a 2xx in it (its writes hide any other)
   * sends its refused bodies again as a streak of their own (`again`: once; then one by one); a refused streak
   * that wrote is replayed one by one to name the body, and fails even if that finds none (a write that is not
   * repeatable is still a write).
   */
  const checkStreak = async (route: Route, bodies: unknown[], atOnce = true, again = true): Promise<void> => {
    const before = await snapshot();
    const answers: Answer[] = [];
    if (atOnce) answers.push(...(await Promise.all(bodies.map((b) => send(route, b)))));
    else for (const b of bodies) answers.push(await send(route, b));
    answers.forEach((r, i) => checkAnswer(route, bodies[i], r));
    const refused = bodies.filter((_, i) => answers[i].status >= 400);
    if (refused.length < bodies.length) {
      if (refused.length) await (again ? checkStreak(route, refused, atOnce, false) : oneByOne(route, refused));
      return;
    }
    const written = tablesWritten(before, await snapshot());
    if (!written.length) return;
    await oneByOne(route, bodies);
    assert.fail(`no row written by refused bodies (${written.join(', ')}), sent in one streak: ${bodies.map((b, i) => what(route, b, answers[i])).join('\n')}`);
  };

  it('has a route below for every POST and PUT of the OpenAPI document', async () => {
    const doc = (await (await fetch(`${svc.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([template, ops]) => Object.keys(ops).filter((m) => m === 'post' || m === 'put').map((m) => `${m.toUpperCase()} ${template}`));
    const listed = new Set(routes.map((r) => `${r.method} ${r.template}`));
    assert.deepEqual(documented.filter((d) => !listed.has(d)), [], 'every POST and PUT of /openapi.json is fuzzed');
    assert.deepEqual([...listed].filter((l) => !documented.includes(l)), [], 'every fuzzed route is in /openapi.json');
    for (const r of routes) assert.match(r.path(), templatePattern(r.template), `${r.method} ${r.path()} is an instance of ${r.template}`);
  });

  it('sees a row updated in place, and not work rolled back (the write check can fail)', async () => {
    const before = await snapshot();
    await svc.sql('UPDATE tenants SET name = name WHERE id = $1', [ids.farmer]);
    const updated = await snapshot();
    assert.deepEqual(tablesWritten(before, updated).map((t) => t.split(':')[0]), ['tenants']);
    await svc.sql('BEGIN');
    await svc.sql(`INSERT INTO tenants (name) VALUES ('rolled back')`);
    await svc.sql('ROLLBACK');
    assert.deepEqual(tablesWritten(updated, await snapshot()), []);
  });

  for (const route of routes) {
    it(`${route.method} ${route.template}${route.variant ? ` (${route.variant})` : ''}: 2xx or a 4xx problem naming a field, never 5xx, nothing written on a 4xx`, async (t) => {
      const started = Date.now();
      Object.assign(tally, { accepted: 0, refused: 0, snapshots: 0 });
      const valid = await send(route, route.body());
      assert.ok(valid.status < 300, `${route.method} ${route.path()}: the valid body is accepted (${valid.status} ${valid.text.slice(0, 300)})`);
      const huge = hugeArrayBodies(route.body());
      await checkStreak(route, huge, false);
      const body = fc.oneof({ weight: 4, arbitrary: mutation.map((m) => mutate(route.body(), m)) }, { weight: 1, arbitrary: fc.jsonValue() as fc.Arbitrary<Json> }, { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((s) => `RAW:${s}`) });
      await assertProperty(
        fc.asyncProperty(fc.array(body, { minLength: BATCH, maxLength: BATCH }), (bodies) => checkStreak(route, bodies)),
        { numRuns: Math.ceil(RUNS / BATCH), seed: Number(process.env.FUZZ_SEED ?? 35) },
      );
      t.diagnostic(`${Math.ceil(RUNS / BATCH) * BATCH} random bodies and ${huge.length} huge arrays in ${((Date.now() - started) / 1000).toFixed(1)} s: ${tally.accepted} requests answered 2xx, ${tally.refused} 4xx, ${tally.snapshots} snapshots of the tables`);
    });
  }
});
