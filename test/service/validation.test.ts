/**
 * Request validation against the real service: every problem of a request is reported at once with the JSON
 * path the client sent, a rejected request writes nothing, malformed and oversized bodies are problems too,
 * the rate limit answers 429 with Retry-After, and Idempotency-Key replays the first response.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { InstanceDoc } from '../../src/engine/model/types';
import { problem, Problem } from '../support/problem';
import { Service, startService } from '../../harness/service';

/** Asserts the problems' paths, in order, and that each message contains its fragment. */
function expectProblems(body: Problem, expected: [path: string, fragment: string | RegExp][]): void {
  assert.deepEqual(
    body.problems.map((p) => p.path),
    expected.map(([p]) => p),
    JSON.stringify(body.problems, null, 1),
  );
  expected.forEach(([, fragment], i) => {
    const message = body.problems[i].message;
    if (typeof fragment === 'string') assert.ok(message.includes(fragment), `problem ${i} (${body.problems[i].path}): "${message}" lacks "${fragment}"`);
    else assert.match(message, fragment);
  });
}

/** A small valid instance: two nodes, one map -> reduce job, 4 slots. */
function smallInstance(): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'validation',
    horizon: { slots: 4, slotSeconds: 300 },
    metrics: ['cpu', 'ram'],
    nodes: [
      { id: 'h01', capacity: { cpu: 8, ram: 32 } },
      { id: 'h02', capacity: { cpu: 8, ram: 32 } },
    ],
    usage: { h01: { cpu: [0.1, 0.2, 0.3, 0.4] } },
    jobs: [
      {
        id: 'j0',
        stages: [
          { id: 'map', tasks: 2, demand: { cpu: 1, ram: 2 }, durationSeconds: 300 },
          { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1 }, durationSeconds: 300 },
        ],
      },
    ],
  };
}

const JOBS = smallInstance().jobs;

