/**
 * POST /v1/solves with shuffleAware on a plan that counts compute only (transfers: ignored): the worker places
 * the reduces again over the links after the search; the solve says it did, the plan says how many moved, and
 * a non-boolean is a 422 naming the field. A priced plan (the default) has nothing to move and says why.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { solveToEnd } from '../support/solve-to-end';
import { Service, startService } from '../../harness/service';

type Json = any;

// Four nodes with 80 Mbps links; one map per node writes 400 MB; four reduces read their share of it.
const INSTANCE = {
  format: 'fallow.instance/v1',
  name: 'shuffle-aware',
  horizon: { slots: 20, slotSeconds: 50 },
  metrics: ['cpu', 'ram'],
  nodes: ['a', 'b', 'c', 'd'].map((id) => ({ id, capacity: { cpu: 4, ram: 16 }, maxTasks: 4, bandwidthMbps: 80 })),
  jobs: [
    {
      id: 'j',
      stages: [
        { id: 'm', tasks: 4, demand: { cpu: 1, ram: 1 }, durationSeconds: 40, outputMB: 400 },
        { id: 'r', tasks: 4, demand: { cpu: 1, ram: 1 }, durationSeconds: 40, after: ['m'] },
      ],
    },
  ],
};

describe('shuffle-aware solves', () => {
  let svc: Service;
  let key: string;
  before(async () => {
    svc = await startService();
    svc.startWorker();
    key = (await svc.tenant('shuffle-aware', ['customer'])).keys.customer;
  });
  after(async () => svc?.close());

  const solved = (body: Json) => solveToEnd(svc.client(key), { instance: INSTANCE, strategy: 'ls', timeBudgetMs: 500, ...body });

  it('a solve asked for it with transfers ignored places the reduces over the links and the plan says how many moved', async () => {
    const { solve, plan } = await solved({ shuffleAware: true, transfers: 'ignored' });
    assert.equal(solve.shuffleAware, true);
    const moved = plan.stats.shuffleAware?.movedReduces;
    assert.ok(Number.isInteger(moved), JSON.stringify(plan.stats));
    // Each reduce's fetch is bound by its node's downlink: they do not share one (the engine test has the exact case).
    const reduceNodes = new Set(plan.assignments.filter((a: Json) => a.stage === 'r').map((a: Json) => a.node));
    assert.ok(reduceNodes.size >= 2, `reduces on ${[...reduceNodes]}`);
    const plain = await svc.client(key).POST('/v1/solves', { body: { instance: INSTANCE as never, strategy: 'rffd', timeBudgetMs: 500 } });
    assert.equal(plain.data!.shuffleAware, false);
  });

  it('a priced plan (the default) moves no reduce: the solve keeps what was asked, the plan says why', async () => {
    const { solve, plan } = await solved({ shuffleAware: true });
    assert.equal(solve.shuffleAware, true);
    assert.equal(solve.transfers, 'priced');
    assert.equal(plan.transfers, 'priced');
    const stat = plan.stats.shuffleAware;
    assert.ok(stat?.movedReduces === 0 && /transfers priced/.test(stat.reason), JSON.stringify(plan.stats));
  });

  it('shuffleAware must be a boolean: a 422 naming it, and no solve is created', async () => {
    const c = svc.client(key);
    const before = (await c.GET('/v1/solves', {})).data!.items.length;
    const bad = await c.POST('/v1/solves', { body: { instance: INSTANCE as never, strategy: 'ls', shuffleAware: 'yes' as never } });
    assert.ok(problem(bad, 422).problems.some((p: Json) => p.path === 'shuffleAware'), JSON.stringify(bad.error));
    assert.equal((await c.GET('/v1/solves', {})).data!.items.length, before);
  });
});
