/**
 * Issue 35, item 8: 1,051 fuzz cases over 15 routes found forty 500s (ids that are not UUIDs, NUL and lone
 * surrogates in stored strings, `"name": null`, ...). This property test sends every POST and PUT route
 * bodies made by mutating a valid one (a leaf replaced by another type, an extreme number, a string with a
 * NUL or a lone surrogate, null, a huge array; a field dropped or added) and random JSON, and asserts for
 * each: a 2xx, or a 4xx problem+json (400/422 naming a field); never a 5xx; and on a 4xx no row written in
 * any table. FUZZ_RUNS sets the bodies per route (default 40: 600 bodies, 132 s on the shared 2-core machine; 300 takes about 15 min).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Service, startService, stopChild, waitFor } from '../../harness/service';
import { assertProperty } from '../support/fixtures';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Route {
  method: 'POST' | 'PUT';
  path: string;
  key: () => string;
  body: () => Json;
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

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
  kind: fc.constantFrom('replace', 'drop', 'add', 'hugeArray'),
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
  else if (m.kind === 'hugeArray') parent[last] = Array(50_000).fill(Array.isArray(parent[last]) ? parent[last][0] ?? 1 : parent[last]);
  else if (m.kind === 'drop') Array.isArray(parent) ? parent.splice(Number(last), 1) : delete parent[last];
  else {
    const holder = parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last]) ? parent[last] : parent;
    if (Array.isArray(holder)) holder.push(m.value);
    else holder[m.field] = m.value;
  }
  return copy;
}

describe('fuzzing every POST and PUT route', () => {
  let svc: Service;
  let farmer: { id: string; keys: Record<string, string> };
  let customer: { id: string; keys: Record<string, string> };
  let clusterId: string;
  let forecastId: string;
  let batchId: string;
  let solveId: string;
  let planId: string;
  let tables: string[];

  const send = async (route: Route, body: unknown) => {
    const r = await fetch(`${svc.baseUrl}${route.path}`, {
      method: route.method,
      headers: { authorization: `Bearer ${route.key()}`, 'content-type': 'application/json' },
      body: typeof body === 'string' && body.startsWith('RAW:') ? body.slice(4) : JSON.stringify(body),
    });
    return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
  };
  /** Rows in every table but the idempotency store and the migrations' own. */
  const rowCounts = async () => (await svc.sql<{ n: string }>(`SELECT ${tables.map((t) => `(SELECT count(*) FROM "${t}")`).join(' + ')} AS n`))[0].n;

  const instance = () => ({
    format: 'fallow.instance/v1',
    name: 'fuzz',
    horizon: { slots: 20, slotSeconds: 60 },
    metrics: ['cpu'],
    nodes: [{ id: 'n1', rack: 'r1', capacity: { cpu: 2 } }],
    jobs: [{ id: 'j1', releaseSlot: 0, deadlineSlot: 10, revenue: { onTime: 100, late: -5 }, stages: [{ id: 'm', tasks: 2, demand: { cpu: 1 }, durationSeconds: 60 }] }],
  });

  before(async () => {
    svc = await startService();
    farmer = await svc.tenant('fuzz-farmer', ['farmer']);
    customer = await svc.tenant('fuzz-customer', ['customer']);
    const f = svc.client(farmer.keys.farmer);
    const c = svc.client(customer.keys.customer);
    const cluster = await f.POST('/v1/clusters', { body: { name: 'c', metrics: ['cpu'], nodes: [{ id: 'n1', capacity: { cpu: 2 } }] } as never });
    clusterId = cluster.data!.id;
    const forecast = await f.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: 60, slots: 20, usage: { n1: { cpu: Array(20).fill(0.1) } } } });
    forecastId = forecast.data!.id;
    const batch = await c.POST('/v1/batches', { body: { name: 'b', jobs: instance().jobs as never } });
    batchId = batch.data!.id;
    const solve = await c.POST('/v1/solves', { body: { clusterId, forecastId, batchId, strategy: 'rffd', timeBudgetMs: 200 } as never });
    solveId = solve.data!.id;
    const worker = svc.startWorker();
    try {
      planId = await waitFor('the solve', async () => (await c.GET('/v1/solves/{id}', { params: { path: { id: solveId } } })).data?.planId ?? undefined, 60_000);
    } finally {
      await stopChild(worker);
    }
    const rows = await svc.sql<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('idempotency_keys', 'migrations', 'typeorm_metadata')`);
    tables = rows.map((r) => r.t);
  });
  after(async () => svc?.close());

  const routes = (): Route[] => {
    const op = () => svc.operatorKey;
    const fk = () => farmer.keys.farmer;
    const ck = () => customer.keys.customer;
    const nodes = [{ id: 'n1', rack: 'r1', flavor: 'm', capacity: { cpu: 2 }, speed: 1, maxTasks: 4 }];
    return [
      { method: 'POST', path: '/v1/clusters', key: fk, body: () => ({ name: 'c', metrics: ['cpu'], nodes, network: { intraRackMbps: 1000, interRackMbps: 100 }, lendable: true }) },
      { method: 'PUT', path: `/v1/clusters/${clusterId}`, key: fk, body: () => ({ name: 'c', metrics: ['cpu'], nodes, lendable: true }) },
      { method: 'POST', path: `/v1/clusters/${clusterId}/forecasts`, key: fk, body: () => ({ slotSeconds: 60, slots: 3, quantile: 0.5, startsAt: '2030-01-01T00:00:00Z', usage: { n1: { cpu: [0.1, 0.2, 0.3] } } }) },
      { method: 'POST', path: `/v1/clusters/${clusterId}/usage`, key: fk, body: () => ({ samples: [{ timestamp: 1_704_067_200, node: 'n1', metric: 'cpu', value: 0.5 }] }) },
      { method: 'POST', path: `/v1/clusters/${clusterId}/forecasts:build`, key: fk, body: () => ({ horizonSlots: 24, slotSeconds: 3600, quantile: 0.9, model: 'gbt', trainingDays: 7, headroom: 0 }) },
      { method: 'POST', path: '/v1/batches', key: ck, body: () => ({ name: 'b', jobs: instance().jobs as Json }) },
      { method: 'POST', path: '/v1/solves', key: ck, body: () => ({ instance: instance() as Json, strategy: 'rffd', objective: 'revenue', timeBudgetMs: 100, startsAt: '2030-01-01T00:00:00Z', seed: 1 }) },
      { method: 'POST', path: '/v1/solves', key: ck, body: () => ({ clusterId, forecastId, batchId, strategy: 'rffd', timeBudgetMs: 100 }) },
      { method: 'POST', path: '/v1/executions/events', key: fk, body: () => ({ events: [{ id: `e-${Math.random()}`, solveId, job: 'j1', stage: 'm', task: 0, node: 'n1', type: 'started', at: new Date().toISOString(), reason: 'r', inputBytes: 1, locality: 'node' }] }) },
      { method: 'POST', path: '/v1/simulations', key: ck, body: () => ({ policy: 'edls-sh', clusterId, batchId, forecastId, qos: 'none', seed: 1 }) },
      { method: 'POST', path: `/v1/plans/${planId}/simulations`, key: ck, body: () => ({ qos: 'salamander', seed: 1, actualUsage: { n1: { cpu: Array(20).fill(0.2) } } }) },
      { method: 'POST', path: '/v1/tenants', key: op, body: () => ({ name: 'fuzzed' }) },
      { method: 'PUT', path: `/v1/tenants/${farmer.id}/revenue-share`, key: op, body: () => ({ shareBps: 3000 }) },
      { method: 'PUT', path: `/v1/tenants/${customer.id}/score-weights`, key: op, body: () => ({ alpha: 1, beta: 1, gamma: 1 }) },
      { method: 'POST', path: `/v1/tenants/${customer.id}/keys`, key: op, body: () => ({ role: 'customer', label: 'k' }) },
    ];
  };

  it('answers 2xx or a 4xx problem naming a field, never 5xx, and writes nothing on a 4xx', async () => {
    for (const route of routes()) {
      const valid = await send(route, route.body());
      assert.ok(valid.status < 300, `${route.method} ${route.path}: the valid body is accepted (${valid.status} ${valid.text.slice(0, 300)})`);
      const bodies = fc.oneof({ weight: 4, arbitrary: mutation.map((m) => mutate(route.body(), m)) }, { weight: 1, arbitrary: fc.jsonValue() as fc.Arbitrary<Json> }, { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((s) => `RAW:${s}`) });
      await assertProperty(
        fc.asyncProperty(bodies, async (body) => {
          const before = await rowCounts();
          const r = await send(route, body);
          const what = `${route.method} ${route.path} ${JSON.stringify(body)?.slice(0, 300)} -> ${r.status} ${r.text.slice(0, 300)}`;
          assert.ok(r.status < 500, what);
          if (r.status < 400) return;
          assert.match(r.type, /application\/problem\+json/, what);
          const problem = JSON.parse(r.text) as { problems?: { path?: unknown; message?: unknown }[] };
          if (r.status === 400 || r.status === 422) {
            assert.ok(problem.problems?.length, `a 400/422 names its fields: ${what}`);
            for (const p of problem.problems!) assert.ok(typeof p.path === 'string' && typeof p.message === 'string', what);
          }
          assert.equal(await rowCounts(), before, `no row written on a ${r.status}: ${what}`);
        }),
        { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 35) },
      );
    }
  });
});
