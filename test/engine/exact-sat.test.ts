/**
 * The SAT stage of `exact` (src/engine/strategies/exact/sat): the encoding's data, the Z3 search on
 * its worker thread against the MILP's optima, the proven flag auto's partner reads, and aborts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance, Model, stageKey } from '../../src/engine/model/model';
import { toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { InstanceDoc } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';
import { newStopFlag } from '../../src/engine/budget/stop-flag';
import { encodeSatProblem } from '../../src/engine/strategies/exact/sat/encoding';
import { runSat } from '../../src/engine/strategies/exact/sat/sat-runner';
import { rcpspSchedule } from '../../src/engine/strategies/exact/sat/sat-stage';
import { computeWindows } from '../../src/engine/strategies/exact/windows';
import { milpOptimum, rcpspInstance } from '../support/rcpsp-instance';
import { BACKSTOP_MS, BY_WORK } from '../support/work-limit';

const SLOT = 60;

/** One node, one project of single-task activities with the given cpu demands, durations (slots) and predecessors. */
function project(cap: number, acts: { cpu: number; slots: number; after?: string[] }[], nodeExtra: Record<string, unknown> = {}): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'sat-test',
    horizon: { slots: 40, slotSeconds: SLOT },
    metrics: ['cpu'],
    nodes: [{ id: 'n1', capacity: { cpu: cap }, ...nodeExtra }],
    jobs: [{ id: 'p', stages: acts.map((a, i) => ({ id: `a${i}`, tasks: 1, demand: { cpu: a.cpu }, durationSeconds: a.slots * SLOT, ...(a.after ? { after: a.after } : {}) })) }],
  };
}

/** The SAT search from a horizon every schedule fits (the sum of durations), to the end (the clock only a backstop). */
async function satFromTop(model: Model, known = Infinity, stopWhenOptimal?: Int32Array, maxConflicts?: number) {
  const top = Math.min(model.T, model.stages.reduce((a, s) => a + s.dur[0], 0));
  const problem = encodeSatProblem(model, computeWindows(model, top));
  assert.ok(problem, 'encodable');
  const found: { starts: number[]; makespan: number }[] = [];
  const out = await runSat(problem, {
    until: Date.now() + BACKSTOP_MS,
    hardStopAt: Date.now() + BACKSTOP_MS + 1000,
    knownMakespan: known,
    stopWhenOptimal,
    maxConflicts,
    onSchedule: (starts, makespan) => found.push({ starts, makespan }),
  });
  return { out, found };
}

describe('exact: SAT encoding', () => {
  test('applies to the RCPSP shape only, scales fractional demands to integers and sums tails along chains', () => {
    const chain = loadInstance(project(1, [{ cpu: 0.5, slots: 2 }, { cpu: 0.25, slots: 3, after: ['a0'] }, { cpu: 0.75, slots: 1 }]));
    const p = encodeSatProblem(chain, computeWindows(chain, 10))!;
    // The model orders stages topologically: look them up by id.
    const [a0, a1, a2] = ['a0', 'a1', 'a2'].map((id) => chain.stageIndex.get(stageKey('p', id))!);
    assert.deepEqual([a0, a1, a2].map((g) => p.rows[0].demand[g]), [50, 25, 75]);
    assert.equal(p.rows[0].cap[0], 100);
    assert.deepEqual([a0, a1, a2].map((g) => p.tail[g]), [5, 3, 1]);
    assert.deepEqual(p.starts[a1], [2, 3, 4, 5, 6, 7]);
    // A task limit on the node becomes one more row with demand 1 per activity.
    const limited = loadInstance(project(1, [{ cpu: 0.5, slots: 2 }, { cpu: 0.5, slots: 2 }], { maxTasks: 1 }));
    assert.deepEqual(encodeSatProblem(limited, computeWindows(limited, 10))!.rows[1], { demand: [1, 1], cap: new Array(10).fill(1) });
    // Two tasks in a stage (or two nodes) is not the RCPSP shape.
    const multi = loadInstance({ ...project(2, [{ cpu: 1, slots: 2 }]), jobs: [{ id: 'p', stages: [{ id: 'a', tasks: 2, demand: { cpu: 1 }, durationSeconds: 2 * SLOT }] }] });
    assert.equal(encodeSatProblem(multi, computeWindows(multi, 10)), null);
    // Demands finer than 6 decimals cannot be scaled exactly.
    const fine = loadInstance(project(1, [{ cpu: 1 / 3, slots: 2 }]));
    assert.equal(encodeSatProblem(fine, computeWindows(fine, 10)), null);
  });
});

