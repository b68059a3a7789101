/**
 * Who may do what, against the real service: API keys (missing, unknown, revoked), roles, tenant isolation
 * (another tenant's resources are 404, never 403, and never listed), lending a cluster to another tenant's
 * solves, the operators' queue dashboard, and the public endpoints (health, metrics, the OpenAPI document).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ephemeralInstance } from '../../harness/ephemeral-instance';
import { problem, Problem } from '../support/problem';
import { Service, startService, stopChild, waitFor } from '../../harness/service';

const CLUSTER = {
  metrics: ['cpu', 'ram'],
  nodes: [
    { id: 'h01', capacity: { cpu: 8, ram: 32 }, speed: 4 },
    { id: 'h02', capacity: { cpu: 8, ram: 32 }, speed: 4 },
  ],
  lendable: true,
};
const JOBS = [
  {
    id: 'j1',
    stages: [
      { id: 'map', tasks: 4, demand: { cpu: 1, ram: 2 }, durationSeconds: 600 },
      { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1, ram: 2 }, durationSeconds: 300 },
    ],
  },
];
const SLOTS = 12;
const HORIZON = { slots: SLOTS, slotSeconds: 300 };
const FORECAST = { slotSeconds: 300, slots: SLOTS, quantile: 0.5, usage: { h01: { cpu: Array(SLOTS).fill(0.25) } } };

describe('access', () => {
  let svc: Service;
  let a: { id: string; keys: Record<string, string> };
  let b: { id: string; keys: Record<string, string> };
  const count = async (table: string) => Number((await svc.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n);

  before(async () => {
    svc = await startService();
    a = await svc.tenant('tenant-a', ['farmer', 'customer']);
    b = await svc.tenant('tenant-b', ['farmer', 'customer']);
  });
  after(async () => svc?.close());

  describe('API keys', () => {
    it('a request without Authorization is a 401 problem with WWW-Authenticate', async () => {
      const r = await svc.client().GET('/v1/clusters');
      const body = problem(r, 401);
      assert.equal(r.response.headers.get('www-authenticate'), 'Bearer');
      assert.equal(body.title, 'Unauthorized');
      assert.deepEqual(body.problems, []);
      assert.match(body.detail ?? '', /Authorization: Bearer/);
      // Also on a route any role may call, and with a scheme other than Bearer.
      const raw = await fetch(`${svc.baseUrl}/v1/solves`, { headers: { Authorization: `Basic ${Buffer.from(`x:${a.keys.customer}`).toString('base64')}` } });
      assert.equal(raw.status, 401);
      assert.match(raw.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(raw.headers.get('www-authenticate'), 'Bearer');
    });

    it('an unknown key is a 401', async () => {
      const r = await svc.client('flw_not-a-key-this-service-issued').GET('/v1/batches');
      const body = problem(r, 401);
      assert.ok(r.response.headers.get('www-authenticate'));
      assert.match(body.detail ?? '', /unknown or revoked/);
    });

    it('a revoked key is a 401 from then on', async () => {
      const op = svc.client(svc.operatorKey);
      const created = await op.POST('/v1/tenants/{id}/keys', { params: { path: { id: a.id } }, body: { role: 'customer', label: 'short-lived' } });
      assert.equal(created.response.status, 201, JSON.stringify(created.error));
      const key = created.data!;
      assert.equal((await svc.client(key.key).GET('/v1/batches')).response.status, 200);

      const del = await op.DELETE('/v1/tenants/{id}/keys/{keyId}', { params: { path: { id: a.id, keyId: key.id } } });
      assert.equal(del.response.status, 204);
      const r = await svc.client(key.key).GET('/v1/batches');
      assert.match(problem(r, 401).detail ?? '', /unknown or revoked/);
      const listed = await op.GET('/v1/tenants/{id}/keys', { params: { path: { id: a.id } } });
      assert.ok(listed.data?.find((k) => k.id === key.id)?.revokedAt, 'the listing shows when it was revoked');
      // The tenant's other keys still work.
      assert.equal((await svc.client(a.keys.customer).GET('/v1/batches')).response.status, 200);
      // Revoking a key of another tenant (wrong tenant id) is a 404.
      const wrong = await op.DELETE('/v1/tenants/{id}/keys/{keyId}', { params: { path: { id: b.id, keyId: key.id } } });
      problem(wrong, 404);
    });
  });

  describe('roles', () => {
    it('a customer cannot create a cluster', async () => {
      const before = await count('clusters');
      const r = await svc.client(a.keys.customer).POST('/v1/clusters', { body: { name: 'nope', ...CLUSTER } });
      assert.match(problem(r, 403).detail ?? '', /farmer/);
      assert.equal(await count('clusters'), before);
    });

    it('a farmer cannot create a batch or a solve', async () => {
      const farmer = svc.client(a.keys.farmer);
      const [batches, solves] = [await count('batches'), await count('solves')];
      problem(await farmer.POST('/v1/batches', { body: { name: 'nope', jobs: JOBS as never } }), 403);
      const instance = ephemeralInstance({ nodes: 2, jobs: 1, slots: 24, seed: 2 });
      problem(await farmer.POST('/v1/solves', { body: { instance: instance as never, strategy: 'rffd', timeBudgetMs: 300 } }), 403);
      assert.equal(await count('batches'), batches);
      assert.equal(await count('solves'), solves);
    });

    it('only operators list tenants', async () => {
      for (const key of [a.keys.farmer, a.keys.customer]) problem(await svc.client(key).GET('/v1/tenants'), 403);
      problem(await svc.client(a.keys.customer).POST('/v1/tenants', { body: { name: 'sneaky' } }), 403);
      const r = await svc.client(svc.operatorKey).GET('/v1/tenants');
      assert.equal(r.response.status, 200);
      const names = r.data!.items.map((t) => t.name);
      assert.ok(names.includes('tenant-a') && names.includes('tenant-b'), names.join(', '));
      assert.ok(!names.includes('sneaky'));
      assert.equal(r.data!.nextCursor, null, 'every tenant fits the default page');
    });

    it('tenants page like every other listing: newest first, {items, nextCursor}, limit and cursor', async () => {
      const op = svc.client(svc.operatorKey);
      const all = (await op.GET('/v1/tenants')).data!.items;
      const created = all.map((t) => t.createdAt);
      assert.deepEqual(created, [...created].sort().reverse(), 'newest first');
      const paged: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await op.GET('/v1/tenants', { params: { query: { limit: 1, cursor } } });
        assert.equal(page.response.status, 200, JSON.stringify(page.error));
        assert.ok(page.data!.items.length <= 1);
        paged.push(...page.data!.items.map((t) => t.id));
        cursor = page.data!.nextCursor ?? undefined;
      } while (cursor);
      assert.deepEqual(paged, all.map((t) => t.id));
      problem(await op.GET('/v1/tenants', { params: { query: { limit: 0 } } }), 422);
      problem(await op.GET('/v1/tenants', { params: { query: { cursor: 'nonsense' } } }), 422);
    });

    it('an operator can do what farmers and customers do', async () => {
      const op = svc.client(svc.operatorKey);
      const cluster = await op.POST('/v1/clusters', { body: { name: 'op-cluster', ...CLUSTER } });
      assert.equal(cluster.response.status, 201, JSON.stringify(cluster.error));
      const batch = await op.POST('/v1/batches', { body: { name: 'op-batch', jobs: JOBS as never } });
      assert.equal(batch.response.status, 201, JSON.stringify(batch.error));
      const instance = ephemeralInstance({ nodes: 2, jobs: 1, slots: 24, seed: 2 });
      const solve = await op.POST('/v1/solves', { body: { instance: instance as never, strategy: 'rffd', timeBudgetMs: 300 } });
      assert.equal(solve.response.status, 202, JSON.stringify(solve.error));
      const forecast = await op.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: cluster.data!.id } }, body: FORECAST });
      assert.equal(forecast.response.status, 201, JSON.stringify(forecast.error));
      // And operators read every tenant's resources.
      assert.equal((await op.GET('/v1/solves/{id}', { params: { path: { id: solve.data!.id } } })).response.status, 200);
    });
  });

  describe('tenant isolation', () => {
    let clusterA: string;
    let privateClusterA: string;
    let forecastA: string;
    let batchA: string;
    let solveA: string;
    let clusterB: string;
    let batchB: string;

    before(async () => {
      const farmerA = svc.client(a.keys.farmer);
      const customerA = svc.client(a.keys.customer);
      // Without `lendable` (the generated type requires it because it has a default).
      const c = await farmerA.POST('/v1/clusters', { body: { name: 'a-lendable', metrics: CLUSTER.metrics, nodes: CLUSTER.nodes } as never });
      assert.ok(c.data, JSON.stringify(c.error));
      clusterA = c.data.id;
      assert.equal(c.data.lendable, true, 'clusters are lendable unless told otherwise');
      const p = await farmerA.POST('/v1/clusters', { body: { name: 'a-private', ...CLUSTER, lendable: false } });
      assert.ok(p.data, JSON.stringify(p.error));
      privateClusterA = p.data.id;
      const f = await farmerA.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: clusterA } }, body: FORECAST });
      assert.ok(f.data, JSON.stringify(f.error));
      forecastA = f.data.id;
      const bt = await customerA.POST('/v1/batches', { body: { name: 'a-batch', jobs: JOBS as never } });
      assert.ok(bt.data, JSON.stringify(bt.error));
      batchA = bt.data.id;
      // Queued and left queued (no worker yet) until the plan test starts one.
      const s = await customerA.POST('/v1/solves', { body: { clusterId: clusterA, forecastId: forecastA, batchId: batchA, strategy: 'rffd', timeBudgetMs: 300 } });
      assert.equal(s.response.status, 202, JSON.stringify(s.error));
      solveA = s.data!.id;

      const cb = await svc.client(b.keys.farmer).POST('/v1/clusters', { body: { name: 'b-cluster', ...CLUSTER } });
      assert.ok(cb.data, JSON.stringify(cb.error));
      clusterB = cb.data.id;
      const bb = await svc.client(b.keys.customer).POST('/v1/batches', { body: { name: 'b-batch', jobs: JOBS as never } });
      assert.ok(bb.data, JSON.stringify(bb.error));
      batchB = bb.data.id;
    });

    it("another tenant's cluster is 404: read, update, versions, forecasts", async () => {
      const farmerB = svc.client(b.keys.farmer);
      const id = clusterA;
      assert.equal((await svc.client(a.keys.farmer).GET('/v1/clusters/{id}', { params: { path: { id } } })).response.status, 200);
      assert.match(problem(await farmerB.GET('/v1/clusters/{id}', { params: { path: { id } } }), 404).detail ?? '', /cluster/);
      const put = await farmerB.PUT('/v1/clusters/{id}', {
        params: { path: { id } },
        body: { name: 'hijacked', metrics: ['cpu'], nodes: [{ id: 'x', capacity: { cpu: 1 } }], lendable: false },
      });
      problem(put, 404);
      const [row] = await svc.sql<{ name: string; version: number; lendable: boolean }>('SELECT name, version, lendable FROM clusters WHERE id = $1', [id]);
      assert.deepEqual(row, { name: 'a-lendable', version: 1, lendable: true });
      problem(await farmerB.GET('/v1/clusters/{id}/versions/{version}', { params: { path: { id, version: 1 } } }), 404);
      problem(await farmerB.GET('/v1/forecasts/{id}', { params: { path: { id: forecastA } } }), 404);
      problem(await farmerB.GET('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: id } } }), 404);
      const forecasts = await count('forecasts');
      problem(await farmerB.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: id } }, body: FORECAST }), 404);
      assert.equal(await count('forecasts'), forecasts);
    });

    it("another tenant's batch is 404, also when a solve names it", async () => {
      const customerB = svc.client(b.keys.customer);
      problem(await customerB.GET('/v1/batches/{id}', { params: { path: { id: batchA } } }), 404);
      const solves = await count('solves');
      const r = await customerB.POST('/v1/solves', { body: { clusterId: clusterB, batchId: batchA, horizon: HORIZON, strategy: 'rffd', timeBudgetMs: 300 } });
      assert.match(problem(r, 404).detail ?? '', /batch/);
      // Nor A's forecast on B's own cluster.
      const f = await customerB.POST('/v1/solves', { body: { clusterId: clusterB, batchId: batchB, forecastId: forecastA, strategy: 'rffd', timeBudgetMs: 300 } });
      assert.match(problem(f, 404).detail ?? '', /forecast/);
      assert.equal(await count('solves'), solves);
    });

    it("another tenant's solve is 404 to read and to cancel (and stays as it was)", async () => {
      for (const key of [b.keys.customer, b.keys.farmer]) problem(await svc.client(key).GET('/v1/solves/{id}', { params: { path: { id: solveA } } }), 404);
      problem(await svc.client(b.keys.customer).DELETE('/v1/solves/{id}', { params: { path: { id: solveA } } }), 404);
      const [row] = await svc.sql<{ status: string; cancel_requested_at: Date | null }>('SELECT status, cancel_requested_at FROM solves WHERE id = $1', [solveA]);
      assert.deepEqual(row, { status: 'queued', cancel_requested_at: null });
    });

    it("lists show only the caller's own resources (operators see all)", async () => {
      const clusters = (await svc.client(b.keys.farmer).GET('/v1/clusters')).data!.items.map((c) => c.id);
      assert.ok(clusters.includes(clusterB));
      assert.ok(!clusters.includes(clusterA) && !clusters.includes(privateClusterA), 'A\'s clusters listed to B');
      const batches = (await svc.client(b.keys.customer).GET('/v1/batches')).data!.items.map((x) => x.id);
      assert.ok(batches.includes(batchB));
      assert.ok(!batches.includes(batchA));
      const solves = (await svc.client(b.keys.customer).GET('/v1/solves')).data!.items.map((s) => s.id);
      assert.ok(!solves.includes(solveA));
      const mine = (await svc.client(a.keys.customer).GET('/v1/solves')).data!.items.map((s) => s.id);
      assert.ok(mine.includes(solveA));
      const all = (await svc.client(svc.operatorKey).GET('/v1/clusters', { params: { query: { limit: 500 } } })).data!.items.map((c) => c.id);
      assert.ok(all.includes(clusterA) && all.includes(clusterB));
    });

    it("a customer solves on another tenant's lendable cluster by reference but cannot read the cluster", async () => {
      const customerB = svc.client(b.keys.customer);
      const r = await customerB.POST('/v1/solves', { body: { clusterId: clusterA, batchId: batchB, horizon: HORIZON, strategy: 'rffd', timeBudgetMs: 300 } });
      assert.equal(r.response.status, 202, JSON.stringify(r.error));
      assert.equal(r.data!.clusterId, clusterA);
      assert.equal(r.data!.clusterVersion, 1);
      assert.equal(r.data!.batchId, batchB);
      const [row] = await svc.sql<{ tenant_id: string }>('SELECT tenant_id FROM solves WHERE id = $1', [r.data!.id]);
      assert.equal(row.tenant_id, b.id, 'the solve belongs to the borrowing tenant');
      assert.ok(!(await svc.client(a.keys.customer).GET('/v1/solves')).data!.items.some((s) => s.id === r.data!.id), 'the lender does not see it');
      problem(await svc.client(b.keys.farmer).GET('/v1/clusters/{id}', { params: { path: { id: clusterA } } }), 404);
      problem(await svc.client(b.keys.customer).GET('/v1/clusters/{id}', { params: { path: { id: clusterA } } }), 403);

      const solves = await count('solves');
      const p = await customerB.POST('/v1/solves', { body: { clusterId: privateClusterA, batchId: batchB, horizon: HORIZON, strategy: 'rffd', timeBudgetMs: 300 } });
      const body = problem(p, 404);
      assert.match(body.detail ?? '', /cluster/);
      assert.ok(body.detail?.includes(privateClusterA));
      assert.equal(await count('solves'), solves);
      // The owner itself may still solve on its own cluster that is not lent.
      const own = await svc.client(a.keys.customer).POST('/v1/solves', { body: { clusterId: privateClusterA, batchId: batchA, horizon: HORIZON, strategy: 'rffd', timeBudgetMs: 300 } });
      assert.equal(own.response.status, 202, JSON.stringify(own.error));
    });

    it("another tenant's plan and its assignments are 404", async (t) => {
      const worker = svc.startWorker();
      t.after(() => stopChild(worker));
      const customerA = svc.client(a.keys.customer);
      const done = await waitFor(
        `solve ${solveA} to end`,
        async () => {
          const s = (await customerA.GET('/v1/solves/{id}', { params: { path: { id: solveA } } })).data!;
          return ['succeeded', 'failed', 'cancelled'].includes(s.status) ? s : undefined;
        },
        60000,
      );
      assert.equal(done.status, 'succeeded', done.error ?? '');
      const planId = done.planId!;
      assert.ok(planId);
      assert.equal((await customerA.GET('/v1/plans/{id}', { params: { path: { id: planId } } })).response.status, 200);
      const own = await customerA.GET('/v1/plans/{id}/assignments', { params: { path: { id: planId } } });
      assert.ok(own.data && own.data.items.length > 0, JSON.stringify(own.error));
      for (const key of [b.keys.customer, b.keys.farmer]) {
        const c = svc.client(key);
        problem(await c.GET('/v1/plans/{id}', { params: { path: { id: planId } } }), 404);
        problem(await c.GET('/v1/plans/{id}/assignments', { params: { path: { id: planId } } }), 404);
        problem(await c.GET('/v1/plans/{id}/assignments', { params: { path: { id: planId }, query: { node: 'h01', limit: 1 } } }), 404);
      }
    });
  });

  describe('queue dashboard', () => {
    const board = (authorization?: string) => fetch(`${svc.baseUrl}/admin/queues`, { headers: authorization ? { Authorization: authorization } : {} });
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

    it('lets operators in with the key as Bearer or as the basic-auth password', async () => {
      const bearer = await board(`Bearer ${svc.operatorKey}`);
      assert.equal(bearer.status, 200);
      await bearer.arrayBuffer();
      for (const user of ['admin', 'anyone-at-all', '']) {
        const r = await board(basic(user, svc.operatorKey));
        assert.equal(r.status, 200, `basic auth as "${user}"`);
        await r.arrayBuffer();
      }
    });

    it('keeps everyone else out with a 401 asking for basic auth', async () => {
      for (const auth of [undefined, `Bearer ${a.keys.customer}`, basic('admin', a.keys.farmer), basic('admin', 'wrong'), `Bearer ${svc.operatorKey}x`]) {
        const r = await board(auth);
        assert.equal(r.status, 401, `with ${auth?.split(' ')[0] ?? 'no'} auth`);
        assert.match(r.headers.get('www-authenticate') ?? '', /^Basic /);
        assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
        const body = (await r.json()) as Problem;
        assert.equal(body.status, 401);
      }
    });
  });

  describe('public endpoints', () => {
    it('/health answers without a key', async () => {
      const r = await svc.client().GET('/health');
      assert.equal(r.response.status, 200);
      assert.equal(r.data?.status, 'ok');
    });

    it('/metrics exposes the HTTP and queue metrics', async () => {
      const r = await fetch(`${svc.baseUrl}/metrics`);
      assert.equal(r.status, 200);
      const text = await r.text();
      assert.match(text, /^fallow_http_request_duration_seconds_bucket\{/m);
      assert.match(text, /^fallow_queue_jobs\{state="waiting"\} \d+/m);
      assert.ok(!text.includes(svc.operatorKey));
    });

    it('/openapi.json is the committed openapi/openapi.json', async () => {
      const r = await fetch(`${svc.baseUrl}/openapi.json`);
      assert.equal(r.status, 200);
      const committed = JSON.parse(readFileSync(path.resolve(__dirname, '../../../openapi/openapi.json'), 'utf8'));
      assert.deepEqual(await r.json(), committed);
    });
  });
});
