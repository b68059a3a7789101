/**
 * A priced plan is a plan the cluster can keep: the simulator's replay (simulatePlan, its links moving the
 * blocks and shuffles one transfer at a time per link) of ls's priced plan for a small ACO-BP-shaped cluster
 * ends within 15% of the planned makespan, where the same search with transfers ignored plans a makespan
 * its replay overruns by far more (as bench/acobp.ts compares them).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { simulatePlan } from '../../src/engine/simulation';
import { solve } from '../../src/engine/solve';
import { acoBpInstance } from '../../harness/acobp-instance';
import { BACKSTOP_MS } from '../support/work-limit';

const TOLERANCE = 0.15;

describe('the replay of a priced ls plan', () => {
  for (const seed of [1, 2, 3]) {
    test(`ACO-BP shape, seed ${seed} (10 VMs, ~150 tasks): replayed within ${TOLERANCE * 100}% of the planned makespan`, async (t) => {
      const model = loadInstance(acoBpInstance({ seed, scale: 0.02, perFlavour: 2, slots: 400 }));
      const error = async (transfers: 'priced' | 'ignored') => {
        const plan = await solve(model, { strategy: 'ls', seed: 1, maxIterations: 3, timeBudgetMs: BACKSTOP_MS, transfers });
        assert.equal(plan.rejected.length, 0, 'every job fits the window');
        const planned = plan.objective.makespanSlots * model.slotSeconds;
        const replayed = simulatePlan(model, plan, { qos: 'none', seed: 1 }).makespanSeconds;
        t.diagnostic(`${transfers}: planned ${planned} s, replayed ${replayed.toFixed(2)} s`);
        return (replayed - planned) / planned;
      };
      const priced = await error('priced');
      assert.ok(Math.abs(priced) <= TOLERANCE, `the priced plan's replay is off by ${(priced * 100).toFixed(1)}%`);
      // The check can tell: the plan that ignores the network underestimates what the replay takes.
      const ignored = await error('ignored');
      assert.ok(ignored > TOLERANCE, `the unpriced plan's replay is off by only ${(ignored * 100).toFixed(1)}%`);
    });
  }
});
