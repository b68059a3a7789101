/**
 * Nodes lost and back (issue 39 part 2): POST /v1/clusters/{id}/events, validated naming every bad field and
 * writing nothing then, idempotent by key, listed newest first for whoever sees the cluster's schedule; a solve
 * on the cluster places nothing on a lost node while it is lost, and a plan made before the loss that runs there
 * no longer commits (until the node is back); a node-lost is delivered to the farmer's webhooks (node.lost). Real Postgres, Redis and a worker process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InstanceDoc } from '../../src/engine/model/types';
import { Service, startService, waitFor } from '../../harness/service';
import { problem } from '../support/problem';
import { solveToEnd } from '../support/solve-to-end';
import { farmAndShop } from '../support/farm-and-shop';
import { assertSigned, startReceiver } from '../support/webhook-receiver';

const HOUR_MS = 3_600_000;
/** Two 4-core nodes. */
const NODES = [
  { id: 'n1', capacity: { cpu: 4 } },
  { id: 'n2', capacity: { cpu: 4 } },
];
/** Ten one-hour tasks each taking a whole node: both nodes busy for five of the six slots, when both are there. */
const JOBS = [{ id: 'fill', stages: [{ id: 'map', tasks: 10, demand: { cpu: 4 }, durationSeconds: 3600 }] }];

