/**
 * The local search (ls) with its activity-list intensification phase: reaches PSPLIB optima the
 * move-based search alone missed, stays reproducible for a seed under an iteration limit that covers
 * list phases, trades a big job for two small ones, finds a job set both greedy orders miss (job-set
 * phase), and the list and job-set phases never return a worse or infeasible schedule than their start.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { InstanceDoc } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { solve } from '../../src/engine/solve';
import { rffdOnce } from '../../src/engine/lists/job-orders';
import { ListSearch } from '../../src/engine/strategies/ls/list-search';
import { JobSetSearch } from '../../src/engine/strategies/ls/job-set-search';
import { subsetSearch } from '../../src/engine/job-sets/subset-search';
import { Schedule } from '../../src/engine/schedule/schedule';
import { Decoder } from '../../src/engine/lists/decoder';
import { REPO_ROOT } from '../support/check-plan';
import { randomInstance } from '../support/random-instance';
import { bigOrTwoSmall, greedyJobSetsMissTheBest } from '../support/job-set-instance';

const SHARED = process.env.FALLOW_SHARED ?? join(REPO_ROOT, '..', 'shared');
const sharedInstance = (name: string) => [join(SHARED, 'instances', name)].find(existsSync);

describe('ls', () => {
  it('reaches the optimum of PSPLIB j3037_5 (80) within 30,000 iterations', async (t) => {
    // The move-based search alone ended at 82 even with 10 s; the list phase finds 80.
    const file = sharedInstance('psplib-j3037_5.json');
    if (!file) return t.skip('../shared/instances/psplib-j3037_5.json not found');
    const model = loadInstance(JSON.parse(readFileSync(file, 'utf8')) as InstanceDoc);
    const plan = await solve(model, { strategy: 'ls', maxIterations: 30000, timeBudgetMs: 60000, seed: 1 });
    assert.equal(plan.objective.scheduledTasks, 30);
    assert.equal(plan.objective.makespanSlots, 80);
    assert.ok(evaluatePlan(model, plan).ok);
  });

  it('is reproducible for a seed when the iteration limit stops it, list phases included', async () => {
    const model = loadInstance(randomInstance(11, { maxJobs: 4 }));
    const run = () => solve(model, { strategy: 'ls', maxIterations: 45000, timeBudgetMs: 60000, seed: 5 });
    const a = await run();
    const b = await run();
    assert.deepEqual(a.assignments, b.assignments);
    assert.deepEqual(a.rejected, b.rejected);
    assert.equal(a.stats?.iterations, b.stats?.iterations);
    if (a.objective.scheduledTasks < model.nTasks || a.objective.makespanSlots > (a.bound?.makespanSlots ?? 0))
      assert.ok((a.stats?.listPhases as number) >= 1, 'the limit leaves room for a list phase unless the plan is optimal early');
    assert.ok(evaluatePlan(model, a).ok);
  });

  it('rejects the big job to schedule the two small ones', async () => {
    const model = loadInstance(bigOrTwoSmall('ls-big-or-two-small'));
    const plan = await solve(model, { strategy: 'ls', maxIterations: 30000, timeBudgetMs: 60000, seed: 1 });
    assert.equal(plan.objective.scheduledTasks, 2);
    assert.deepEqual(plan.rejected, ['big']);
  });

  it('finds the best job set where both greedy job orders miss it, before any list phase', async () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    // 10,000 iterations: too few for the move search to stall into a list phase, whose acceptance
    // mutation could also find the set; the job-set phase finds it in its first few hundred orders.
    const run = () => solve(model, { strategy: 'ls', maxIterations: 10000, timeBudgetMs: 60000, seed: 1 });
    const plan = await run();
    assert.equal(plan.objective.scheduledTasks, 6);
    assert.deepEqual([...plan.rejected].sort(), ['long', 'pair']);
    assert.equal(plan.stats?.listPhases, 0);
    assert.ok((plan.stats?.jobSetPhases as number) >= 1);
    assert.ok(evaluatePlan(model, plan).ok);
    // The job-set phase's share is of the iterations under a limit: the run is reproducible.
    const again = await run();
    assert.deepEqual(again.assignments, plan.assignments);
    assert.equal(again.stats?.iterations, plan.stats?.iterations);
  });

  it('job-set phase: never worse than its seed, feasible, within its decode limit', () => {
    for (const seed of [1, 2, 3]) {
      const model = loadInstance(randomInstance(seed, { maxJobs: 6 }));
      const rng = new Random(seed);
      const start = rffdOnce(model, rng);
      const search = new JobSetSearch(model, rng);
      search.seed(start);
      const used = search.run({ stallDecodes: 100, maxDecodes: 500, stop: () => false });
      assert.ok(used <= 500, `decodes ${used}`);
      const best = search.best;
      assert.ok(best.tasks >= start.scheduledTasks(), `${best.tasks} < ${start.scheduledTasks()}`);
      const check = evaluatePlan(model, toPlanDoc(model, best.sched, 'ls'));
      assert.ok(check.ok, check.violations.slice(0, 3).join('; '));
    }
  });

  it('subset search: from a greedy set it reaches the best set, and proves nothing better is left', () => {
    const model = loadInstance(greedyJobSetsMissTheBest());
    // The incumbent runs `long` and `pair` (3 tasks): the set longest-first gives.
    const incumbent = new Schedule(model);
    const skip = Uint8Array.from(model.jobs, (j) => (j.id === 'long' || j.id === 'pair' ? 0 : 1));
    new Decoder(model).decode(Int32Array.from({ length: model.nTasks }, (_, i) => i), skip, null, incumbent);
    assert.equal(incumbent.scheduledTasks(), 3);
    const r = subsetSearch(model, incumbent, new Random(1), { maxSteps: 1000, stop: () => false, stalled: () => false });
    assert.equal(r.best.scheduledTasks(), 6);
    assert.deepEqual(model.jobs.filter((_, j) => r.best.accepted[j]).map((j) => j.id), ['triple1', 'triple2']);
    // 7+ tasks need long (1) with both triples, or the pair with both: the energy bound refutes both sets.
    assert.equal(r.complete, true);
    assert.ok(r.boundChecks > 0 && r.decodes > 0);
    assert.ok(evaluatePlan(model, toPlanDoc(model, r.best, 'ls')).ok);
  });

  it('subset search: never worse than its incumbent, feasible, and within its step limit', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const model = loadInstance(randomInstance(seed, { maxJobs: 6 }));
      const rng = new Random(seed);
      const start = rffdOnce(model, rng);
      const r = subsetSearch(model, start, rng, { maxSteps: 40, stop: () => false, stalled: () => false });
      assert.ok(r.steps <= 40, `steps ${r.steps}`);
      assert.ok(r.best.scheduledTasks() >= start.scheduledTasks());
      const check = evaluatePlan(model, toPlanDoc(model, r.best, 'ls'));
      assert.ok(check.ok, check.violations.slice(0, 3).join('; '));
    }
  });

  it('list phase: its best is feasible and never worse than the adopted schedule', () => {
    for (const seed of [1, 2, 3]) {
      const model = loadInstance(randomInstance(seed, { maxJobs: 5 }));
      const rng = new Random(seed);
      const start = rffdOnce(model, rng);
      const search = new ListSearch(model, rng);
      search.adopt(start);
      const used = search.run({
        stallDecodes: 200,
        maxDecodes: 2000,
        stop: () => false,
        bestTasks: start.scheduledTasks(),
        bestMakespan: start.makespan(),
        optimal: () => false,
      });
      assert.ok(used > 0 && used <= 2000 + 3, `decodes ${used}`);
      const best = search.best;
      assert.ok(best.tasks > start.scheduledTasks() || (best.tasks === start.scheduledTasks() && best.makespan <= start.makespan()));
      const check = evaluatePlan(model, toPlanDoc(model, best.sched, 'ls'));
      assert.ok(check.ok, check.violations.slice(0, 3).join('; '));
    }
  });
});
