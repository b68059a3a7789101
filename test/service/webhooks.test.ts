/**
 * Webhooks (issue 39): a subscription's events are POSTed by a worker to a loopback receiver, signed with the
 * subscription's secret (checked here with node:crypto, not the service's code); a receiver that fails gets the
 * retries and the delivery log shows each attempt; an address the operator does not allow is refused at creation
 * (422 naming url) and again at delivery, where nothing connects to it; the secret is never stored in clear; a
 * tenant never sees another's subscriptions. Real Postgres, Redis, API and worker processes.
 */
import assert from 'node:assert/strict';
import { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Service, startService, stopChild, waitFor } from '../../harness/service';
import { problem } from '../support/problem';
import { assertSigned, Receiver, startReceiver } from '../support/webhook-receiver';

type Json = any;

const INSTANCE = {
  format: 'fallow.instance/v1',
  name: 'hooked',
  horizon: { slots: 20, slotSeconds: 60 },
  metrics: ['cpu'],
  nodes: [{ id: 'n1', capacity: { cpu: 2 } }],
  jobs: [{ id: 'j1', stages: [{ id: 'm', tasks: 2, demand: { cpu: 1 }, durationSeconds: 60 }] }],
};

describe('webhooks', () => {
  let svc: Service;
  let worker: ChildProcess;
  let a: string; // customer of tenant A
  let b: string; // customer of tenant B
  let farmer: string;
  const receivers: Receiver[] = [];

  before(async () => {
    svc = await startService();
    worker = svc.startWorker();
    a = (await svc.tenant('hooks-a', ['customer'])).keys.customer;
    b = (await svc.tenant('hooks-b', ['customer'])).keys.customer;
    farmer = (await svc.tenant('hooks-farm', ['farmer'])).keys.farmer;
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await svc?.close();
  });

  async function receiver(answer?: (n: number) => number, host?: string): Promise<Receiver> {
    const r = await startReceiver(answer, host);
    receivers.push(r);
    return r;
  }
  const subscribe = (key: string, body: Json, headers: Record<string, string> = {}) =>
    fetch(`${svc.baseUrl}/v1/webhooks`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then(async (r) => ({
      status: r.status,
      location: r.headers.get('location'),
      body: (await r.json()) as Json,
    }));
  const deliveries = async (key: string, id: string): Promise<Json[]> => {
    const r = await svc.client(key).GET('/v1/webhooks/{id}/deliveries', { params: { path: { id } } });
    assert.equal(r.response.status, 200, JSON.stringify(r.error));
    return r.data!.items;
  };
  /** Polls the subscription's log until `done` holds for its deliveries. */
  const logUntil = (key: string, id: string, done: (items: Json[]) => boolean) =>
    waitFor(`the delivery log of ${id}`, async () => {
      const items = await deliveries(key, id);
      return done(items) ? items : undefined;
    }, 60_000, 200);
  async function solved(key: string): Promise<{ solveId: string; planId: string }> {
    const r = await svc.client(key).POST('/v1/solves', { body: { instance: INSTANCE, strategy: 'rffd', timeBudgetMs: 200, startsAt: '2030-01-01T00:00:00Z' } as never });
    assert.equal(r.response.status, 202, JSON.stringify(r.error));
    const solveId = r.data!.id;
    const s = await waitFor('the solve to end', async () => {
      const x = (await svc.client(key).GET('/v1/solves/{id}', { params: { path: { id: solveId } } })).data!;
      return ['succeeded', 'failed', 'cancelled'].includes(x.status) ? x : undefined;
    }, 60_000);
    assert.equal(s.status, 'succeeded', s.error ?? '');
    return { solveId, planId: s.planId! };
  }
  /** A 409 of commitPlan: commits and releases the plan first if it is still proposed, then commits the released plan. */
  async function refusedCommit(key: string, planId: string): Promise<void> {
    const c = svc.client(key);
    const plan = (await c.GET('/v1/plans/{id}', { params: { path: { id: planId } } })).data!;
    if (plan.status === 'proposed') {
      assert.equal((await c.POST('/v1/plans/{id}/commit', { params: { path: { id: planId } } })).response.status, 200);
      assert.equal((await c.POST('/v1/plans/{id}/release', { params: { path: { id: planId } } })).response.status, 200);
    }
    const r = await c.POST('/v1/plans/{id}/commit', { params: { path: { id: planId } } });
    assert.equal(r.response.status, 409, JSON.stringify(r.error));
  }

  let first: { id: string; secret: string; receiver: Receiver };
  let planOfA: string;

  it("delivers a solve's end to a loopback receiver, signed with the subscription's secret", async () => {
    const r = await receiver();
    const created = await subscribe(a, { url: r.url, events: ['solve.ended'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.location, `/v1/webhooks/${created.body.id}`);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual({ url: created.body.url, events: created.body.events, role: created.body.role, clusterId: created.body.clusterId }, { url: r.url, events: ['solve.ended'], role: 'customer', clusterId: null });
    first = { id: created.body.id, secret: created.body.secret, receiver: r };

    const { solveId, planId } = await solved(a);
    planOfA = planId;
    await waitFor('the delivery', async () => (r.received.length ? true : undefined), 60_000);
    const [got] = r.received;
    assertSigned(got, first.secret);
    assert.equal(got.headers['fallow-event'], 'solve.ended');
    assert.equal(got.headers['content-type'], 'application/json');
    const body = JSON.parse(got.body);
    assert.equal(body.type, 'solve.ended');
    assert.equal(body.data.solve.id, solveId);
    assert.equal(body.data.solve.status, 'succeeded');
    assert.equal(body.data.solve.planId, planId);

    const [logged] = await logUntil(a, first.id, (items) => items[0]?.status === 'succeeded');
    assert.equal(logged.id, got.headers['fallow-delivery']);
    assert.equal(logged.eventId, body.id);
    assert.deepEqual(
      { event: logged.event, attempts: logged.attempts, statusCode: logged.statusCode, error: logged.error, nextAttemptAt: logged.nextAttemptAt },
      { event: 'solve.ended', attempts: 1, statusCode: 200, error: null, nextAttemptAt: null },
    );
    assert.ok(logged.deliveredAt);
    assert.deepEqual(logged.body, body);
    assert.deepEqual(logged.attemptLog.map((x: Json) => [x.attempt, x.statusCode, x.error]), [[1, 200, null]]);
  });

  it('retries a receiver that fails, after a backoff, and the log shows every attempt', async () => {
    // 503 twice, then 204: the third attempt delivers. The subscription brings its own secret.
    const r = await receiver((n) => (n <= 2 ? 503 : 204));
    const secret = 'my-own-secret-0123456789-abcdef';
    const created = await subscribe(a, { url: r.url, events: ['commit.refused'], secret });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.secret, secret);
    await refusedCommit(a, planOfA);

    const [d] = await logUntil(a, created.body.id, (items) => items[0]?.status === 'succeeded');
    assert.equal(d.attempts, 3);
    assert.deepEqual(d.attemptLog.map((x: Json) => [x.attempt, x.statusCode]), [[1, 503], [2, 503], [3, 204]]);
    assert.match(d.attemptLog[0].error, /503: try later/);
    assert.equal(d.statusCode, 204);
    assert.equal(d.error, null);
    // A retry waits at least its backoff (200 ms, then 400 ms in the tests): the attempts are that far apart at least.
    const at = d.attemptLog.map((x: Json) => Date.parse(x.at));
    assert.ok(at[1] - at[0] >= 150 && at[2] - at[1] >= 350, JSON.stringify(d.attemptLog));
    // Each attempt sent the same delivery, the same bytes, freshly signed.
    assert.equal(r.received.length, 3);
    for (const got of r.received) {
      assertSigned(got, secret);
      assert.equal(got.headers['fallow-delivery'], d.id);
      assert.equal(got.body, r.received[0].body);
    }
    const body = JSON.parse(r.received[0].body);
    assert.equal(body.type, 'commit.refused');
    assert.equal(body.data.plan.id, planOfA);
    assert.equal(body.data.plan.status, 'released');
    assert.match(body.data.detail, /released/);
  });

  it('gives a delivery up after its last attempt, saying why; nextAttemptAt says when a retry is due meanwhile', async () => {
    const r = await receiver(() => 500);
    const created = await subscribe(a, { url: r.url, events: ['commit.refused'] });
    await refusedCommit(a, planOfA);
    const pending = await logUntil(a, created.body.id, (items) => items[0]?.attempts >= 1);
    if (pending[0].status === 'pending') assert.ok(Date.parse(pending[0].nextAttemptAt) > Date.parse(pending[0].lastAttemptAt), JSON.stringify(pending[0]));
    const [d] = await logUntil(a, created.body.id, (items) => items[0]?.status === 'failed');
    assert.equal(d.attempts, svc.config.webhookAttempts);
    assert.equal(d.nextAttemptAt, null);
    assert.equal(d.statusCode, 500);
    assert.equal(r.received.length, svc.config.webhookAttempts);
  });

  it('refuses an address the operator does not allow (422 naming url), with every other problem at once, and stores nothing', async () => {
    const count = async () => (await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM webhook_subscriptions'))[0].n;
    const before = await count();
    for (const url of ['http://10.20.30.40:8080/hooks', 'https://hooks.example.com/fallow', 'http://127.0.0.2:9/hooks', 'http://[::1]:9/hooks']) {
      const body = problem(await svc.client(a).POST('/v1/webhooks', { body: { url, events: ['solve.ended'] } }), 422);
      assert.deepEqual(body.problems.map((p) => p.path), ['url'], `${url}: ${JSON.stringify(body)}`);
      assert.match(body.problems[0].message, /FALLOW_WEBHOOK_ALLOW/);
    }
    const all = await subscribe(a, { url: 'ftp://user:pw@127.0.0.1/x', events: ['node.lost', 'bogus', 'solve.ended', 'solve.ended'], secret: 'short', clusterId: 'nope' });
    assert.equal(all.status, 422, JSON.stringify(all.body));
    assert.deepEqual(
      all.body.problems.map((p: Json) => p.path),
      ['url', 'url', 'events[0]', 'events[1]', 'events[3]', 'secret', 'clusterId'],
      JSON.stringify(all.body.problems),
    );
    // A farmer hears node.lost only; an empty list is no subscription.
    const f = await subscribe(farmer, { url: 'http://127.0.0.1:9/x', events: ['solve.ended'] });
    assert.equal(f.status, 422);
    assert.deepEqual(f.body.problems.map((p: Json) => p.path), ['events[0]']);
    assert.equal((await subscribe(farmer, { url: 'http://127.0.0.1:9/x', events: [] })).status, 422);
    assert.equal(await count(), before);
  });

  it('never stores a secret in clear, not even for an Idempotency-Key retry', async () => {
    const r = await receiver();
    const created = await subscribe(a, { url: r.url, events: ['solve.ended'] }, { 'idempotency-key': 'hook-1' });
    assert.equal(created.status, 201);
    const secrets = [first.secret, created.body.secret];
    const rows = JSON.stringify(await svc.sql('SELECT * FROM webhook_subscriptions'));
    const kept = JSON.stringify(await svc.sql('SELECT * FROM idempotency_keys'));
    for (const secret of secrets) {
      const random = secret.slice('whsec_'.length);
      assert.ok(!rows.includes(random) && !kept.includes(random), 'a secret is stored in clear');
      assert.ok(!rows.includes(Buffer.from(secret).toString('base64')) && !rows.includes(Buffer.from(secret).toString('hex')), 'a secret is stored merely encoded');
    }
    const [row] = await svc.sql<{ secret_sealed: string }>('SELECT secret_sealed FROM webhook_subscriptions WHERE id = $1', [created.body.id]);
    assert.match(row.secret_sealed, /^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    // The retry cannot be given the secret again: a 409 naming the subscription made.
    const retry = await subscribe(a, { url: r.url, events: ['solve.ended'] }, { 'idempotency-key': 'hook-1' });
    assert.equal(retry.status, 409, JSON.stringify(retry.body));
    assert.ok(String(retry.body.detail).includes(created.body.id), retry.body.detail);
    assert.ok(!JSON.stringify(retry.body).includes(created.body.secret));
    // And no read shows it.
    const listed = await svc.client(a).GET('/v1/webhooks', {});
    assert.ok(!JSON.stringify(listed.data).includes(created.body.secret));
    assert.equal(JSON.stringify(listed.data).includes('secret'), false);
  });

  it("hides a tenant's subscriptions from other tenants (404), lists each its own, shows operators all", async () => {
    const other = svc.client(b);
    assert.equal((await other.GET('/v1/webhooks/{id}', { params: { path: { id: first.id } } })).response.status, 404);
    assert.equal((await other.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: first.id } } })).response.status, 404);
    assert.equal((await other.DELETE('/v1/webhooks/{id}', { params: { path: { id: first.id } } })).response.status, 404);
    assert.equal((await svc.client(farmer).GET('/v1/webhooks/{id}', { params: { path: { id: first.id } } })).response.status, 404);
    assert.deepEqual((await other.GET('/v1/webhooks', {})).data!.items, []);
    const mine = (await svc.client(a).GET('/v1/webhooks', { params: { query: { limit: 2 } } })).data!;
    assert.equal(mine.items.length, 2);
    assert.ok(mine.nextCursor);
    const rest = (await svc.client(a).GET('/v1/webhooks', { params: { query: { cursor: mine.nextCursor!, limit: 50 } } })).data!;
    assert.ok([...mine.items, ...rest.items].some((s) => s.id === first.id));
    assert.equal((await svc.client(svc.operatorKey).GET('/v1/webhooks/{id}', { params: { path: { id: first.id } } })).response.status, 200);
  });

  it("an operator's subscription hears every tenant's events; a customer's only its own", async () => {
    const op = await receiver();
    const theirs = await receiver();
    const opHook = await subscribe(svc.operatorKey, { url: op.url, events: ['commit.refused', 'node.lost'] });
    assert.equal(opHook.status, 201, JSON.stringify(opHook.body));
    const bHook = await subscribe(b, { url: theirs.url, events: ['commit.refused'] });
    assert.equal(bHook.status, 201, JSON.stringify(bHook.body));
    await refusedCommit(a, planOfA);
    await logUntil(svc.operatorKey, opHook.body.id, (items) => items[0]?.status === 'succeeded');
    assert.equal(JSON.parse(op.received[0].body).data.plan.id, planOfA);
    assertSigned(op.received[0], opHook.body.secret);
    assert.deepEqual(await deliveries(b, bHook.body.id), []);
    assert.equal(theirs.received.length, 0);
  });

  it('deletes a subscription with its log', async () => {
    const r = await svc.client(a).DELETE('/v1/webhooks/{id}', { params: { path: { id: first.id } } });
    assert.equal(r.response.status, 204);
    assert.equal((await svc.client(a).GET('/v1/webhooks/{id}', { params: { path: { id: first.id } } })).response.status, 404);
    assert.deepEqual(await svc.sql('SELECT id FROM webhook_deliveries WHERE subscription_id = $1', [first.id]), []);
  });

  it('publishes solve.ended from the API as well: a queued solve cancelled before any worker took it, delivered once a worker runs', async () => {
    await stopChild(worker);
    const r = await receiver();
    const hook = await subscribe(a, { url: r.url, events: ['solve.ended'] });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const posted = await svc.client(a).POST('/v1/solves', { body: { instance: INSTANCE, strategy: 'rffd', timeBudgetMs: 200 } as never });
    assert.equal(posted.response.status, 202, JSON.stringify(posted.error));
    const cancelled = await svc.client(a).DELETE('/v1/solves/{id}', { params: { path: { id: posted.data!.id } } });
    assert.equal(cancelled.response.status, 202, JSON.stringify(cancelled.error));
    assert.equal(cancelled.data!.status, 'cancelled');
    const [queued] = await deliveries(a, hook.body.id);
    assert.deepEqual([queued.status, queued.attempts, queued.nextAttemptAt], ['pending', 0, null]);
    worker = svc.startWorker();
    const [d] = await logUntil(a, hook.body.id, (items) => items[0]?.status === 'succeeded');
    assert.equal(d.body.data.solve.id, posted.data!.id);
    assert.equal(d.body.data.solve.status, 'cancelled');
    assertSigned(r.received[0], hook.body.secret);
  });

  it('delivers plan.replanned when a re-plan stores its plan: the plan re-planned and its new version', async () => {
    const r = await receiver();
    const hook = await subscribe(a, { url: r.url, events: ['plan.replanned'] });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const { planId } = await solved(a);
    const posted = await svc.client(a).POST('/v1/plans/{id}/replan', { params: { path: { id: planId } }, body: { nowSlot: 1, strategy: 'rffd', timeBudgetMs: 200 } as never });
    assert.equal(posted.response.status, 202, JSON.stringify(posted.error));
    await waitFor('the plan.replanned delivery', async () => (r.received.length ? true : undefined), 60_000);
    const [got] = r.received;
    assertSigned(got, hook.body.secret);
    assert.equal(got.headers['fallow-event'], 'plan.replanned');
    const body = JSON.parse(got.body);
    assert.equal(body.data.plan.supersedes, planId);
    assert.equal(body.data.solveId, posted.data!.id);
    const replanned = (await svc.client(a).GET('/v1/plans/{id}', { params: { path: { id: body.data.plan.id } } })).data!;
    assert.equal((replanned as Json).supersedes, planId);
  });

  it('checks the address again at delivery: a worker that no longer allows it, or a name resolving outside the list, never connects', async () => {
    // The API allows 127.0.0.1 and localhost; the worker now allows the name localhost only, none of its addresses.
    await stopChild(worker);
    worker = svc.startWorker({ FALLOW_WEBHOOK_ALLOW: 'localhost' });
    const r = await receiver();
    const byName = await subscribe(a, { url: r.url.replace('127.0.0.1', 'localhost'), events: ['commit.refused'] });
    const byAddress = await subscribe(a, { url: r.url, events: ['commit.refused'] });
    assert.equal(byName.status, 201, JSON.stringify(byName.body));
    assert.equal(byAddress.status, 201, JSON.stringify(byAddress.body));
    await refusedCommit(a, planOfA);
    const [named] = await logUntil(a, byName.body.id, (items) => items[0]?.status === 'failed');
    const [addressed] = await logUntil(a, byAddress.body.id, (items) => items[0]?.status === 'failed');
    // Refused at once, not retried: no address it could connect to is allowed.
    assert.equal(named.attempts, 1);
    assert.match(named.error, /^refused: localhost resolves to .*none of which is allowed/);
    assert.equal(addressed.attempts, 1);
    assert.match(addressed.error, /^refused: the host 127\.0\.0\.1 is no longer allowed/);
    for (const d of [named, addressed]) assert.deepEqual([d.statusCode, d.nextAttemptAt], [null, null]);
    assert.equal(r.received.length, 0);
  });
});