describe('cluster events: nodes lost and back', () => {
  let svc: Service;
  let farmer: string;
  let otherFarmer: string;
  let customer: string;
  let batchId: string;
  const iso = (ms: number) => new Date(ms).toISOString();

  before(async () => {
    svc = await startService();
    svc.startWorker();
    ({ farmer, otherFarmer, customer, batchId } = await farmAndShop(svc, 'events', JOBS));
  });
  after(async () => svc?.close());

  /**
   * A cluster with a forecast of six idle hours whose slot 0 starts at `t0`, a second ago: a solve starting now
   * plans from slot 0 (whatever the hour), and its slot t is [t0 + t h, t0 + (t + 1) h).
   */
  async function cluster(lendable = true): Promise<{ id: string; t0: number }> {
    const c = await svc.client(farmer).POST('/v1/clusters', { body: { name: 'ev', metrics: ['cpu'], nodes: NODES, lendable } });
    assert.ok(c.data, JSON.stringify(c.error));
    const t0 = Date.now() - 1000;
    const f = await svc.client(farmer).POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: c.data.id } }, body: { slotSeconds: 3600, slots: 6, startsAt: iso(t0), usage: {} } });
    assert.ok(f.data, JSON.stringify(f.error));
    return { id: c.data.id, t0 };
  }
  const post = (key: string, id: string, body: unknown, idempotencyKey?: string) =>
    svc.client(key).POST('/v1/clusters/{id}/events', { params: { path: { id }, ...(idempotencyKey ? { header: { 'Idempotency-Key': idempotencyKey } } : {}) }, body: body as never });
  const list = (key: string, id: string, query: { limit?: number; cursor?: string } = {}) => svc.client(key).GET('/v1/clusters/{id}/events', { params: { path: { id }, query } });
  const rows = async (id: string) => Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM cluster_events WHERE cluster_id = $1', [id]))[0].n);

  it('names every bad field at once and writes nothing; only the cluster\'s farmer or an operator posts', async () => {
    const { id, t0 } = await cluster();
    const bad = await post(farmer, id, { type: 'node-gone', node: 'n9', at: '2030-02-31T00:00:00Z', until: 'tomorrow', reason: 7 });
    assert.deepEqual(problem(bad, 422).problems.map((p) => p.path), ['type', 'node', 'at', 'until', 'reason']);
    assert.match(problem(bad, 422).problems[1].message, /unknown node "n9".*"n1", "n2"/);
    const early = await post(farmer, id, { type: 'node-lost', node: 'n1', at: iso(t0 + HOUR_MS), until: iso(t0) });
    assert.deepEqual(problem(early, 422).problems.map((p) => p.path), ['until']);
    const backUntil = await post(farmer, id, { type: 'node-back', node: 'n1', until: iso(t0 + HOUR_MS) });
    assert.deepEqual(problem(backUntil, 422).problems.map((p) => p.path), ['until']);
    const farAway = await post(farmer, id, { type: 'node-lost', node: 'n1', at: '2000-01-01T00:00:00Z' });
    assert.deepEqual(problem(farAway, 422).problems.map((p) => p.path), ['at']);
    // An unknown field is named together with the other problems.
    const typo = await post(farmer, id, { type: 'lost', node: 'n1', when: iso(t0) });
    assert.deepEqual(problem(typo, 422).problems.map((p) => p.path).sort(), ['type', 'when']);
    assert.equal(await rows(id), 0);
    assert.equal((await post(customer, id, { type: 'node-lost', node: 'n1' })).response.status, 403);
    assert.equal((await post(otherFarmer, id, { type: 'node-lost', node: 'n1' })).response.status, 404);
    const byOperator = await post(svc.operatorKey, id, { type: 'node-back', node: 'n2', reason: 'checked by the operator' });
    assert.equal(byOperator.response.status, 201, JSON.stringify(byOperator.error));
    assert.equal(byOperator.data!.until, null);
  });

  it('stores an event (at defaults to now), replays a retry with the same Idempotency-Key, and lists events newest first to whoever sees the schedule', async () => {
    const { id, t0 } = await cluster();
    const sent = Date.now();
    const first = await post(farmer, id, { type: 'node-lost', node: 'n1', until: iso(t0 + 3 * HOUR_MS), reason: 'nightly batch of the owner' }, 'lost-n1');
    assert.equal(first.response.status, 201, JSON.stringify(first.error));
    const e = first.data!;
    assert.deepEqual({ type: e.type, node: e.node, until: e.until, reason: e.reason, clusterId: e.clusterId }, { type: 'node-lost', node: 'n1', until: iso(t0 + 3 * HOUR_MS), reason: 'nightly batch of the owner', clusterId: id });
    assert.ok(Math.abs(Date.parse(e.at) - sent) < 60_000, `at defaults to now: ${e.at}`);
    const again = await post(farmer, id, { type: 'node-lost', node: 'n1', until: iso(t0 + 3 * HOUR_MS), reason: 'nightly batch of the owner' }, 'lost-n1');
    assert.equal(again.data?.id, e.id);
    assert.equal(await rows(id), 1);
    const second = await post(farmer, id, { type: 'node-back', node: 'n1' });
    assert.equal(second.response.status, 201);

    const page1 = await list(farmer, id, { limit: 1 });
    assert.deepEqual(page1.data!.items.map((x) => x.type), ['node-back']);
    const page2 = await list(farmer, id, { limit: 1, cursor: page1.data!.nextCursor! });
    assert.deepEqual(page2.data!.items.map((x) => x.id), [e.id]);
    assert.equal(page2.data!.nextCursor, null);
    // A customer may solve on a lendable cluster, so it sees what its plans are made around; an operator sees all.
    assert.equal((await list(customer, id)).data?.items.length, 2);
    assert.equal((await list(svc.operatorKey, id)).data?.items.length, 2);
    assert.equal((await list(otherFarmer, id)).response.status, 404);
    const { id: closed } = await cluster(false);
    assert.equal((await list(customer, closed)).response.status, 404);
    assert.deepEqual(problem(await list(farmer, id, { limit: 0 }), 422).problems.map((p) => p.path), ['query:limit']);
  });

  it("tells the cluster's farmer's webhooks of a node lost (node.lost), signed, and not of a node back", async () => {
    const { id, t0 } = await cluster();
    const receiver = await startReceiver();
    try {
      const r = await fetch(`${svc.baseUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${farmer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, events: ['node.lost'], clusterId: id }),
      });
      const hook = (await r.json()) as { id: string; secret: string };
      assert.equal(r.status, 201, JSON.stringify(hook));
      assert.equal((await post(farmer, id, { type: 'node-back', node: 'n2' })).response.status, 201);
      const lost = await post(farmer, id, { type: 'node-lost', node: 'n2', at: iso(t0 + HOUR_MS), reason: 'maintenance' });
      assert.equal(lost.response.status, 201);
      await waitFor('the node.lost delivery', async () => (receiver.received.length ? true : undefined), 60_000);
      const [got] = receiver.received;
      assertSigned(got, hook.secret);
      const body = JSON.parse(got.body);
      assert.equal(body.type, 'node.lost');
      assert.deepEqual(body.data.event, lost.data);
      await new Promise((done) => setTimeout(done, 500));
      assert.equal(receiver.received.length, 1, 'the node-back is not a node.lost');
    } finally {
      await receiver.close();
    }
  });

  it('a solve places nothing on a node while it is lost, and uses it before and after', async () => {
    const { id, t0 } = await cluster();
    const lost = await post(farmer, id, { type: 'node-lost', node: 'n1', at: iso(t0 + HOUR_MS), until: iso(t0 + 3 * HOUR_MS) });
    assert.equal(lost.response.status, 201, JSON.stringify(lost.error));
    const { solve, plan } = await solveToEnd(svc.client(customer), { clusterId: id, batchId, strategy: 'rffd', timeBudgetMs: 500 });
    const instance = (await svc.client(customer).GET('/v1/solves/{id}/instance', { params: { path: { id: solve.id } } })).data as unknown as InstanceDoc;
    assert.deepEqual(instance.usage, { n1: { cpu: [0, 1, 1, 0, 0, 0] } });
    const onN1 = (plan.assignments as { node: string; start: number }[]).filter((a) => a.node === 'n1').map((a) => a.start);
    assert.deepEqual(onN1.filter((s) => s === 1 || s === 2), [], `nothing on n1 in slots 1 and 2: ${onN1}`);
    assert.ok(onN1.includes(0) && onN1.some((s) => s >= 3), `n1 runs tasks before and after its loss: ${onN1}`);
    assert.equal(plan.assignments.length, 10);
  });

  it('a plan made before the loss that runs on the node then no longer commits; once the node is back, it does', async () => {
    const { id, t0 } = await cluster();
    const { plan } = await solveToEnd(svc.client(customer), { clusterId: id, batchId, strategy: 'rffd', timeBudgetMs: 500 });
    assert.ok((plan.assignments as { node: string; start: number }[]).some((a) => a.node === 'n1' && a.start === 2), 'the plan runs a task on n1 in slot 2');
    assert.equal((await post(farmer, id, { type: 'node-lost', node: 'n1', at: iso(t0 + 2 * HOUR_MS) })).response.status, 201);
    const commit = () => svc.client(customer).POST('/v1/plans/{id}/commit', { params: { path: { id: plan.id } } });
    const refused = problem(await commit(), 409) as ReturnType<typeof problem> & { conflicts: { node: string; slot: number }[] };
    assert.ok(refused.conflicts.length > 0 && refused.conflicts.every((c) => c.node === 'n1' && c.slot >= 2), JSON.stringify(refused.conflicts));
    assert.equal((await post(farmer, id, { type: 'node-back', node: 'n1', at: iso(t0 + 2 * HOUR_MS) })).response.status, 201);
    const committed = await commit();
    assert.equal(committed.data?.status, 'committed', JSON.stringify(committed.error));
  });
});
