/**
 * solve() with every registered strategy on random instances: the plan is feasible (for the evaluator and,
 * when ../shared is present, for check-plan.py), its objective, bound, gap, optimality flag and placement
 * are consistent, and a solve stopped by maxIterations is reproducible for its seed. Every solve ends by
 * its iteration limit (the clock is only a backstop far above what it needs), so every one must reproduce:
 * none may be excused as cut short by the clock, which on a busy machine could excuse any of them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { makespanBound } from '../../src/engine/bounds/makespan';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { ValidationError } from '../../src/engine/model/errors';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';
import { Progress } from '../../src/engine/contracts/strategy';
import { strategyNames } from '../../src/engine/strategies';
import { checkerAvailable, checkPlans, SKIP_MESSAGE } from '../support/check-plan';
import { assertProperty } from '../support/fixtures';
import { instanceArb, InstanceArbOptions, objectiveOf } from '../support/random-instance';
import { BACKSTOP_MS } from '../support/work-limit';

const SEED = 0x50_1e;
const MAX_ITERATIONS = 3;

/**
 * Strategies that start a MILP solver on a worker thread cost ~0.2-2 s a solve even on tiny instances:
 * they get fewer and smaller ones. Anything else registered gets the full treatment.
 */
const HEAVY: Record<string, { runs: number; instances: InstanceArbOptions }> = {
  exact: { runs: 5, instances: { maxSlots: 20, maxJobs: 3, maxNodes: 3, maxTasks: 3 } },
  auto: { runs: 5, instances: { maxSlots: 20, maxJobs: 3, maxNodes: 3, maxTasks: 3 } },
};
const LIGHT = { runs: 30, instances: {} as InstanceArbOptions };

/** Everything but the free-form stats. */
function comparable(plan: PlanDoc) {
  const { stats: _stats, ...rest } = plan;
  return rest;
}

/** Checks one plan of `name` for `inst` and returns it; throws on the first inconsistency. */
function checkPlanShape(name: string, inst: InstanceDoc, plan: PlanDoc, progress: Progress[]) {
  const model = loadInstance(inst);
  const e = evaluatePlan(model, plan);
  assert.deepEqual(e.violations, [], 'the evaluator accepts the plan');
  assert.equal(plan.format, 'fallow.plan/v1');
  assert.equal(plan.strategy, name);
  assert.equal(plan.instance, inst.name);

  // objective, from the JSON alone
  const objective = objectiveOf(inst, plan);
  assert.deepEqual(plan.objective, objective);
  const rejected = new Set(plan.rejected);
  assert.equal(rejected.size, plan.rejected.length, 'no job rejected twice');
  assert.equal(objective.scheduledTasks, inst.jobs.filter((j) => !rejected.has(j.id)).reduce((n, j) => n + j.stages.reduce((m, s) => m + s.tasks, 0), 0));
  const makespan = objective.makespanSlots;

  // bound, gap, optimal
  const bound = plan.bound?.makespanSlots;
  assert.ok(Number.isInteger(bound), `bound ${bound}`);
  assert.ok(bound! >= 0 && bound! <= makespan, `bound ${bound} outside [0, makespan ${makespan}]`);
  if (objective.scheduledTasks === 0) assert.equal(bound, 0);
  const accepted = Uint8Array.from(model.jobs.map((j) => (rejected.has(j.id) ? 0 : 1)));
  assert.ok(bound! >= Math.min(makespanBound(model, accepted).makespanSlots, makespan), 'at least the engine bound for the accepted jobs');
  assert.equal(plan.gap, bound! > 0 ? (makespan - bound!) / bound! : 0);
  // (With rejections the makespan bound does not prove the task count; only the strategy's own claim can.)
  if (plan.optimal) assert.equal(bound, makespan, 'optimal only when the bound meets the makespan');
  if (rejected.size === 0 && bound === makespan) assert.equal(plan.optimal, true, 'every job in at the bound is optimal');
  if (name === 'rffd') assert.equal(plan.optimal, rejected.size === 0 && bound === makespan, 'rffd proves nothing itself');

  // placement: `replication` distinct nodes per scheduled task (capped at the node count), its own node first;
  // a strategy that places chunks itself (cuckoo: WRR, Alg. 2) says so in stats and may run tasks remotely
  const ownPlacement = plan.stats?.placement === 'wrr';
  const placement = plan.placement ?? [];
  assert.equal(placement.length, plan.assignments.length);
  const byTask = new Map(placement.map((p) => [`${p.job}/${p.stage}/${p.task}`, p.nodes]));
  const nodeIds = new Set(inst.nodes.map((n) => n.id));
  for (const a of plan.assignments) {
    const nodes = byTask.get(`${a.job}/${a.stage}/${a.task}`);
    assert.ok(nodes, `no placement for ${a.job}/${a.stage}/${a.task}`);
    const job = inst.jobs.find((j) => j.id === a.job)!;
    assert.equal(nodes.length, Math.min(job.replication ?? 3, inst.nodes.length));
    if (!ownPlacement) assert.equal(nodes[0], a.node, 'the first replica is on the node that runs the task');
    assert.equal(new Set(nodes).size, nodes.length, 'replicas on distinct nodes');
    for (const n of nodes) assert.ok(nodeIds.has(n), `unknown node ${n}`);
  }
  if (!ownPlacement) assert.equal(e.kpis.remoteTasks, 0);
  else assert.equal(e.kpis.remoteTasks, plan.assignments.filter((a) => !byTask.get(`${a.job}/${a.stage}/${a.task}`)!.includes(a.node)).length);

  // progress: the last report is the plan
  assert.ok(progress.length >= 1, 'onProgress is called');
  const last = progress[progress.length - 1];
  assert.deepEqual([last.strategy, last.scheduledTasks, last.makespanSlots], [name, objective.scheduledTasks, makespan]);
}

