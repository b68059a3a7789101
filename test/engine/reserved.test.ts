/**
 * Reserved capacity (docs/FORMAT.md, Reserved capacity; issue 37's first step): what committed plans of other
 * batches hold comes off what a plan may use, per node, metric and slot, and off its task slots. The evaluator
 * checks it as check-plan.py does, validation refuses a malformed `reserved` naming each field, and every
 * registered strategy plans around it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { ValidationError } from '../../src/engine/model/errors';
import { loadInstance } from '../../src/engine/model/model';
import type { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { solve } from '../../src/engine/solve';
import { strategyNames } from '../../src/engine/strategies';
import { checkerAvailable, checkPlans, SKIP_MESSAGE } from '../support/check-plan';
import { plausiblePlan, randomInstance } from '../support/random-instance';
import { BACKSTOP_MS } from '../support/work-limit';

/** One node (4 cpu, 2 task slots), one job of two 1-slot tasks of 2 cpu each, 4 slots. */
function small(reserved?: InstanceDoc['reserved']): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'reserved-small',
    horizon: { slots: 4, slotSeconds: 60 },
    metrics: ['cpu'],
    nodes: [{ id: 'n1', capacity: { cpu: 4 }, maxTasks: 2 }],
    jobs: [{ id: 'j1', stages: [{ id: 's', tasks: 2, durationSeconds: 60, demand: { cpu: 2 } }] }],
    ...(reserved ? { reserved } : {}),
  };
}

function planAt(starts: number[]): PlanDoc {
  return {
    format: 'fallow.plan/v1',
    instance: 'reserved-small',
    strategy: 'hand',
    assignments: starts.map((start, task) => ({ job: 'j1', stage: 's', task, node: 'n1', start })),
    rejected: [],
    objective: { scheduledTasks: starts.length, makespanSlots: Math.max(...starts) + 1 },
  };
}

/** A copy of `inst` whose nodes hold random reservations: some metrics, some slots, task counts up to maxTasks. */
function withReserved(inst: InstanceDoc, seed: number): InstanceDoc {
  const rng = new Random(seed);
  const T = inst.horizon.slots;
  const reserved: NonNullable<InstanceDoc['reserved']> = {};
  for (const n of inst.nodes) {
    if (rng.next() < 0.25) continue;
    const per: Record<string, number[]> = {};
    for (const m of inst.metrics) {
      const cap = n.capacity[m] ?? 0;
      if (rng.next() < 0.7) per[m] = Array.from({ length: rng.int(T + 1) }, () => (rng.next() < 0.4 ? 0 : cap * 0.9 * rng.next()));
    }
    if (n.maxTasks !== undefined && rng.next() < 0.7) per.tasks = Array.from({ length: T }, () => rng.int(n.maxTasks! + 1));
    reserved[n.id] = per;
  }
  return { ...inst, reserved };
}

