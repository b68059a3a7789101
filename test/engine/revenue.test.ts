/**
 * The revenue objective (two-stage paper Eq. 3) across the engine: every strategy's plan under it is
 * feasible and reports its revenue truly under an upper bound; ls earns at least what the paper's
 * heuristics earn (it starts from their plans); exact proves the optimum on small instances, which no
 * other strategy beats and the bound never undercuts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { revenueBound } from '../../src/engine/bounds/revenue';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';
import { strategyNames } from '../../src/engine/strategies';
import { randomInstance } from '../support/random-instance';
import { tpsPaperInstance } from '../../harness/tps-instance';
import { BY_WORK } from '../support/work-limit';

/**
 * Solves by work, the clock only a backstop (BY_WORK): the revenues compared below must not depend on the
 * CPU a budget gets (tps cut short returns its EDF fallback, exact its incumbent unproven).
 */
async function solveFor(inst: InstanceDoc, strategy: string, maxIterations: number = BY_WORK.maxIterations): Promise<{ plan: PlanDoc; revenue: number }> {
  const model = loadInstance(inst);
  const plan = await solve(model, { strategy, objective: 'revenue', ...BY_WORK, maxIterations, seed: 7 });
  const e = evaluatePlan(model, plan);
  assert.ok(e.ok, `${strategy} on ${inst.name}: ${e.violations.slice(0, 3).join('; ')}`);
  assert.equal(plan.objective.revenue, e.kpis.revenue, `${strategy} reports the revenue the evaluator finds`);
  assert.ok(plan.bound!.revenue! >= e.kpis.revenue - 1e-9, `${strategy}: bound ${plan.bound!.revenue} below its own revenue ${e.kpis.revenue}`);
  assert.equal(plan.stats?.objective, 'revenue');
  return { plan, revenue: e.kpis.revenue };
}

/** Two jobs that each need the whole (single) node before the same deadline: only one can be on time. */
function competingJobs(): InstanceDoc {
  const job = (id: string, onTime: number, late: number) => ({
    id,
    releaseSlot: 0,
    deadlineSlot: 4,
    revenue: { onTime, late },
    stages: [{ id: 'map', tasks: 2, demand: { cpu: 2 }, durationSeconds: 40 }],
  });
  return {
    format: 'fallow.instance/v1',
    name: 'competing',
    horizon: { slots: 12, slotSeconds: 10 },
    metrics: ['cpu'],
    nodes: [{ id: 'n1', capacity: { cpu: 4 } }],
    // listed low first, so a list scheduler that ignores revenue runs the cheap job on time
    jobs: [job('cheap', 10, -8), job('dear', 50, -30), job('filler', 5, 1)],
  };
}

describe('revenue objective', () => {
  test('every strategy gives a feasible plan with a true objective.revenue and bound.revenue', async () => {
    for (const strategy of strategyNames()) {
      const heavy = strategy === 'exact' || strategy === 'auto';
      for (let seed = 1; seed <= (heavy ? 3 : 8); seed++) {
        const inst = randomInstance(seed, heavy ? { maxJobs: 3, maxNodes: 3, maxTasks: 3, maxSlots: 20 } : {});
        const { revenue } = await solveFor(inst, strategy, heavy ? undefined : 50);
        // the revenue-aware strategies never accept a plan that loses money: rejecting everything earns 0
        if (['ls', 'exact', 'auto', 'tps'].includes(strategy)) assert.ok(revenue >= 0, `${strategy} seed ${seed}: revenue ${revenue}`);
      }
    }
  });

  test('the revenue bound is never below the proven optimum, and exact, ls and auto find it on a handmade case', async () => {
    const inst = competingJobs();
    const exact = await solveFor(inst, 'exact');
    // dear on time (50), filler late afterwards (+1), cheap rejected (it would pay -8 late)
    assert.equal(exact.revenue, 51);
    assert.equal(exact.plan.optimal, true);
    assert.ok(revenueBound(loadInstance(inst)).revenue >= 51);
    assert.deepEqual(exact.plan.rejected, ['cheap']);
    for (const strategy of ['ls', 'auto']) assert.equal((await solveFor(inst, strategy)).revenue, 51, strategy);
    // the baselines run the cheap job first and the dear one late
    assert.ok((await solveFor(inst, 'fifo')).revenue < 51);
  });

  test('on small random instances exact is never beaten, and is optimal within its bound', async () => {
    for (let seed = 11; seed <= 16; seed++) {
      const inst = randomInstance(seed, { maxJobs: 4, maxNodes: 2, maxTasks: 3, maxSlots: 16 });
      const exact = await solveFor(inst, 'exact');
      for (const other of ['ls', 'tps', 'edf', 'fifo']) {
        const r = await solveFor(inst, other, other === 'ls' ? 200 : undefined);
        if (exact.plan.optimal) assert.ok(r.revenue <= exact.revenue + 1e-9, `seed ${seed}: ${other} ${r.revenue} beats the proven optimum ${exact.revenue}`);
      }
      if (exact.plan.optimal) assert.ok(Math.abs(exact.plan.bound!.revenue! - exact.revenue) < 1e-6);
    }
  });

  test('ls with the revenue objective earns at least what tps, edf and fifo earn on the paper platform', async () => {
    for (const seed of [1, 2, 3]) {
      const inst = tpsPaperInstance({ jobs: 30, seed });
      const ls = await solveFor(inst, 'ls', 100);
      for (const h of ['tps', 'edf', 'fifo']) {
        const r = await solveFor(inst, h);
        assert.ok(ls.revenue >= r.revenue, `seed ${seed}: ls ${ls.revenue} < ${h} ${r.revenue}`);
      }
    }
  });
});
