/**
 * solveWithOutcome: the engine answers once. Its ends are each assignment's start plus its stage's
 * duration on its node, its KPIs are those of the evaluator on the returned plan, its rejection reasons
 * those of explainRejections, and solve() returns the same plan.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { explainRejections } from '../../src/engine/evaluate/rejections';
import { loadInstance, stageKey } from '../../src/engine/model/model';
import { solve, solveWithOutcome } from '../../src/engine/solve';
import { endOf, randomInstance } from '../support/random-instance';

const SEEDS = [1, 2, 3, 4, 5, 6];
const STRATEGIES = ['rffd', 'ls', 'fifo'];

describe('solveWithOutcome', () => {
  it('gives the end of every assignment: start + the duration of its stage on its node', async () => {
    let checked = 0;
    for (const seed of SEEDS)
      for (const strategy of STRATEGIES) {
        const inst = randomInstance(seed, { maxJobs: 4, maxTasks: 3, maxNodes: 3 });
        const model = loadInstance(inst);
        const { plan, ends } = await solveWithOutcome(model, { strategy, maxIterations: 20, seed });
        assert.equal(ends.length, plan.assignments.length, `${strategy} seed ${seed}: one end per assignment`);
        plan.assignments.forEach((a, n) => {
          const g = model.stageIndex.get(stageKey(a.job, a.stage));
          const k = model.nodeIndex.get(a.node);
          assert.ok(g !== undefined && k !== undefined, `${a.job}/${a.stage} on ${a.node} is in the model`);
          const expected = a.start + model.stages[g].dur[k];
          assert.equal(ends[n], expected, `${strategy} seed ${seed}: assignment ${n} (${a.job}/${a.stage}/${a.task} on ${a.node} at ${a.start})`);
          // And read from the instance document alone (FORMAT.md), not from the engine's model.
          assert.equal(ends[n], endOf(inst, a));
          checked++;
        });
      }
    assert.ok(checked > 0, 'the instances gave assignments to check');
  });

  it('answers with the KPIs and rejection reasons of the returned plan, and the plan solve() returns', async () => {
    let jobs = 0;
    for (const seed of SEEDS) {
      const model = loadInstance(randomInstance(seed, { maxJobs: 4, maxTasks: 3, maxNodes: 3 }));
      const options = { strategy: 'rffd', maxIterations: 20, seed };
      const outcome = await solveWithOutcome(model, options);
      const evaluation = evaluatePlan(model, outcome.plan);
      assert.ok(evaluation.ok, evaluation.violations.join('; '));
      assert.deepEqual(outcome.kpis, evaluation.kpis as unknown as Record<string, unknown>);
      assert.ok(Array.isArray(outcome.kpis.jobs), 'per-job outcomes are in the KPIs');
      assert.equal((outcome.kpis.jobs as unknown[]).length, model.jobs.length);
      jobs += model.jobs.length;
      assert.deepEqual(outcome.rejections, explainRejections(model, outcome.plan));
      const plan = await solve(model, options);
      const { stats: _a, ...rest } = plan;
      const { stats: _b, ...restOutcome } = outcome.plan;
      assert.deepEqual(rest, restOutcome, 'solve() returns the same plan (elapsed-time stats aside)');
    }
    assert.ok(jobs > 0);
  });
});