describe('reserved capacity: the evaluator', () => {
  test('reserved amounts come off what a plan may use, slot by slot', () => {
    const model = loadInstance(small({ n1: { cpu: [2, 2] } }));
    // Slots 0-1 leave 2 cpu: one task there, the other at slot 2, is fine; both at slot 0 is not.
    assert.deepEqual(evaluatePlan(model, planAt([0, 2])).violations, []);
    const both = evaluatePlan(model, planAt([0, 0]));
    assert.equal(both.ok, false);
    assert.match(both.violations.join('\n'), /node "n1" metric "cpu" slot 0: demand 4 > available 2/);
    // Without the reservation both fit at slot 0.
    assert.equal(evaluatePlan(loadInstance(small()), planAt([0, 0])).ok, true);
  });

  test('reserved tasks come off maxTasks, and the message says so', () => {
    const model = loadInstance(small({ n1: { tasks: [1, 0, 1] } }));
    assert.equal(evaluatePlan(model, planAt([1, 1])).ok, true, 'slot 1 holds nothing: two tasks fit');
    const e = evaluatePlan(model, planAt([0, 0]));
    assert.equal(e.ok, false);
    assert.match(e.violations.join('\n'), /node "n1" slot 0: 2 tasks > maxTasks 2 less 1 reserved/);
  });

  test('a malformed reservation is refused, every bad field named at once', () => {
    const inst = small({
      n1: { cpu: [1, -1], tasks: [1, 1.5], ram: [1] },
      n9: { cpu: [1] },
    } as InstanceDoc['reserved']);
    (inst.reserved as Record<string, unknown>).n1 = { cpu: [1, -1], tasks: [1, 1.5], ram: [1], gpu: 'x' };
    try {
      loadInstance(inst);
      assert.fail('loadInstance accepted a malformed reservation');
    } catch (e) {
      assert.ok(e instanceof ValidationError, String(e));
      const paths = e.issues.map((i) => i.path).sort();
      assert.deepEqual(paths, ['reserved.n1.cpu[1]', 'reserved.n1.gpu', 'reserved.n1.ram', 'reserved.n1.tasks[1]', 'reserved.n9']);
    }
    const tooMany = small({ n1: { tasks: [3], cpu: [0, 0, 0, 0, 0] } });
    assert.throws(() => loadInstance(tooMany), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.deepEqual(
        e.issues.map((i) => `${i.path}: ${i.message}`),
        ["reserved.n1.tasks[0]: must be at most the node's maxTasks 2, got 3", 'reserved.n1.cpu: has 5 values but horizon.slots is 4'],
      );
      return true;
    });
  });

  test('the evaluator and check-plan.py give the same verdict on plans made without the reservations', (t) => {
    if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
    const cases: { instance: InstanceDoc; plan: PlanDoc; ok: boolean }[] = [];
    for (let seed = 1; cases.length < 120; seed++) {
      const free = randomInstance(seed);
      const instance = withReserved(free, seed);
      const plan = plausiblePlan(free, { seed, rejectRate: 0.1, chaos: 0, shuffleAssignments: false, packing: 'first-fit' });
      cases.push({ instance, plan, ok: evaluatePlan(loadInstance(instance), plan).ok });
    }
    const feasible = cases.filter((c) => c.ok).length;
    assert.ok(feasible > 10 && feasible < 110, `a useful mix of verdicts: ${feasible} of ${cases.length} feasible`);
    checkPlans(cases).forEach((py, i) => {
      assert.equal(py.exception, undefined);
      assert.equal(py.feasible, cases[i].ok, `verdicts differ on seed case ${i}: check-plan.py ${JSON.stringify(py.errors.slice(0, 3))}`);
    });
  });
});

describe('reserved capacity: every strategy plans around it', () => {
  const HEAVY = new Set(['exact', 'auto']);
  for (const name of strategyNames()) {
    test(`${name}: plans on instances with reservations pass the evaluator and check-plan.py`, async (t) => {
      const solved: { instance: InstanceDoc; plan: PlanDoc }[] = [];
      const runs = HEAVY.has(name) ? 4 : 15;
      for (let seed = 1; solved.length < runs; seed++) {
        const instance = withReserved(randomInstance(1000 + seed, HEAVY.has(name) ? { maxSlots: 20, maxJobs: 3, maxNodes: 3, maxTasks: 3 } : {}), seed);
        // solve() throws InfeasiblePlanError when the evaluator rejects the plan it made.
        const plan = await solve(loadInstance(instance), { strategy: name, seed, maxIterations: 3, timeBudgetMs: BACKSTOP_MS });
        solved.push({ instance, plan });
      }
      if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
      checkPlans(solved).forEach((py, i) => {
        assert.equal(py.exception, undefined);
        assert.deepEqual(py.errors, [], `check-plan.py rejects ${name}'s plan of ${JSON.stringify(solved[i].instance)}`);
      });
    });
  }
});
