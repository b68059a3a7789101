/**
 * Issue 35: every route checks the API key before it reads a body. Before, every route but usage read and
 * parsed up to 20 MB of JSON first: ten keyless 19.2 MB POST /v1/batches took the API from 200 to 1,628 MB
 * and /health to 13.9 s before each got its 401 (measurements: bench/keyless-bodies.ts, docs/RELIABILITY.md).
 * Each request below declares 19 MB (under the body limit, so only a server that waits for it could refuse
 * it as too large) and sends 1 KB: an answer proves the server did not wait for the rest.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService } from '../../harness/service';
import { WorkQueues } from '../../src/modules/queue/queue.module';
import { answerBeforeBody } from '../support/partial-body';

const DECLARED = 19_000_000;
const ID = '00000000-0000-4000-8000-000000000000';

describe('authentication before any body is read', () => {
  let svc: Service;
  let farmer: string;
  let customer: string;

  before(async () => {
    svc = await startService();
    const t = await svc.tenant('edge', ['farmer', 'customer']);
    ({ farmer, customer } = t.keys);
  });
  after(() => svc?.close());

  const families: [string, string][] = [
    ['POST', '/v1/batches'],
    ['POST', '/v1/solves'],
    ['POST', '/v1/clusters'],
    ['PUT', `/v1/clusters/${ID}`],
    ['POST', `/v1/clusters/${ID}/forecasts`],
    ['POST', `/v1/clusters/${ID}/forecasts:build`],
    ['POST', '/v1/executions/events'],
    ['POST', '/v1/simulations'],
    ['POST', `/v1/plans/${ID}/simulations`],
    ['POST', '/v1/tenants'],
    ['PUT', `/v1/tenants/${ID}/score-weights`],
    ['POST', '/v1/webhooks'],
    ['POST', '/v1/no-such-route'],
  ];

  it('answers 401 without a key, and with an unknown one, after 1 KB of a declared 19 MB body, on every route family', async () => {
    for (const [method, path] of families)
      for (const authorization of [undefined, 'Bearer flw_unknown_key']) {
        const r = await answerBeforeBody(`${svc.baseUrl}${path}`, method, authorization ? { authorization } : {}, DECLARED);
        assert.equal(r.status, 401, `${method} ${path} (${authorization ?? 'no key'}): ${r.body}`);
        assert.match(String(r.headers['content-type']), /^application\/problem\+json/);
        assert.equal(r.headers['www-authenticate'], 'Bearer');
        assert.match(JSON.parse(r.body).detail, authorization ? /unknown or revoked/ : /Authorization: Bearer/);
      }
  });

  it('answers 401 before a chunked body of unknown length is read', async () => {
    const r = await answerBeforeBody(`${svc.baseUrl}/v1/batches`, 'POST', {}, undefined);
    assert.equal(r.status, 401, r.body);
  });

  it('refuses a body sent as something else than JSON with 401 before its content type matters', async () => {
    const r = await answerBeforeBody(`${svc.baseUrl}/v1/batches`, 'POST', { 'content-type': 'text/plain' }, DECLARED);
    assert.equal(r.status, 401, r.body);
  });

  it('keeps everything after the key as it was: roles (403), validation (422), creation (201)', async () => {
    const cluster = { name: 'c', metrics: ['cpu'], nodes: [{ id: 'h0', capacity: { cpu: 4 } }] };
    const asCustomer = await svc.client(customer).POST('/v1/clusters', { body: cluster });
    assert.equal(asCustomer.response.status, 403, JSON.stringify(asCustomer.error));
    const invalid = await svc.client(farmer).POST('/v1/clusters', { body: { ...cluster, nodes: [] } });
    assert.equal(invalid.response.status, 422);
    const created = await svc.client(farmer).POST('/v1/clusters', { body: cluster });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
  });

  it('leaves the public routes public', async () => {
    for (const path of ['/health', '/openapi.json', '/metrics', `/v1/plans/${ID}/page`, '/docs/']) {
      const r = await fetch(`${svc.baseUrl}${path}`);
      assert.equal(r.status, 200, path);
      await r.arrayBuffer();
    }
  });

  it('lets the queue board check its own credentials (basic auth) before it reads a body', async () => {
    const queue = svc.app.get(WorkQueues).all()[0].name;
    const path = `/admin/queues/api/queues/${encodeURIComponent(queue)}/pause`;
    const keyless = await answerBeforeBody(`${svc.baseUrl}${path}`, 'PUT', {}, DECLARED);
    assert.equal(keyless.status, 401, keyless.body);
    assert.match(String(keyless.headers['www-authenticate']), /^Basic realm=/);
    const basic = `Basic ${Buffer.from(`admin:${svc.operatorKey}`).toString('base64')}`;
    const headers = { authorization: basic, 'content-type': 'application/json' };
    const paused = await fetch(`${svc.baseUrl}${path}`, { method: 'PUT', headers, body: '{}' });
    assert.ok(paused.ok, `${paused.status} ${await paused.text()}`);
    assert.equal(await svc.app.get(WorkQueues).all()[0].isPaused(), true);
    const resumed = await fetch(`${svc.baseUrl}/admin/queues/api/queues/${encodeURIComponent(queue)}/resume`, { method: 'PUT', headers, body: '{}' });
    assert.ok(resumed.ok, `${resumed.status} ${await resumed.text()}`);
  });
});
