/**
 * Shuffle-aware reduce placement (placement/shuffle-aware.ts): reduces placed again where their share of
 * the map output arrives first over the nodes' links, the maps untouched, capacity and precedence kept.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { fromPlanDoc, toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { placeReducesOverLinks } from '../../src/engine/placement/shuffle-aware';
import { solve } from '../../src/engine/solve';
import { at, planOf } from '../support/fixtures';
import { node, oneJob, runPlan } from '../support/sim-fixtures';

// Four nodes with 80 Mbps links (10 MB/s). One map per node at slot 0, each writing 400 MB; four reduces,
// each reading 100 MB of every map's output. All four reduces on a: a's downlink carries 4 x 300 MB = 120 s.
// One per node: every downlink 300 MB and every uplink 300 MB, 30 s.
const nodes = ['a', 'b', 'c', 'd'].map((id) => node(id));
const doc = oneJob(
  [
    { id: 'm', tasks: 4, demand: { cpu: 1, ram: 1 }, durationSeconds: 40, outputMB: 400 },
    { id: 'r', tasks: 4, demand: { cpu: 1, ram: 1 }, durationSeconds: 40, after: ['m'] },
  ],
  { nodes },
);
const packed = planOf(doc, [...['a', 'b', 'c', 'd'].map((k, t) => at(`j/m/${t}@${k}:0`)), ...[0, 1, 2, 3].map((t) => at(`j/r/${t}@a:1`))]);

describe('shuffle-aware reduce placement', () => {
  test('spreads reduces a plan packed on one node, keeps the maps, and the plan stays feasible', () => {
    const model = loadInstance(doc);
    const s = fromPlanDoc(model, packed);
    const moved = placeReducesOverLinks(model, s);
    const plan = toPlanDoc(model, s, 'hand');
    assert.ok(evaluatePlan(model, plan).ok, JSON.stringify(evaluatePlan(model, plan).violations));
    const reduceNodes = plan.assignments.filter((a) => a.stage === 'r').map((a) => a.node);
    assert.deepEqual([...reduceNodes].sort(), ['a', 'b', 'c', 'd']);
    assert.equal(moved, 3, 'the first reduce stays on a, the others move');
    assert.deepEqual(
      plan.assignments.filter((a) => a.stage === 'm'),
      packed.assignments.filter((a) => a.stage === 'm'),
    );
  });

  test('the simulated shuffle is shorter: 120 s of fetching through one downlink become 30 s', () => {
    const model = loadInstance(doc);
    const s = fromPlanDoc(model, packed);
    placeReducesOverLinks(model, s);
    const before = runPlan(doc, packed, undefined, 'none').report;
    const after = runPlan(doc, toPlanDoc(model, s, 'hand'), undefined, 'none').report;
    // Reduces launch at slot 1 (50 s), fetch, then compute 40 s.
    assert.ok(Math.abs(before.makespanSeconds - (50 + 120 + 40)) < 1e-6, `packed: ${before.makespanSeconds}`);
    assert.ok(Math.abs(after.makespanSeconds - (50 + 30 + 40)) < 1e-6, `spread: ${after.makespanSeconds}`);
  });

  test('a job without map output has nothing to fetch: nothing moves', () => {
    const plain = oneJob(
      [
        { id: 'm', tasks: 4, demand: { cpu: 1, ram: 1 }, durationSeconds: 40 },
        { id: 'r', tasks: 4, demand: { cpu: 1, ram: 1 }, durationSeconds: 40, after: ['m'] },
      ],
      { nodes },
    );
    const model = loadInstance(plain);
    const s = fromPlanDoc(model, planOf(plain, packed.assignments));
    assert.equal(placeReducesOverLinks(model, s), 0);
    assert.deepEqual(toPlanDoc(model, s, 'hand').assignments, packed.assignments);
  });

  test('solve with shuffleAware: the plan passes the evaluator and says how many reduces moved', async () => {
    const model = loadInstance(doc);
    // The pass moves reduces of a plan that counts compute alone.
    const plan = await solve(model, { strategy: 'ls', shuffleAware: true, transfers: 'ignored', maxIterations: 50, timeBudgetMs: 2000 });
    assert.ok(evaluatePlan(model, plan).ok);
    const stat = (plan.stats as { shuffleAware?: { movedReduces: number } }).shuffleAware;
    assert.ok(stat && Number.isInteger(stat.movedReduces) && stat.movedReduces >= 0, JSON.stringify(plan.stats));
    const without = await solve(model, { strategy: 'ls', transfers: 'ignored', maxIterations: 50, timeBudgetMs: 2000 });
    assert.equal((without.stats as Record<string, unknown>).shuffleAware, undefined);
  });

  test('solve with shuffleAware on a plan with priced transfers: nothing to move, and the plan says why', async () => {
    const model = loadInstance(doc);
    const plan = await solve(model, { strategy: 'ls', shuffleAware: true, maxIterations: 50, timeBudgetMs: 2000 });
    assert.equal(plan.transfers, 'priced');
    assert.ok(evaluatePlan(model, plan).ok);
    assert.deepEqual((plan.stats as Record<string, unknown>).shuffleAware, { movedReduces: 0, reason: 'transfers priced: each reduce was placed by its shuffle' });
  });
});
