/**
 * The exact strategy (src/engine/strategies/exact): the time-indexed MILP proves hand-checked optima
 * (serialisation forced by capacity, a two-stage job, a job that must be rejected), its plans pass the
 * evaluator, its bound never exceeds a plan of the same accepted jobs, and it falls back to the
 * heuristic schedule when the model is too large. Solves that must reach a proof end by an iteration
 * limit (test/support/work-limit.ts), so that a busy machine gives the same plans as an idle one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newStopFlag, raiseStop } from '../../src/engine/budget/stop-flag';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance, Model, stageKey } from '../../src/engine/model/model';
import { toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { InstanceDoc, JobSpec, NodeSpec, PlanDoc } from '../../src/engine/model/types';
import { Schedule, better } from '../../src/engine/schedule/schedule';
import { solve } from '../../src/engine/solve';
import { registerStrategy } from '../../src/engine/strategies';
import { decodeSolution, encodeStart } from '../../src/engine/strategies/exact/decode';
import { makeExact } from '../../src/engine/strategies/exact/exact';
import { runHighs } from '../../src/engine/strategies/exact/highs-runner';
import { destructiveBound } from '../../src/engine/strategies/exact/destructive-bound';
import { buildMilp } from '../../src/engine/strategies/exact/model-builder';
import { propagate } from '../../src/engine/strategies/exact/propagate';
import { computeWindows } from '../../src/engine/strategies/exact/windows';
import { randomInstance } from '../support/random-instance';
import { milpOptimum, rcpspInstance } from '../support/rcpsp-instance';
import { BY_WORK, highsToTheEnd } from '../support/work-limit';

const SLOT = 60;

function instance(T: number, nodes: NodeSpec[], jobs: JobSpec[]): InstanceDoc {
  return { format: 'fallow.instance/v1', name: 'exact-test', horizon: { slots: T, slotSeconds: SLOT }, metrics: ['cpu'], nodes, jobs };
}
const node = (id: string, cpu: number): NodeSpec => ({ id, capacity: { cpu } });
/** A stage of `tasks` tasks lasting `slots` slots on every node. */
const stage = (id: string, tasks: number, slots: number, cpu: number, after?: string[]) => ({
  id,
  tasks,
  demand: { cpu },
  durationSeconds: slots * SLOT,
  ...(after ? { after } : {}),
});

async function exactPlan(inst: InstanceDoc): Promise<{ model: Model; plan: PlanDoc }> {
  const model = loadInstance(inst);
  const plan = await solve(model, { strategy: 'exact', seed: 7, ...BY_WORK });
  assert.deepEqual(evaluatePlan(model, plan).violations, []);
  assert.ok(plan.bound!.makespanSlots <= plan.objective.makespanSlots, 'bound <= makespan');
  return { model, plan };
}

const milp = (plan: PlanDoc) => (plan.stats as { milp: Record<string, unknown> }).milp;

/** Three single-task activities, any two of which overload the node (2 + 2 > 3): they must run one after another. */
const serial = instance(30, [node('n1', 3)], [{ id: 'p', stages: [stage('a', 1, 2, 2), stage('b', 1, 2, 2), stage('c', 1, 2, 2)] }]);

/** Six 2-slot map tasks on 2 x 2 cpus take two waves (ends at 4); the 3-slot reduce follows: 7. The engine's bounds say 5. */
const mapReduce = instance(40, [node('n1', 2), node('n2', 2)], [{ id: 'mr', stages: [stage('map', 6, 2, 1), stage('reduce', 1, 3, 2, ['map'])] }]);

/** One cpu for 10 slots: the 6-slot job alone, or the two 5-slot jobs (2 tasks). "huge" never fits. */
const choice = instance(
  10,
  [node('n1', 1)],
  [
    { id: 'A', stages: [stage('s', 1, 6, 1)] },
    { id: 'B', stages: [stage('s', 1, 5, 1)] },
    { id: 'C', stages: [stage('s', 1, 5, 1)] },
    { id: 'huge', stages: [stage('s', 1, 1, 5)] },
  ],
);

