/**
 * The makespan bound on a data centre's size (issue 40): the packing arguments get work budgets that grow with
 * the cluster, so that mixing shapes still counts on hundreds of nodes (with the papers' fixed budgets it gave
 * 0 there), and the bound stays below what a feasible schedule achieves.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makespanBound } from '../../src/engine/bounds/makespan';
import { loadInstance } from '../../src/engine/model/model';
import { buildFromTaskOrder } from '../../src/engine/schedule/sgs';
import { latestFinishOrder } from '../../src/engine/schedule/tails';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { scaleInstance } from '../../harness/scale-instance';

describe('the makespan bound on hundreds of nodes', () => {
  for (const seed of [1, 2]) {
    it(`mixes shapes and stays below a feasible makespan (seed ${seed}, 400 nodes, 8,000 tasks)`, () => {
      const model = loadInstance(scaleInstance({ nodes: 400, tasks: 8000, seed }));
      const b = makespanBound(model);
      assert.ok(b.mixedPacking > 0, `mixed packing ran out of budget: ${JSON.stringify(b)}`);
      const sched = buildFromTaskOrder(model, latestFinishOrder(model), null);
      assert.equal(sched.scheduledTasks(), model.nTasks);
      const check = evaluatePlan(model, toPlanDoc(model, sched, 'lft'));
      assert.ok(check.ok, check.violations.slice(0, 3).join('; '));
      assert.ok(b.makespanSlots <= sched.makespan(), `bound ${b.makespanSlots} above a feasible makespan ${sched.makespan()}`);
    });
  }
});
