/**
 * Secrets and idempotency rows at rest: an API key issued with an Idempotency-Key is never stored (a retry
 * gets a 409 naming the key's id instead of the key), the request hash does not depend on field order,
 * and stored responses expire. Before: the whole response, key included, stayed in idempotency_keys forever,
 * and a reordered body was a false 422.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService } from '../../harness/service';

describe('secrets and idempotency rows at rest', () => {
  let svc: Service;
  let tenantId: string;
  let customer: string;
  const post = async (path: string, key: string, idem: string, body: string) => {
    const r = await fetch(`${svc.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idem }, body });
    return { status: r.status, body: (await r.json()) as Record<string, any> };
  };

  before(async () => {
    svc = await startService();
    const t = await svc.tenant('secrets', ['customer']);
    tenantId = t.id;
    customer = t.keys.customer;
  });
  after(() => svc?.close());

  it('never stores an issued key, and answers a retry with 409 naming the key issued', async () => {
    const body = JSON.stringify({ role: 'farmer', label: 'ci' });
    const first = await post(`/v1/tenants/${tenantId}/keys`, svc.operatorKey, 'issue-1', body);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const issued: string = first.body.key;
    assert.match(issued, /^flw_/);
    const rows = await svc.sql('SELECT * FROM idempotency_keys');
    assert.ok(rows.length >= 1);
    assert.ok(!JSON.stringify(rows).includes(issued), 'the issued key is stored in idempotency_keys');
    assert.ok(!JSON.stringify(rows).includes(issued.slice(8)), 'a part of the issued key is stored in idempotency_keys');
    const retry = await post(`/v1/tenants/${tenantId}/keys`, svc.operatorKey, 'issue-1', body);
    assert.equal(retry.status, 409, JSON.stringify(retry.body));
    assert.ok(String(retry.body.detail).includes(first.body.id), retry.body.detail);
    assert.ok(!JSON.stringify(retry.body).includes(issued));
    // The key works, and only one was issued.
    const keys = await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE tenant_id = $1 AND label = $2', [tenantId, 'ci']);
    assert.equal(keys[0].n, 1);
  });

  it('replays the same body in another field order instead of a false 422', async () => {
    const jobs = [{ id: 'j0', stages: [{ id: 'map', tasks: 1, demand: { cpu: 1 }, durationSeconds: 60 }] }];
    const a = await post('/v1/batches', customer, 'order-1', JSON.stringify({ name: 'ordered', jobs }));
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const b = await post('/v1/batches', customer, 'order-1', JSON.stringify({ jobs: [{ stages: [{ durationSeconds: 60, demand: { cpu: 1 }, tasks: 1, id: 'map' }], id: 'j0' }], name: 'ordered' }));
    assert.equal(b.status, 201, JSON.stringify(b.body));
    assert.equal(b.body.id, a.body.id);
  });

  it('forgets stored responses after their time to live (24 h by default)', async () => {
    const jobs = [{ id: 'j0', stages: [{ id: 'map', tasks: 1, demand: { cpu: 1 }, durationSeconds: 60 }] }];
    const a = await post('/v1/batches', customer, 'ttl-1', JSON.stringify({ name: 'first', jobs }));
    assert.equal(a.status, 201);
    await svc.sql(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'ttl-1'`);
    // Another body under the same key: a 422 while the response is stored, a new resource once it expired.
    const b = await post('/v1/batches', customer, 'ttl-1', JSON.stringify({ name: 'second', jobs }));
    assert.equal(b.status, 201, JSON.stringify(b.body));
    assert.notEqual(b.body.id, a.body.id);
  });
});
