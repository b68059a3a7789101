/**
 * Hostile JSON shapes (issue 21, item 7): deeply nested bodies were a 500 (the validators' stack
 * overflowed) and prototype keys were dropped without a word where any other unknown field is a 422.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService } from '../../harness/service';

describe('hostile bodies', () => {
  let svc: Service;
  let customer: string;
  const post = async (raw: string) => {
    const r = await fetch(`${svc.baseUrl}/v1/batches`, { method: 'POST', headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' }, body: raw });
    return { status: r.status, body: (await r.json()) as { problems: { path: string; message: string }[] } };
  };
  const batches = async () => Number((await svc.sql<{ n: number }>('SELECT count(*)::int AS n FROM batches'))[0].n);
  const JOB = '{"id":"j0","stages":[{"id":"m","tasks":1,"demand":{"cpu":1},"durationSeconds":60}]}';

  before(async () => {
    svc = await startService();
    customer = (await svc.tenant('hostile', ['customer'])).keys.customer;
  });
  after(() => svc?.close());

  it('answers 422 for arrays nested 100,000 deep and objects nested 20,000 deep', async () => {
    const arrays = await post(`{"name":"deep","jobs":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    assert.equal(arrays.status, 422, JSON.stringify(arrays.body).slice(0, 300));
    assert.match(arrays.body.problems[0].message, /nested deeper than 64 levels/);
    assert.match(arrays.body.problems[0].path, /^jobs(\[0\])+$/);
    const objects = await post(`{"name":"deep","jobs":[],"x":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`);
    assert.equal(objects.status, 422, JSON.stringify(objects.body).slice(0, 300));
    assert.match(objects.body.problems[0].path, /^x(\.a)+$/);
    assert.equal(await batches(), 0);
  });

  it('names __proto__ and constructor keys instead of dropping them', async () => {
    const r = await post(`{"name":"proto","__proto__":{"polluted":true},"jobs":[{"constructor":{"x":1},${JOB.slice(1)}]}`);
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.deepEqual(r.body.problems.map((p) => p.path).sort(), ['__proto__', 'jobs[0].constructor']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(await batches(), 0);
    const ok = await post(`{"name":"fine","jobs":[${JOB}]}`);
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
  });
});
