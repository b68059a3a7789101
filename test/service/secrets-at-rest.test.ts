/**
 * Secrets and idempotency rows at rest: an API key issued with an Idempotency-Key is never stored (a retry
 * gets a 409 naming the key's id instead of the key), the request hash does not depend on field order,
 * and stored responses expire. Before: the whole response, key included, stayed in idempotency_keys forever,
 * and a reordered body was a false 422. Key digests are HMACs under the deployment's secret, with a short
 * fixed prefix in clear; before: unsalted SHA-256 and the key's first 8 characters, whatever the key.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DIST_SRC, Service, startService } from '../../harness/service';

const KEY_SECRET = 'test-key-secret-0123456789abcdef-0123';

describe('secrets and idempotency rows at rest', () => {
  let svc: Service;
  let tenantId: string;
  let customer: string;
  const post = async (path: string, key: string, idem: string, body: string) => {
    const r = await fetch(`${svc.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idem }, body });
    return { status: r.status, body: (await r.json()) as Record<string, any> };
  };

  before(async () => {
    svc = await startService({ keySecret: KEY_SECRET });
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

  it('stores a key as an HMAC under the key secret, with only flw_ and 4 characters in clear', async () => {
    const issued = await post(`/v1/tenants/${tenantId}/keys`, svc.operatorKey, 'hmac-1', JSON.stringify({ role: 'farmer', label: 'hmac' }));
    assert.equal(issued.status, 201, JSON.stringify(issued.body));
    const key: string = issued.body.key;
    assert.equal(issued.body.prefix, key.slice(0, 8));
    const [row] = await svc.sql<{ key_hash: string; prefix: string }>('SELECT key_hash, prefix FROM api_keys WHERE id = $1', [issued.body.id]);
    assert.equal(row.key_hash, `hmac-sha256:${createHmac('sha256', KEY_SECRET).update(key).digest('hex')}`);
    assert.notEqual(row.key_hash, createHash('sha256').update(key).digest('hex'));
    assert.equal(row.prefix, key.slice(0, 8));
    // The chosen bootstrap key keeps nothing in clear.
    const [bootstrap] = await svc.sql<{ key_hash: string; prefix: string }>("SELECT key_hash, prefix FROM api_keys WHERE label = 'bootstrap'");
    assert.equal(bootstrap.prefix, '');
    assert.equal(bootstrap.key_hash, `hmac-sha256:${createHmac('sha256', KEY_SECRET).update(svc.operatorKey).digest('hex')}`);
  });

  it('accepts a key stored before keys were HMACed and rewrites its digest and prefix on first use', async () => {
    const legacyKey = 'legacy_operator_key_chosen_by_hand';
    await svc.sql("INSERT INTO api_keys (tenant_id, role, label, prefix, key_hash) VALUES ($1, 'customer', 'legacy', $2, $3)", [
      tenantId,
      legacyKey.slice(0, 8),
      createHash('sha256').update(legacyKey).digest('hex'),
    ]);
    const r = await svc.client(legacyKey).GET('/v1/batches', {});
    assert.equal(r.response.status, 200);
    const [row] = await svc.sql<{ key_hash: string; prefix: string }>("SELECT key_hash, prefix FROM api_keys WHERE label = 'legacy'");
    assert.equal(row.key_hash, `hmac-sha256:${createHmac('sha256', KEY_SECRET).update(legacyKey).digest('hex')}`);
    assert.equal(row.prefix, '');
    assert.equal((await svc.client(legacyKey).GET('/v1/batches', {})).response.status, 200);
    assert.equal((await svc.client('legacy_operator_key_chosen_by_hanD').GET('/v1/batches', {})).response.status, 401);
  });

  it('the API refuses to start in production without FALLOW_KEY_SECRET, naming it', async () => {
    const child = spawn(process.execPath, [path.join(DIST_SRC, 'main.js')], {
      env: { ...process.env, NODE_ENV: 'production', FALLOW_KEY_SECRET: '', DATABASE_URL: svc.config.databaseUrl, PORT: '0', FALLOW_BOOTSTRAP_KEY: 'x'.repeat(32) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.notEqual(code, 0);
    assert.match(output, /FALLOW_KEY_SECRET is required in production/);
  });
});
