/**
 * POST /v1/solves with `transfers`: on an instance with network fields the worker's plan prices each task's
 * fetch by default (`transfers: "priced"`, fetchSlots on every assignment) and counts compute alone when asked
 * (`"ignored"`); the solve stores and returns what was asked, and a value outside priced|ignored is a 422
 * naming the field with the other problems of the request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problem } from '../support/problem';
import { NETWORK_INSTANCE } from '../support/network-instance';
import { solveToEnd } from '../support/solve-to-end';
import { Service, startService } from '../../harness/service';

type Json = any;

describe('solves and priced transfers', () => {
  let svc: Service;
  let key: string;
  before(async () => {
    svc = await startService();
    svc.startWorker();
    key = (await svc.tenant('solve-transfers', ['customer'])).keys.customer;
  });
  after(async () => svc?.close());

  const solved = (extra: Json) => solveToEnd(svc.client(key), { instance: NETWORK_INSTANCE, strategy: 'ls', timeBudgetMs: 500, ...extra });

  it('by default the plan prices every fetch: transfers "priced", fetchSlots on each assignment', async () => {
    const { posted, solve, plan } = await solved({});
    assert.equal(posted.transfers, 'priced');
    assert.equal(solve.transfers, 'priced');
    assert.equal(plan.transfers, 'priced');
    assert.equal(plan.stats.transfers, 'priced');
    assert.equal(plan.assignments.length, 6, 'every task is placed');
    for (const a of plan.assignments) assert.ok(Number.isInteger(a.fetchSlots) && a.fetchSlots >= 0, JSON.stringify(a));
    // Each reduce reads 100 MB of every map's output (at least a slot from another node) and the maps are spread, their blocks one per node.
    assert.ok(plan.assignments.filter((a: Json) => a.stage === 'reduce').every((a: Json) => a.fetchSlots > 0), JSON.stringify(plan.assignments));
  });

  it('"ignored": durations are compute alone, the plan says nothing of transfers and its stats say "ignored"', async () => {
    const { posted, solve, plan } = await solved({ transfers: 'ignored' });
    assert.equal(posted.transfers, 'ignored');
    assert.equal(solve.transfers, 'ignored');
    assert.equal(plan.transfers, undefined);
    assert.equal(plan.stats.transfers, 'ignored');
    assert.ok(plan.assignments.every((a: Json) => a.fetchSlots === undefined), JSON.stringify(plan.assignments));
  });

  it('a value other than priced or ignored is a 422 naming transfers and the allowed values, with the other problems; no solve is created', async () => {
    const c = svc.client(key);
    const before = (await c.GET('/v1/solves', {})).data!.items.length;
    const bad = await c.POST('/v1/solves', { body: { instance: NETWORK_INSTANCE as never, transfers: 'network' as never, seed: -1 } });
    const { problems } = problem(bad, 422);
    const t = problems.find((p) => p.path === 'transfers');
    assert.ok(t, JSON.stringify(problems));
    assert.match(t.message, /priced, ignored/);
    assert.ok(problems.some((p) => p.path === 'seed'), `the other problem is named too: ${JSON.stringify(problems)}`);
    assert.equal((await c.GET('/v1/solves', {})).data!.items.length, before);
  });
});