describe('exact: SAT search (Z3 on a worker thread)', () => {
  test('random instances: it ends at the MILP optimum, every schedule it reports is feasible, and it refutes one slot less', async () => {
    for (const [seed, jobs] of [[1, 2], [2, 2], [21, 3], [22, 3], [23, 3]]) {
      const model = loadInstance(rcpspInstance(seed, jobs));
      const opt = await milpOptimum(model);
      const { out, found } = await satFromTop(model);
      assert.equal(out.status, 'unsat', `seed ${seed}: ${out.detail}`);
      assert.ok(found.length > 0, `seed ${seed}: a schedule`);
      for (const f of found) {
        const s = rcpspSchedule(model, f.starts);
        assert.deepEqual(evaluatePlan(model, toPlanDoc(model, s, 'exact')).violations, [], `seed ${seed}`);
        assert.equal(s.makespan(), f.makespan);
      }
      assert.equal(out.best!.makespan, opt, `seed ${seed}`);
      assert.equal(out.refuted, opt - 1, `seed ${seed}`);
    }
  });

  test('fractional demands: three activities of 0.5 on capacity 1 take two rounds, not one', async () => {
    const model = loadInstance(project(1, [{ cpu: 0.5, slots: 3 }, { cpu: 0.5, slots: 3 }, { cpu: 0.5, slots: 3 }]));
    const { out } = await satFromTop(model);
    assert.equal(out.best!.makespan, 6);
    assert.equal(out.refuted, 5);
  });

  test('raises the proven flag when it refutes one below the best known makespan, and not when a limit stops it', async () => {
    const model = loadInstance(rcpspInstance(3, 3));
    const opt = await milpOptimum(model);
    const flag = newStopFlag();
    await satFromTop(model, opt + 5, flag);
    assert.equal(Atomics.load(flag, 0), 1, 'proven: the search reached the optimum itself and refuted one less');
    const idle = newStopFlag();
    const problem = encodeSatProblem(model, computeWindows(model, opt + 3))!;
    const out = await runSat(problem, { until: Date.now(), hardStopAt: Date.now() + 30_000, knownMakespan: opt + 4, stopWhenOptimal: idle });
    assert.equal(out.status, 'unknown');
    assert.equal(Atomics.load(idle, 0), 0);
  });

  test('a conflict limit ends the search by the work done: unknown, with the same schedules on every run', async () => {
    // Seed 31 needs far more than 20 conflicts (exact proves its optimum through the SAT stage, below).
    const model = loadInstance(rcpspInstance(31, 3));
    const flag = newStopFlag();
    const first = await satFromTop(model, Infinity, flag, 20);
    assert.equal(first.out.status, 'unknown');
    assert.match(first.out.detail, /max\.conflicts/);
    assert.equal(first.out.refuted, null);
    assert.equal(Atomics.load(flag, 0), 0, 'nothing proven');
    const again = await satFromTop(model, Infinity, undefined, 20);
    assert.deepEqual([again.out.status, again.found], [first.out.status, first.found]);
  });

  test('an abort terminates the thread at once, without a verdict', async () => {
    const model = loadInstance(rcpspInstance(5, 3));
    const problem = encodeSatProblem(model, computeWindows(model, 40))!;
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 50);
    const began = Date.now();
    const out = await runSat(problem, { until: Date.now() + 30_000, hardStopAt: Date.now() + 30_000, knownMakespan: Infinity, signal: ctrl.signal });
    assert.equal(out.status, 'killed');
    assert.equal(out.refuted, null);
    assert.ok(Date.now() - began < 5_000, 'came back long before its limits');
  });

  test('repeated searches do not grow the memory of the process: each thread takes its Z3 heap with it', async () => {
    const model = loadInstance(rcpspInstance(2, 2));
    await satFromTop(model);
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 6; i++) assert.equal((await satFromTop(model)).out.status, 'unsat');
    const grown = (process.memoryUsage().rss - before) / 2 ** 20;
    // One Z3 instance holds 100-200 MB: six kept alive would add far more than this.
    assert.ok(grown < 250, `RSS grew by ${grown.toFixed(0)} MB over 6 searches`);
  });

  test('exact proves the optimum through the SAT stage and reports it in the plan stats', async () => {
    // Where propagation alone does not settle an instance, the SAT stage must: every plan is proven.
    let sawSat = 0;
    for (let seed = 31; seed <= 33; seed++) {
      const model = loadInstance(rcpspInstance(seed, 3));
      const opt = await milpOptimum(model);
      // An iteration limit, not a budget: the SAT stage runs to its verdict however busy the machine is.
      const plan = await solve(model, { strategy: 'exact', seed, ...BY_WORK });
      assert.deepEqual(evaluatePlan(model, plan).violations, []);
      assert.equal(plan.objective.makespanSlots, opt, `seed ${seed}`);
      assert.equal(plan.optimal, true, `seed ${seed}`);
      const sat = (plan.stats as { sat?: { status: string } }).sat;
      if (sat) {
        sawSat++;
        assert.equal(sat.status, 'unsat', `seed ${seed}`);
      }
    }
    // Not vacuous: propagation alone settles many small instances, but not all of these.
    assert.ok(sawSat >= 1, `the SAT stage ran on ${sawSat} of 3`);
  });
});