assert.ok(strategyNames().includes('rffd'));

for (const name of strategyNames()) {
  describe(`solve({ strategy: "${name}" })`, () => {
    const cfg = HEAVY[name] ?? LIGHT;
    const solved: { instance: InstanceDoc; plan: PlanDoc }[] = [];

    test(`plans are feasible, consistent and reproducible under maxIterations (${cfg.runs} random instances)`, async () => {
      await assertProperty(
        fc.asyncProperty(instanceArb(cfg.instances), fc.integer({ min: 1, max: 1 << 30 }), async (inst, seed) => {
          const model = loadInstance(inst);
          const options = { strategy: name, seed, maxIterations: MAX_ITERATIONS, timeBudgetMs: BACKSTOP_MS };
          const progress: Progress[] = [];
          const plan = await solve(model, { ...options, onProgress: (p) => progress.push(p) });
          checkPlanShape(name, inst, plan, progress);
          solved.push({ instance: inst, plan });
          const again = await solve(loadInstance(inst), options);
          assert.deepEqual(comparable(again), comparable(plan), 'same seed and iteration limit, same plan');
        }),
        { seed: SEED, numRuns: cfg.runs },
      );
    });

    test('check-plan.py accepts every plan', (t) => {
      if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
      assert.ok(solved.length >= cfg.runs);
      checkPlans(solved).forEach((py, i) => {
        assert.equal(py.exception, undefined);
        assert.deepEqual(py.errors, [], `check-plan.py rejects the plan of instance ${JSON.stringify(solved[i].instance)}`);
        assert.equal(py.feasible, true);
        assert.equal(py.scheduledTasks, solved[i].plan.objective.scheduledTasks);
        assert.equal(py.makespanSlots, solved[i].plan.objective.makespanSlots);
      });
    });
  });
}

describe('solve options', () => {
  const inst: InstanceDoc = {
    format: 'fallow.instance/v1',
    name: 'opts',
    horizon: { slots: 10, slotSeconds: 60 },
    metrics: ['cpu'],
    nodes: [{ id: 'n', capacity: { cpu: 2 } }],
    jobs: [{ id: 'j', stages: [{ id: 'a', tasks: 4, demand: { cpu: 1 }, durationSeconds: 120 }] }],
  };

  test('an unknown strategy is a ValidationError naming the strategies there are', async () => {
    await assert.rejects(solve(loadInstance(inst), { strategy: 'magic' }), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.equal(e.issues[0].path, 'strategy');
      assert.match(e.issues[0].message, /^unknown strategy "magic" \(one of .*rffd.*\)$/);
      return true;
    });
  });

  test('the seed is recorded; a plan at the energy bound is optimal', async () => {
    const model = loadInstance(inst);
    for (const seed of [1, 2, 3]) {
      const plan = await solve(model, { strategy: 'rffd', seed, maxIterations: 1 });
      assert.ok(evaluatePlan(model, plan).ok);
      assert.equal(plan.stats?.seed, seed);
      assert.deepEqual(plan.objective, { scheduledTasks: 4, makespanSlots: 4 });
      assert.deepEqual([plan.bound?.makespanSlots, plan.optimal, plan.gap], [4, true, 0], 'energy: 4 tasks * 2 slots * 1 cpu / 2 cpu');
    }
  });
});
