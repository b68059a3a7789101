/**
 * Admission limits against the real service: an instance or batch over a size limit is a 422 naming the
 * field and the limit, answered from the document before anything is built, and nothing is written or
 * queued. (Before the limits, `horizon.slots: 1e8` grew the API by 3 GB and `tasks: 1e300` was stored.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_ADMISSION_LIMITS } from '../../src/engine/model/admission';
import { Service, startService } from '../../harness/service';

function instance(o: { slots?: number; tasks?: number; nodes?: number } = {}): Record<string, unknown> {
  return {
    format: 'fallow.instance/v1',
    name: 'admission',
    horizon: { slots: o.slots ?? 4, slotSeconds: 300 },
    metrics: ['cpu', 'ram'],
    nodes: Array.from({ length: o.nodes ?? 2 }, (_, i) => ({ id: `h${i}`, capacity: { cpu: 8, ram: 32 } })),
    jobs: [{ id: 'j0', stages: [{ id: 'map', tasks: o.tasks ?? 2, demand: { cpu: 1, ram: 2 }, durationSeconds: 300 }] }],
  };
}

describe('admission limits', () => {
  let svc: Service;
  let customer: string;
  const count = async (table: string) => Number((await svc.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n);
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${svc.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${customer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as { problems: { path: string; message: string }[] } };
  };

  before(async () => {
    // A memory limit low enough to meet with a small request; every other limit at its default.
    svc = await startService({ admission: { ...DEFAULT_ADMISSION_LIMITS, maxInstanceMb: 50 } });
    customer = (await svc.tenant('admission', ['customer'])).keys.customer;
  });
  after(() => svc?.close());

  it('refuses 100,000,000 slots, naming horizon.slots and the limit, and writes nothing', async () => {
    const r = await post('/v1/solves', { instance: instance({ slots: 100_000_000 }), strategy: 'rffd', timeBudgetMs: 500 });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.deepEqual(r.body.problems.map((p) => p.path), ['instance.horizon.slots']);
    assert.match(r.body.problems[0].message, /100000000 is over the limit of 100000 \(FALLOW_MAX_SLOTS\)/);
    assert.equal(await count('solves'), 0);
  });

  it('refuses 100,000,000 tasks in a stage of an inline instance', async () => {
    const r = await post('/v1/solves', { instance: instance({ tasks: 100_000_000 }), strategy: 'ls', timeBudgetMs: 500 });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.deepEqual(r.body.problems.map((p) => p.path), ['instance.jobs[0].stages[0].tasks', 'instance.jobs']);
    assert.match(r.body.problems[0].message, /FALLOW_MAX_STAGE_TASKS/);
    assert.match(r.body.problems[1].message, /FALLOW_MAX_TASKS/);
    assert.equal(await count('solves'), 0);
  });

  it('refuses an instance whose model would need more memory than the limit', async () => {
    // 50,000 slots x 100 nodes x 2 metrics: each under its own limit, together about 480 MB of profiles.
    const r = await post('/v1/solves', { instance: instance({ slots: 50_000, nodes: 100 }), strategy: 'rffd', timeBudgetMs: 500 });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.deepEqual(r.body.problems.map((p) => p.path), ['instance']);
    assert.match(r.body.problems[0].message, /about \d+ MB .* over the limit of 50 MB \(FALLOW_MAX_INSTANCE_MB\)/);
    assert.equal(await count('solves'), 0);
  });

  it('refuses batches with 2147483647 or 1e300 tasks in a stage, with every other problem at once', async () => {
    for (const tasks of [2147483647, 1e300]) {
      const r = await post('/v1/batches', { name: 'huge', jobs: [{ id: 'j0', stages: [{ id: 'map', tasks, demand: { cpu: 1 }, durationSeconds: 60 }] }] });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.ok(r.body.problems.some((p) => p.path === 'jobs[0].stages[0].tasks' && /FALLOW_MAX_STAGE_TASKS/.test(p.message)), JSON.stringify(r.body.problems));
    }
    assert.equal(await count('batches'), 0);
  });

  it('still accepts an instance inside every limit', async () => {
    const r = await post('/v1/solves', { instance: instance(), strategy: 'rffd', timeBudgetMs: 500 });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(await count('solves'), 1);
  });
});