describe('validation', () => {
  let svc: Service;
  let farmer: string;
  let customer: string;
  let clusterId: string;
  const count = async (table: string) => Number((await svc.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
  /** Runs `fn` and asserts that it wrote no row in any of `tables`. */
  const writesNothing = async <T>(tables: string[], fn: () => Promise<T>): Promise<T> => {
    const before = await Promise.all(tables.map(count));
    const out = await fn();
    assert.deepEqual(await Promise.all(tables.map(count)), before, `rows written in ${tables.join(', ')}`);
    return out;
  };

  before(async () => {
    svc = await startService({ bodyLimit: '200kb' });
    const t = await svc.tenant('validator', ['farmer', 'customer']);
    farmer = t.keys.farmer;
    customer = t.keys.customer;
    const c = await svc.client(farmer).POST('/v1/clusters', {
      body: { name: 'v-cluster', metrics: ['cpu', 'ram'], nodes: [{ id: 'h01', capacity: { cpu: 8, ram: 32 } }, { id: 'h02', capacity: { cpu: 4, ram: 16 } }], lendable: true },
    });
    assert.ok(c.data, JSON.stringify(c.error));
    clusterId = c.data.id;
  });
  after(async () => svc?.close());

  describe('POST /v1/solves', () => {
    const solve = (body: Record<string, unknown>) => svc.client(customer).POST('/v1/solves', { body: body as never });

    it('lists every problem of an inline instance at once, with the request paths', async () => {
      const instance = smallInstance() as any;
      instance.nodes[1].capacity.cpu = -1; // negative capacity
      instance.usage.h01.cpu = [0.1, 0.2, 0.3]; // 3 values for 4 slots
      instance.jobs[0].stages[0].work = 100; // work and durationSeconds
      instance.jobs[0].stages[1].after = ['mapp']; // unknown stage
      instance.jobs.push({
        id: 'j1',
        stages: [
          { id: 'a', tasks: 1, after: ['b'], demand: { cpu: 1 }, durationSeconds: 300 },
          { id: 'b', tasks: 1, after: ['a'], demand: { cpu: 1 }, durationSeconds: 300 },
        ],
      }); // a -> b -> a
      const r = await writesNothing(['solves'], () => solve({ instance, strategy: 'rffd', timeBudgetMs: 300 }));
      const body = problem(r, 422);
      expectProblems(body, [
        ['instance.nodes[1].capacity.cpu', 'must be a number >= 0, got -1'],
        ['instance.usage.h01.cpu', 'has 3 values but horizon.slots is 4'],
        ['instance.jobs[0].stages[0]', 'exactly one of "work"'],
        ['instance.jobs[0].stages[1].after[0]', 'unknown stage "mapp"'],
        ['instance.jobs[1].stages', /cycle: (a -> b -> a|b -> a -> b)/],
      ]);
    });

    it('rejects bad block locations (unknown node, more replicas than nodes) naming the path, storing nothing', async () => {
      const instance = smallInstance() as any;
      instance.jobs[0].stages[0].blocks = [['h01', 'nowhere'], ['h01', 'h02', 'h03']];
      instance.network = { intraRackMbps: 10000, interRackMbps: 0 };
      const r = await writesNothing(['solves'], () => solve({ instance, strategy: 'rffd', timeBudgetMs: 300 }));
      expectProblems(problem(r, 422), [
        ['instance.network.interRackMbps', 'must be a number > 0, got 0'],
        ['instance.jobs[0].stages[0].blocks[0][1]', 'unknown node "nowhere"'],
        ['instance.jobs[0].stages[0].blocks[1]', 'has 3 replicas but the cluster has 2 nodes'],
        ['instance.jobs[0].stages[0].blocks[1][2]', 'unknown node "h03"'],
      ]);
      // The same instance with good blocks is accepted.
      instance.jobs[0].stages[0].blocks = [['h01', 'h02'], ['h02']];
      instance.network.interRackMbps = 1000;
      assert.equal((await solve({ instance, strategy: 'aco-bp', timeBudgetMs: 300 })).response.status, 202);
    });

    it('takes an inline instance with reserved capacity (docs/FORMAT.md), refusing a bad one by its paths', async () => {
      const instance = smallInstance() as any;
      instance.reserved = { h01: { cpu: [1, -1], tasks: [1] }, h09: { cpu: [1] } };
      const r = await writesNothing(['solves'], () => solve({ instance, strategy: 'rffd', timeBudgetMs: 300 }));
      expectProblems(problem(r, 422), [
        ['instance.reserved.h01.cpu[1]', 'must be a number >= 0, got -1'],
        ['instance.reserved.h09', 'unknown node "h09"'],
      ]);
      // A good one is taken (this service runs no worker; test/engine/reserved.test.ts checks that every strategy honours it).
      instance.reserved = { h01: { cpu: [8, 8, 8, 8], tasks: [0, 1] } };
      const ok = await solve({ instance, strategy: 'rffd', timeBudgetMs: 300 });
      assert.equal(ok.response.status, 202, JSON.stringify(ok.error));
    });

    it('rejects an unknown top-level field', async () => {
      const r = await writesNothing(['solves'], () => solve({ instance: smallInstance(), strategy: 'rffd', timeBudgetMs: 300, priority: 'high' }));
      expectProblems(problem(r, 422), [['priority', 'should not exist']]);
    });

    it('rejects unknown fields inside an inline instance, each with its path', async () => {
      const instance = smallInstance() as any;
      instance.priority = 1;
      instance.horizon.slotSecs = 300;
      instance.nodes[0].cores = 8;
      instance.jobs[0].deadline = 3; // a typo of deadlineSlot must not be solved as "no deadline"
      instance.jobs[0].stages[1].durationSecs = 300;
      const r = await writesNothing(['solves'], () => solve({ instance, strategy: 'rffd', timeBudgetMs: 300 }));
      expectProblems(problem(r, 422), [
        ['instance.priority', 'unknown field'],
        ['instance.horizon.slotSecs', 'unknown field'],
        ['instance.nodes[0].cores', 'unknown field'],
        ['instance.jobs[0].deadline', 'deadlineSlot'],
        ['instance.jobs[0].stages[1].durationSecs', 'unknown field'],
      ]);
    });

    it('rejects an unknown strategy', async () => {
      const r = await writesNothing(['solves'], () => solve({ instance: smallInstance(), strategy: 'nope', timeBudgetMs: 300 }));
      expectProblems(problem(r, 422), [['strategy', 'must be one of the following values']]);
      assert.match(r.error!.problems[0].message, /rffd/);
    });

    it('rejects a time budget out of [100, 600000] ms', async () => {
      const low = await writesNothing(['solves'], () => solve({ instance: smallInstance(), strategy: 'rffd', timeBudgetMs: 10 }));
      expectProblems(problem(low, 422), [['timeBudgetMs', 'must not be less than 100']]);
      const high = await writesNothing(['solves'], () => solve({ instance: smallInstance(), strategy: 'rffd', timeBudgetMs: 1e9 }));
      expectProblems(problem(high, 422), [['timeBudgetMs', 'must not be greater than 600000']]);
      const fraction = await writesNothing(['solves'], () => solve({ instance: smallInstance(), strategy: 'rffd', timeBudgetMs: 300.5 }));
      expectProblems(problem(fraction, 422), [['timeBudgetMs', 'integer']]);
    });

    it('rejects an instance together with references', async () => {
      const r = await writesNothing(['solves'], () => solve({ instance: smallInstance(), clusterId, strategy: 'rffd', timeBudgetMs: 300 }));
      expectProblems(problem(r, 422), [['clusterId', 'not allowed together with instance']]);
      const both = await writesNothing(['solves'], () =>
        solve({ instance: smallInstance(), clusterId, batchId: randomUUID(), horizon: { slots: 4, slotSeconds: 300 }, strategy: 'rffd', timeBudgetMs: 300 }),
      );
      expectProblems(problem(both, 422), [
        ['clusterId', 'not allowed together with instance'],
        ['batchId', 'not allowed together with instance'],
        ['horizon', 'not allowed together with instance'],
      ]);
    });

    it('rejects a solve with neither an instance nor references', async () => {
      const r = await writesNothing(['solves'], () => solve({ strategy: 'rffd', timeBudgetMs: 300 }));
      expectProblems(problem(r, 422), [
        ['clusterId', 'required unless a whole instance is given'],
        ['batchId', 'required unless a whole instance is given'],
      ]);
    });

    it('accepts the valid instance the cases above break (control)', async () => {
      const before = await count('solves');
      const r = await solve({ instance: smallInstance(), strategy: 'rffd', timeBudgetMs: 300 });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      assert.equal(await count('solves'), before + 1);
    });
  });

  describe('clusters, forecasts and batches', () => {
    it('POST /v1/clusters lists every bad node with its path', async () => {
      const r = await writesNothing(['clusters', 'cluster_versions'], () =>
        svc.client(farmer).POST('/v1/clusters', {
          body: {
            name: 'bad',
            lendable: true,
            metrics: ['cpu', 'ram'],
            nodes: [
              { id: 'h01', capacity: { cpu: -1, ram: 8 }, speed: 0 },
              { id: 'h01', capacity: { gpu: 2 }, colour: 'red' } as never,
              { id: '', capacity: { cpu: 1 } },
            ],
          },
        }),
      );
      expectProblems(problem(r, 422), [
        ['nodes[0].capacity.cpu', 'must be a number >= 0, got -1'],
        ['nodes[0].speed', 'must be a number > 0, got 0'],
        ['nodes[1].id', 'duplicate node id "h01"'],
        ['nodes[1].capacity.gpu', 'unknown metric "gpu"'],
        ['nodes[1].colour', 'unknown field'],
        ['nodes[2].id', 'must be a non-empty string'],
      ]);
    });

    it('PUT /v1/clusters/{id} with bad nodes writes no new version', async () => {
      const r = await writesNothing(['cluster_versions'], () =>
        svc.client(farmer).PUT('/v1/clusters/{id}', { params: { path: { id: clusterId } }, body: { metrics: ['cpu'], nodes: [{ id: 'h01', capacity: { cpu: 'lots' as never } }] } }),
      );
      expectProblems(problem(r, 422), [['nodes[0].capacity.cpu', 'must be a number >= 0, got "lots"']]);
      const [row] = await svc.sql<{ version: number }>('SELECT version FROM clusters WHERE id = $1', [clusterId]);
      assert.equal(row.version, 1);
    });

    it('POST forecasts: a value out of [0, 1], an unknown node and a wrong length, all at once', async () => {
      const r = await writesNothing(['forecasts'], () =>
        svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', {
          params: { path: { clusterId } },
          body: {
            slotSeconds: 300,
            slots: 4,
            quantile: 0.5,
            usage: { h01: { cpu: [0.1, 1.3, 0.2, 0.2], ram: [0.1, 0.1, 0.1] }, ghost: { cpu: [0, 0, 0, 0] } },
          },
        }),
      );
      expectProblems(problem(r, 422), [
        ['usage.h01.cpu[1]', 'must be a fraction in [0, 1], got 1.3'],
        ['usage.h01.ram', 'has 3 values but slots is 4'],
        ['usage.ghost', 'unknown node "ghost"'],
      ]);
      const window = await writesNothing(['forecasts'], () =>
        svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId } }, body: { slotSeconds: 0, slots: 0, quantile: 1, usage: {} } }),
      );
      expectProblems(problem(window, 422), [
        ['slots', 'must be an integer >= 1, got 0'],
        ['slotSeconds', 'must be a number > 0 and at most 604800 (a week), got 0'],
        ['quantile', 'strictly between 0 and 1'],
      ]);
    });

    it('POST /v1/batches with a stage-graph cycle', async () => {
      const jobs = [
        JOBS[0],
        {
          id: 'loop',
          stages: [
            { id: 'x', tasks: 1, after: ['z'], demand: { cpu: 1 }, durationSeconds: 60 },
            { id: 'y', tasks: 1, after: ['x'], demand: { cpu: 1 }, durationSeconds: 60 },
            { id: 'z', tasks: 1, after: ['y'], demand: { cpu: 1 }, durationSeconds: 60 },
          ],
        },
      ];
      const r = await writesNothing(['batches'], () => svc.client(customer).POST('/v1/batches', { body: { name: 'cyclic', jobs: jobs as never } }));
      const body = problem(r, 422);
      expectProblems(body, [['jobs[1].stages', 'the stage graph has a cycle']]);
      assert.match(body.problems[0].message, /x -> .* -> .* -> /);
    });
  });

  describe('every problem at once, in one shape', () => {
    it('POST /v1/batches with an empty name and six bad jobs names all seven in one answer', async () => {
      const bad = (id: string, stage: Record<string, unknown>) => ({ id, stages: [{ id: 's', tasks: 1, demand: { cpu: 1 }, durationSeconds: 60, ...stage }] });
      const jobs = [bad('a', { tasks: 0 }), bad('b', { demand: { cpu: -1 } }), bad('c', { durationSeconds: -5 }), bad('d', { after: ['nope'] }), bad('e', { tasks: 1.5 }), bad('f', { demand: 'lots' })];
      const r = await writesNothing(['batches'], () => svc.client(customer).POST('/v1/batches', { body: { name: '', jobs: jobs as never } }));
      const body = problem(r, 422);
      const paths = body.problems.map((p) => p.path);
      assert.ok(paths.includes('name'), JSON.stringify(body.problems));
      for (let i = 0; i < 6; i++) assert.ok(paths.some((x) => x.startsWith(`jobs[${i}]`)), `jobs[${i}] missing from ${JSON.stringify(paths)}`);
    });

    it('POST /v1/clusters with a missing name and a bad node names both', async () => {
      const r = await writesNothing(['clusters'], () => svc.client(farmer).POST('/v1/clusters', { body: { metrics: ['cpu'], nodes: [{ id: 'h01', capacity: { cpu: -2 } }] } as never }));
      const body = problem(r, 422);
      const paths = body.problems.map((p) => p.path);
      assert.ok(paths.includes('name'), JSON.stringify(body.problems));
      assert.ok(paths.some((x) => x.startsWith('nodes[0].capacity')), JSON.stringify(body.problems));
    });

    it('a path id that is not a UUID is a 400 problem naming the parameter', async () => {
      for (const url of ['/v1/solves/not-a-uuid', '/v1/plans/123', '/v1/batches/x%20y']) {
        const r = await fetch(`${svc.baseUrl}${url}`, { headers: { Authorization: `Bearer ${customer}` } });
        assert.equal(r.status, 400, url);
        assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
        const body = (await r.json()) as Problem;
        assert.equal(body.title, 'Bad request');
        assert.equal(body.problems.length, 1);
        assert.equal(body.problems[0].path, 'id');
        assert.match(body.problems[0].message, /must be a UUID, got "/);
      }
    });

    it('a body that is not JSON is a 415 problem naming the content type; a bodiless request is not', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
        const r = await writesNothing(['batches'], () =>
          fetch(`${svc.baseUrl}/v1/batches`, { method: 'POST', headers: { Authorization: `Bearer ${customer}`, ...(type ? { 'Content-Type': type } : {}) }, body: Buffer.from(JSON.stringify({ name: 'x', jobs: JOBS })) }),
        );
        assert.equal(r.status, 415, String(type));
        const body = (await r.json()) as Problem;
        assert.equal(body.title, 'Unsupported media type');
        assert.equal(body.problems[0].path, 'content-type');
        if (type) assert.ok(body.problems[0].message.includes(type), body.problems[0].message);
      }
      const list = await fetch(`${svc.baseUrl}/v1/batches`, { headers: { Authorization: `Bearer ${customer}` } });
      assert.equal(list.status, 200);
    });
  });

  describe('bodies and limits', () => {
    it('malformed JSON is a 400 problem', async () => {
      const r = await writesNothing(['batches'], () =>
        fetch(`${svc.baseUrl}/v1/batches`, { method: 'POST', headers: { Authorization: `Bearer ${customer}`, 'Content-Type': 'application/json' }, body: '{"name": "x", "jobs": [' }),
      );
      assert.equal(r.status, 400);
      assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
      const body = (await r.json()) as Problem;
      assert.equal(body.status, 400);
      assert.equal(body.title, 'Malformed body');
      assert.deepEqual(body.problems, [{ path: '$', message: 'invalid JSON' }]);
    });

    it('a body over the limit is a 413 problem', async () => {
      const job = JOBS[0];
      const jobs = Array.from({ length: 1700 }, (_, i) => ({ ...job, id: `job-${String(i).padStart(5, '0')}` }));
      const payload = JSON.stringify({ name: 'huge', jobs });
      assert.ok(payload.length > 280_000 && payload.length < 400_000, `payload of ${payload.length} bytes`);
      const r = await writesNothing(['batches'], () =>
        fetch(`${svc.baseUrl}/v1/batches`, { method: 'POST', headers: { Authorization: `Bearer ${customer}`, 'Content-Type': 'application/json' }, body: payload }),
      );
      assert.equal(r.status, 413);
      assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
      const body = (await r.json()) as Problem;
      assert.equal(body.status, 413);
      assert.deepEqual(body.problems, [{ path: '$', message: 'body too large' }]);
      assert.match(body.detail ?? '', new RegExp(`^the request body \\(${Buffer.byteLength(payload)} bytes\\) is larger than the limit of 200kb = 204800 bytes \\(FALLOW_BODY_LIMIT\\)`));
      // A body under the limit goes through.
      const small = await svc.client(customer).POST('/v1/batches', { body: { name: 'small', jobs: jobs.slice(0, 100) as never } });
      assert.equal(small.response.status, 201, JSON.stringify(small.error));
    });

    it('over the rate limit is a 429 with Retry-After, per key', async (t) => {
      const limited = await startService({ rateLimitPerMinute: 3 });
      t.after(() => limited.close());
      // Two of the operator key's three requests this minute.
      const tenant = await limited.tenant('hasty', ['customer']);
      const c = limited.client(tenant.keys.customer);
      // Fixed one-minute windows: the first 429 comes after at least 3 requests, and within 7 even if a
      // window ends during the loop.
      let ok = 0;
      let refused: { response: Response; error?: unknown } | undefined;
      for (let i = 0; i < 7 && !refused; i++) {
        const r = await c.GET('/v1/batches');
        if (r.response.status === 429) refused = r;
        else {
          assert.equal(r.response.status, 200);
          ok++;
        }
      }
      assert.ok(refused, 'no 429 within 7 requests at 3 a minute');
      assert.ok(ok >= 3, `429 after only ${ok} requests`);
      const body = problem(refused, 429);
      assert.match(body.detail ?? '', /3 requests a minute/);
      const retryAfter = Number(refused.response.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${refused.response.headers.get('retry-after')}`);
      // Another key has its own count; public endpoints are not limited.
      const op = await limited.client(limited.operatorKey).GET('/v1/tenants');
      assert.equal(op.response.status, 200);
      for (let i = 0; i < 5; i++) assert.equal((await limited.client().GET('/health')).response.status, 200);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first POST /v1/batches for a retry with the same key and body', async () => {
      const key = `batch-${randomUUID()}`;
      const c = svc.client(customer);
      const body = { name: 'idem', jobs: JOBS as never };
      const before = await count('batches');
      const first = await c.POST('/v1/batches', { params: { header: { 'Idempotency-Key': key } }, body });
      assert.equal(first.response.status, 201, JSON.stringify(first.error));
      assert.equal(first.response.headers.get('idempotent-replayed'), null);
      const second = await c.POST('/v1/batches', { params: { header: { 'Idempotency-Key': key } }, body });
      assert.equal(second.response.status, 201, JSON.stringify(second.error));
      assert.equal(second.response.headers.get('idempotent-replayed'), 'true');
      assert.equal(second.data!.id, first.data!.id);
      assert.equal(second.response.headers.get('location'), `/v1/batches/${first.data!.id}`);
      assert.deepEqual(second.data, first.data);
      assert.equal(await count('batches'), before + 1);

      const other = await writesNothing(['batches'], () => c.POST('/v1/batches', { params: { header: { 'Idempotency-Key': key } }, body: { ...body, name: 'different' } }));
      expectProblems(problem(other, 422), [['header:Idempotency-Key', 'already used for a different request']]);
      // Another key of the same tenant has its own Idempotency-Keys.
      const tenantId = (await svc.sql<{ tenant_id: string }>('SELECT tenant_id FROM batches WHERE id = $1', [first.data!.id]))[0].tenant_id;
      const key2 = await svc.client(svc.operatorKey).POST('/v1/tenants/{id}/keys', { params: { path: { id: tenantId } }, body: { role: 'customer' } });
      const fresh = await svc.client(key2.data!.key).POST('/v1/batches', { params: { header: { 'Idempotency-Key': key } }, body });
      assert.equal(fresh.response.status, 201);
      assert.notEqual(fresh.data!.id, first.data!.id);
      assert.equal(await count('batches'), before + 2);
    });

    it('a failed request is not stored: the same key works once the request is fixed', async () => {
      const key = `fix-${randomUUID()}`;
      const c = svc.client(customer);
      const bad = await writesNothing(['batches'], () => c.POST('/v1/batches', { params: { header: { 'Idempotency-Key': key } }, body: { name: '', jobs: JOBS as never } }));
      expectProblems(problem(bad, 422), [['name', 'longer than or equal to 1']]);
      const good = await c.POST('/v1/batches', { params: { header: { 'Idempotency-Key': key } }, body: { name: 'fixed', jobs: JOBS as never } });
      assert.equal(good.response.status, 201, JSON.stringify(good.error));
      assert.equal(good.response.headers.get('idempotent-replayed'), null);
    });

    it('POST /v1/solves twice with one key makes one solve', async () => {
      const key = `solve-${randomUUID()}`;
      const c = svc.client(customer);
      const body = { instance: smallInstance() as never, strategy: 'rffd' as const, timeBudgetMs: 300 };
      const before = await count('solves');
      const first = await c.POST('/v1/solves', { params: { header: { 'Idempotency-Key': key } }, body });
      assert.equal(first.response.status, 202, JSON.stringify(first.error));
      const second = await c.POST('/v1/solves', { params: { header: { 'Idempotency-Key': key } }, body });
      assert.equal(second.response.status, 202, JSON.stringify(second.error));
      assert.equal(second.response.headers.get('idempotent-replayed'), 'true');
      assert.equal(second.data!.id, first.data!.id);
      assert.equal(second.response.headers.get('location'), `/v1/solves/${first.data!.id}`);
      assert.equal(await count('solves'), before + 1);
    });

    // The key is reserved before the handler runs: twins wait for the first response and replay it.
    it('concurrent retries with one key make one solve', async () => {
      const key = `race-${randomUUID()}`;
      const before = await count('solves');
      const responses = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${svc.baseUrl}/v1/solves`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${customer}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
            body: JSON.stringify({ instance: smallInstance(), strategy: 'rffd', timeBudgetMs: 300 }),
          }),
        ),
      );
      const ids = new Set(await Promise.all(responses.map(async (r) => ((await r.json()) as { id: string }).id)));
      assert.deepEqual(responses.map((r) => r.status), Array(6).fill(202));
      assert.equal(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 5, 'five replays of the first response');
      assert.equal(ids.size, 1, `${ids.size} different solves for one Idempotency-Key`);
      assert.equal(await count('solves'), before + 1);
    });
  });
});