/** Three map-reduce jobs of 30-50 tasks on three unequal nodes: far from solved in seconds (LP bound ~ energy bound). */
const bulk: InstanceDoc = {
  ...instance(
    200,
    [
      { id: 'a', capacity: { cpu: 7, ram: 20 }, speed: 1 },
      { id: 'b', capacity: { cpu: 5, ram: 16 }, speed: 2 },
      { id: 'c', capacity: { cpu: 3, ram: 9 }, speed: 1.5 },
    ],
    [1, 2, 3].map((j) => ({
      id: `j${j}`,
      stages: [
        { id: 'map', tasks: 25 + 7 * j, demand: { cpu: 1, ram: 2 + (j % 2) }, work: (3 + j) * SLOT },
        { id: 'reduce', tasks: 2 + j, demand: { cpu: 2, ram: 3 }, work: (7 + 2 * j) * SLOT, after: ['map'] },
      ],
    })),
  ),
  metrics: ['cpu', 'ram'],
};

describe('exact strategy', () => {
  test('proves that capacity forces serialisation (makespan 6 > energy bound 4)', async () => {
    const { plan } = await exactPlan(serial);
    assert.equal(plan.objective.makespanSlots, 6);
    assert.equal(plan.bound!.makespanSlots, 6);
    assert.equal(plan.optimal, true);
  });

  test('proves the optimum of a two-stage job on two nodes (7, engine bound 5)', async () => {
    const { plan } = await exactPlan(mapReduce);
    assert.equal(plan.objective.scheduledTasks, 7);
    assert.equal(plan.objective.makespanSlots, 7);
    assert.equal(plan.bound!.makespanSlots, 7);
    assert.equal(plan.optimal, true);
  });

  test('rejects the right jobs and proves the task count (weighted objective)', async () => {
    const { plan } = await exactPlan(choice);
    assert.deepEqual([...plan.rejected].sort(), ['A', 'huge']);
    assert.equal(plan.objective.scheduledTasks, 2);
    assert.equal(plan.objective.makespanSlots, 10);
    assert.equal(plan.optimal, true);
    assert.equal(milp(plan).weighted, true);
  });

  test('the MILP alone (no warm start) finds the optimum, and decodes to a feasible schedule', async () => {
    for (const [inst, tasks, makespan] of [
      [choice, 2, 10],
      [mapReduce, 7, 7],
    ] as const) {
      const model = loadInstance(inst);
      const built = buildMilp(model, { horizon: model.T, weighted: true, makespanLower: 0, maxColumns: 1e5, maxNonzeros: 1e6, maxCliqueNonzeros: 1e5 });
      assert.ok(built.ok);
      const out = await runHighs(built.problem, highsToTheEnd({ mip_rel_gap: 0, mip_abs_gap: 0.999 }));
      assert.equal(out.status, 'optimal');
      const s = decodeSolution(model, built.layout, out.colValue!);
      assert.ok(s, 'decodes');
      assert.deepEqual(evaluatePlan(model, toPlanDoc(model, s, 'exact')).violations, []);
      assert.deepEqual([s.scheduledTasks(), s.makespan()], [tasks, makespan]);
      // With everything accepted the objective is C - W * tasks: the dual bound gives the makespan back.
      assert.equal(Math.round(out.dualBound! + built.layout.taskWeight * tasks), makespan);
    }
  });

  test('a MIP start round-trips through decoding', async () => {
    const model = loadInstance(mapReduce);
    const plan = await solve(model, { strategy: 'rffd', timeBudgetMs: 200, seed: 3 });
    const built = buildMilp(model, { horizon: model.T, weighted: true, makespanLower: 0, maxColumns: 1e5, maxNonzeros: 1e6, maxCliqueNonzeros: 1e5 });
    assert.ok(built.ok);
    const sched = loadPlanAsSchedule(model, plan);
    const x = encodeStart(model, built.layout, built.problem.numCols, sched);
    assert.ok(x, 'the heuristic schedule is inside the MILP');
    const back = decodeSolution(model, built.layout, x!);
    assert.ok(back);
    assert.deepEqual(toPlanDoc(model, back!, 'rffd').objective, plan.objective);
    assert.deepEqual(evaluatePlan(model, toPlanDoc(model, back!, 'rffd')).violations, []);
  });

  test('falls back to the local search for the rest of the budget when the model is too large', async () => {
    registerStrategy(makeExact({ maxColumns: 3, maxNonzeros: 3, maxCliqueNonzeros: 0 }, 'exact-tiny-limit'));
    // Not every job fits, so neither the engine's bounds nor propagation can settle it before the MILP.
    const model = loadInstance(choice);
    const plan = await solve(model, { strategy: 'exact-tiny-limit', ...BY_WORK });
    assert.deepEqual(evaluatePlan(model, plan).violations, []);
    assert.match(String(milp(plan).status), /^skipped: model too large .*; the local search used the budget$/);
    assert.ok(plan.objective.scheduledTasks >= 1);
  });

  test('an abort stops the MILP: the incumbent comes back shortly after', async () => {
    const model = loadInstance(bulk);
    const stop = newStopFlag();
    // After the ~1 s warm-start phase (10% of the budget, at most 1 s), while HiGHS is busy. The warm start
    // is synchronous, so on a busy machine the timer fires later, when exact first waits: on HiGHS, still.
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = Date.now();
      raiseStop(stop);
    }, 1300);
    const plan = await solve(model, { strategy: 'exact', timeBudgetMs: 20_000, stop });
    const after = Date.now() - abortedAt;
    // The status says the abort, not the budget, stopped HiGHS; "shortly" is measured from the abort itself.
    assert.match(String(milp(plan).status), /interrupted|killed|aborted/);
    assert.ok(abortedAt > 0 && after < 5000, `came back ${after} ms after the abort`);
    assert.deepEqual(evaluatePlan(model, plan).violations, []);
    assert.equal(plan.objective.scheduledTasks, model.nTasks);
  });

  test('random instances: bound never above a plan of the same jobs, optimality never beaten by rffd', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const inst = randomInstance(seed, { maxSlots: 20, maxJobs: 3, maxNodes: 3, maxTasks: 3 });
      const { model, plan } = await exactPlan(inst);
      const other = await solve(model, { strategy: 'rffd', timeBudgetMs: 150, seed });
      const mine = plan.objective;
      const theirs = other.objective;
      if (plan.optimal) assert.ok(!better(theirs.scheduledTasks, theirs.makespanSlots, mine.scheduledTasks, mine.makespanSlots), `seed ${seed}`);
      if ([...other.rejected].sort().join() === [...plan.rejected].sort().join())
        assert.ok(plan.bound!.makespanSlots <= theirs.makespanSlots, `seed ${seed}: bound above another plan of the same jobs`);
    }
  });
});

/**
 * An RCPSP-shaped instance (one node, single-task stages, two resources, random precedence inside each
 * of two jobs): the shape propagate.ts reasons about.
 */
describe('exact: propagation and destructive bounds (RCPSP shape)', () => {
  test('three pairwise-clashing activities: shaving refutes every makespan below 6, the rules alone do not', () => {
    const model = loadInstance(serial);
    // Makespan 4 leaves each activity the window [0, 2]: no compulsory part, no forced order, energy 12 <= 12.
    assert.equal(destructiveBound(model, 0, 10, () => false), 4);
    assert.equal(destructiveBound(model, 0, 10, () => false, Infinity), 6);
  });

  test('random instances: propagation and shaving never refute the optimum, and exact proves it', async () => {
    let tightened = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const model = loadInstance(rcpspInstance(seed));
      const opt = await milpOptimum(model);
      const lower = destructiveBound(model, 0, opt + 2, () => false, Infinity);
      assert.ok(lower <= opt, `seed ${seed}: destructive bound ${lower} above the optimum ${opt}`);
      if (lower === opt) tightened++;
      const w = computeWindows(model, opt);
      assert.ok(propagate(model, w, Infinity), `seed ${seed}: propagation refutes the optimum ${opt}`);
      const plan = await solve(model, { strategy: 'exact', seed, ...BY_WORK });
      assert.deepEqual(evaluatePlan(model, plan).violations, []);
      assert.equal(plan.objective.makespanSlots, opt, `seed ${seed}`);
      assert.equal(plan.optimal, true, `seed ${seed}`);
      assert.equal(plan.bound!.makespanSlots, opt, `seed ${seed}`);
    }
    // Not a tautology: shaving settles most of these small instances on its own.
    assert.ok(tightened >= 4, `destructive bound met the optimum on only ${tightened} of 8`);
  });

  test('random three-job instances: energetic reasoning and shaving never refute the optimum, and often prove it', async () => {
    let tightened = 0;
    for (let seed = 21; seed <= 30; seed++) {
      const model = loadInstance(rcpspInstance(seed, 3));
      const opt = await milpOptimum(model);
      assert.ok(propagate(model, computeWindows(model, opt)), `seed ${seed}: propagation refutes the optimum ${opt}`);
      assert.ok(propagate(model, computeWindows(model, opt), Infinity), `seed ${seed}: shaving refutes the optimum ${opt}`);
      const lower = destructiveBound(model, 0, opt + 2, () => false, Infinity);
      assert.ok(lower <= opt, `seed ${seed}: destructive bound ${lower} above the optimum ${opt}`);
      if (lower === opt) tightened++;
    }
    // Not a tautology: shaving with energetic reasoning settles several of these on its own.
    assert.ok(tightened >= 3, `destructive bound met the optimum on only ${tightened} of 10`);
  });

  test('the windows left by propagation still hold an optimal schedule (the MILP below the incumbent finds it)', async () => {
    for (let seed = 11; seed <= 14; seed++) {
      const model = loadInstance(rcpspInstance(seed));
      const opt = await milpOptimum(model);
      // All jobs in, horizon at the optimum, windows propagated and shaved: still feasible with C = opt.
      const built = buildMilp(model, { horizon: opt, weighted: false, makespanLower: 0, maxColumns: 1e5, maxNonzeros: 1e6, maxCliqueNonzeros: 1e5, shaveUntil: Infinity });
      assert.ok(built.ok, `seed ${seed}`);
      const out = await runHighs(built.problem, highsToTheEnd({ mip_rel_gap: 0, mip_abs_gap: 0.999 }));
      assert.equal(out.status, 'optimal', `seed ${seed}`);
      const s = decodeSolution(model, built.layout, out.colValue!);
      assert.ok(s, `seed ${seed}: decodes`);
      assert.deepEqual(evaluatePlan(model, toPlanDoc(model, s!, 'exact')).violations, []);
      assert.equal(s!.makespan(), opt);
      // One slot less is refuted, by the windows or by the MILP.
      const below = buildMilp(model, { horizon: opt - 1, weighted: false, makespanLower: 0, maxColumns: 1e5, maxNonzeros: 1e6, maxCliqueNonzeros: 1e5, shaveUntil: Infinity });
      if (below.ok) {
        const o = await runHighs(below.problem, highsToTheEnd());
        assert.equal(o.status, 'infeasible', `seed ${seed}`);
      }
    }
  });
});

/** The schedule a plan describes (the inverse of toPlanDoc). */
function loadPlanAsSchedule(model: Model, plan: PlanDoc): Schedule {
  const s = new Schedule(model);
  model.jobs.forEach((job, j) => (s.accepted[j] = plan.rejected.includes(job.id) ? 0 : 1));
  for (const a of plan.assignments) {
    const i = model.stages[model.stageIndex.get(stageKey(a.job, a.stage))!].firstTask + a.task;
    s.node[i] = model.nodeIndex.get(a.node)!;
    s.start[i] = a.start;
  }
  return s;
}
