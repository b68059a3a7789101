/**
 * Re-planning a running plan (issue 39; docs/FORMAT.md, Frozen assignments): every strategy keeps the frozen
 * tasks, rejects no job that has one, starts nothing else before nowSlot, and is checked by the evaluator and
 * check-plan.py; with the previous plan as a hint, a re-plan when nothing changed gives that plan back; a lost
 * node's tasks go elsewhere; bad `frozen` and `previous` are refused naming every field.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acoBpInstance } from '../../harness/acobp-instance';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { ValidationError } from '../../src/engine/model/errors';
import { loadInstance } from '../../src/engine/model/model';
import type { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { assignmentEnds } from '../../src/engine/schedule/plan-doc';
import { solve } from '../../src/engine/solve';
import { strategyNames } from '../../src/engine/strategies';
import { checkerAvailable, checkPlans, SKIP_MESSAGE } from '../support/check-plan';
import { freezeAt, nodeLost } from '../../harness/freeze';
import { randomInstance } from '../support/random-instance';
import { BACKSTOP_MS } from '../support/work-limit';

/** Two nodes of 4 cpu, two map-reduce jobs of 1-slot tasks (2 cpu), 12 slots: room to spare. */
function twoJobs(): InstanceDoc {
  const job = (id: string) => ({
    id,
    stages: [
      { id: 'map', tasks: 4, durationSeconds: 60, demand: { cpu: 2 } },
      { id: 'reduce', tasks: 2, after: ['map'], durationSeconds: 120, demand: { cpu: 2 } },
    ],
  });
  return {
    format: 'fallow.instance/v1',
    name: 'replan-two-jobs',
    horizon: { slots: 12, slotSeconds: 60 },
    metrics: ['cpu'],
    nodes: [
      { id: 'a', capacity: { cpu: 4 } },
      { id: 'b', capacity: { cpu: 4 } },
    ],
    jobs: [job('j1'), job('j2')],
  };
}

const key = (a: { job: string; stage: string; task: number }) => `${a.job}/${a.stage}/${a.task}`;

function frozenKept(instance: InstanceDoc, plan: PlanDoc): void {
  const by = new Map(plan.assignments.map((a) => [key(a), a]));
  for (const f of instance.frozen!.assignments) {
    const a = by.get(key(f));
    assert.ok(a, `frozen ${key(f)} is in the plan`);
    assert.deepEqual([a.node, a.start], [f.node, f.start], `frozen ${key(f)} kept`);
  }
  for (const a of plan.assignments) if (!instance.frozen!.assignments.some((f) => key(f) === key(a))) assert.ok(a.start >= instance.frozen!.nowSlot, `${key(a)} starts at or after nowSlot`);
}

describe('re-planning: frozen tasks', () => {
  test('the evaluator refuses a plan that moves a frozen task, starts another before nowSlot or rejects a started job', () => {
    const base = twoJobs();
    const plan: PlanDoc = {
      format: 'fallow.plan/v1',
      instance: base.name,
      strategy: 'hand',
      assignments: [0, 1, 2, 3].flatMap((t) => [
        { job: 'j1', stage: 'map', task: t, node: t < 2 ? 'a' : 'b', start: 0 },
        { job: 'j2', stage: 'map', task: t, node: t < 2 ? 'a' : 'b', start: 1 },
      ]).concat([0, 1].flatMap((t) => [
        { job: 'j1', stage: 'reduce', task: t, node: t ? 'b' : 'a', start: 2 },
        { job: 'j2', stage: 'reduce', task: t, node: t ? 'b' : 'a', start: 4 },
      ])),
      rejected: [],
      objective: { scheduledTasks: 12, makespanSlots: 6 },
    };
    const instance = freezeAt(base, plan, 2);
    const model = loadInstance(instance);
    assert.deepEqual(evaluatePlan(model, plan).violations, []);
    const moved = structuredClone(plan);
    moved.assignments[0].node = 'b';
    assert.match(evaluatePlan(model, moved).violations.join('\n'), /frozen task j1\/map\/0 moved/);
    const early = structuredClone(plan);
    early.assignments.find((a) => a.job === 'j1' && a.stage === 'reduce')!.start = 1;
    assert.match(evaluatePlan(model, early).violations.join('\n'), /starts at 1 before nowSlot 2/);
    const rejected = { ...structuredClone(plan), rejected: ['j2'] };
    rejected.assignments = rejected.assignments.filter((a) => a.job !== 'j2');
    rejected.objective = { scheduledTasks: 6, makespanSlots: 4 };
    assert.match(evaluatePlan(model, rejected).violations.join('\n'), /job "j2" has frozen tasks and is rejected/);
    // Before nowSlot the past is not checked: usage that rose there does not make the frozen tasks infeasible.
    const busyPast = loadInstance({ ...instance, usage: { a: { cpu: [1, 1, ...new Array(10).fill(0)] } } });
    assert.deepEqual(evaluatePlan(busyPast, plan).violations, []);
  });

  test('a malformed frozen is refused naming every field; frozen tasks that cannot be kept are refused too', () => {
    const bad = { ...twoJobs(), frozen: { nowSlot: 40, assignments: [{ job: 'jx', stage: 'map', task: 0, node: 'a', start: 0 }, { job: 'j1', stage: 'map', task: 9, node: 'z', start: -1, fetchSlots: 1.5 }], extra: 1 } };
    assert.throws(() => loadInstance(bad), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.deepEqual(e.issues.map((i) => i.path).sort(), [
        'frozen.assignments[0].job',
        'frozen.assignments[1].fetchSlots',
        'frozen.assignments[1].node',
        'frozen.assignments[1].start',
        'frozen.assignments[1].task',
        'frozen.extra',
        'frozen.nowSlot',
      ]);
      return true;
    });
    // A reduce frozen while a map of its job is not: no plan can keep it.
    const early = { ...twoJobs(), frozen: { nowSlot: 3, assignments: [{ job: 'j1', stage: 'reduce', task: 0, node: 'a', start: 1 }] } };
    assert.throws(() => loadInstance(early), /stage j1\/reduce has started but task j1\/map\/0/);
    // Three 2-cpu tasks frozen on one 4-cpu node at once.
    const over = { ...twoJobs(), frozen: { nowSlot: 1, assignments: [0, 1, 2].map((task) => ({ job: 'j1', stage: 'map', task, node: 'a', start: 1 })) } };
    assert.throws(() => loadInstance(over), /the frozen tasks alone overload node "a" at slot 1/);
    // The same before nowSlot is the past: not checked.
    assert.doesNotThrow(() => loadInstance({ ...over, frozen: { nowSlot: 2, assignments: [0, 1, 2].map((task) => ({ job: 'j1', stage: 'map', task, node: 'a', start: 0 })) } }));
  });

  for (const name of strategyNames()) {
    test(`${name}: re-plans keep the frozen tasks and pass the evaluator and check-plan.py`, async (t) => {
      const heavy = name === 'exact' || name === 'auto';
      const solved: { instance: InstanceDoc; plan: PlanDoc }[] = [];
      for (let seed = 1; solved.length < (heavy ? 4 : 12); seed++) {
        const base = randomInstance(3000 + seed, heavy ? { maxSlots: 20, maxJobs: 3, maxNodes: 3, maxTasks: 3 } : {});
        const first = await solve(loadInstance(base), { strategy: 'rffd', seed, maxIterations: 3 });
        if (first.objective.scheduledTasks === 0) continue;
        const now = 1 + (seed % Math.max(1, first.objective.makespanSlots - 1));
        const instance = freezeAt(base, first, now);
        // solve() throws InfeasiblePlanError when the evaluator rejects the plan it made.
        const plan = await solve(loadInstance(instance), { strategy: name, seed, maxIterations: 3, timeBudgetMs: BACKSTOP_MS, previous: seed % 2 ? first : undefined });
        frozenKept(instance, plan);
        assert.equal(plan.stats!.replan && (plan.stats!.replan as { frozenTasks: number }).frozenTasks, instance.frozen!.assignments.length);
        solved.push({ instance, plan });
      }
      if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
      checkPlans(solved).forEach((py, i) => {
        assert.equal(py.exception, undefined);
        assert.deepEqual(py.errors, [], `check-plan.py rejects ${name}'s re-plan of ${JSON.stringify(solved[i].instance)}`);
      });
    });
  }
});

describe('re-planning: non-disruptive', () => {
  for (const name of ['ls', 'rffd', 'exact', 'auto']) {
    test(`${name}: a re-plan when nothing changed gives the previous plan back, whatever the seed`, async () => {
      // exact and auto prove what they can on small instances; an iteration limit keeps every run the same.
      const heavy = name === 'exact' || name === 'auto';
      const iterations = heavy ? 3 : 200;
      // The first instance (random ones for exact and auto) where some tasks started by a third of the makespan and some did not.
      for (let n = 0; ; n++) {
        const base = heavy ? randomInstance(77 + n, { minSlots: 20, maxSlots: 20, maxJobs: 3, maxNodes: 3, maxTasks: 3 }) : acoBpInstance({ seed: 7 + n, scale: 0.1, perFlavour: 2, slots: 400 });
        const first = await solve(loadInstance(base), { strategy: name, seed: 1, maxIterations: iterations, timeBudgetMs: BACKSTOP_MS });
        const instance = freezeAt(base, first, Math.floor(first.objective.makespanSlots / 3));
        const model = loadInstance(instance);
        const open = first.objective.scheduledTasks - instance.frozen!.assignments.length;
        if (open > 0 && instance.frozen!.assignments.length > 0) return assertSameAgain(name, model, first, open, iterations);
      }
    });
  }

  /** Re-planning `model` (frozen from `first`) with `first` as the previous plan, three seeds: at most 5 % of the open tasks move. */
  async function assertSameAgain(name: string, model: ReturnType<typeof loadInstance>, first: PlanDoc, open: number, iterations: number) {
    for (const seed of [2, 3, 4]) {
        const again = await solve(model, { strategy: name, seed, maxIterations: iterations, timeBudgetMs: BACKSTOP_MS, previous: first });
        const r = again.stats!.replan as { movedTasks: number; previous: boolean };
        assert.equal(r.previous, true);
        assert.ok(r.movedTasks <= 0.05 * open, `${name} seed ${seed}: ${r.movedTasks} of ${open} open tasks moved`);
        assert.ok(again.objective.makespanSlots <= first.objective.makespanSlots && again.objective.scheduledTasks >= first.objective.scheduledTasks);
    }
  }

  test("a lost node's tasks are placed again elsewhere; the others stay", async () => {
    const base = acoBpInstance({ seed: 8, scale: 0.1, perFlavour: 2, slots: 400 });
    const first = await solve(loadInstance(base), { strategy: 'ls', seed: 1, maxIterations: 200, timeBudgetMs: BACKSTOP_MS });
    const now = Math.floor(first.objective.makespanSlots / 3);
    const ends = assignmentEnds(loadInstance(base), first);
    const byLoad = new Map<string, number>();
    first.assignments.forEach((a) => a.start >= now && byLoad.set(a.node, (byLoad.get(a.node) ?? 0) + 1));
    const lost = [...byLoad.entries()].sort((x, y) => y[1] - x[1])[0][0];
    // What ran on the lost node at now was killed: it is not frozen and runs again.
    const instance = freezeAt(nodeLost(base, lost, now), first, now, (a, end) => a.node === lost && end > now);
    const plan = await solve(loadInstance(instance), { strategy: 'ls', seed: 2, maxIterations: 200, timeBudgetMs: BACKSTOP_MS, previous: first });
    frozenKept(instance, plan);
    assert.equal(plan.assignments.filter((a) => a.node === lost && a.start >= now).length, 0, 'nothing on the lost node after now');
    assert.equal(plan.rejected.length, first.rejected.length);
    const r = plan.stats!.replan as { movedTasks: number; keptTasks: number };
    const displaced = first.assignments.filter((a, n) => a.node === lost && ends[n] > now).length;
    assert.ok(r.movedTasks >= displaced, `at least the ${displaced} tasks of the lost node moved (${r.movedTasks})`);
    assert.ok(r.keptTasks > 0, 'some tasks stay where they were');
  });

  test('a malformed previous plan is refused naming its fields', async () => {
    const model = loadInstance(twoJobs());
    await assert.rejects(solve(model, { strategy: 'rffd', previous: { format: 'x', assignments: [{ job: 'j1', stage: 'map', task: -1, node: 'a', start: 'soon' }] } }), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.deepEqual(e.issues.map((i) => i.path), ['previous.format', 'previous.assignments[0].task', 'previous.assignments[0].start']);
      return true;
    });
  });

  test('priced transfers: a re-plan keeps the frozen fetchSlots and prices the rest', async (t) => {
    const base = acoBpInstance({ seed: 9, scale: 0.1, perFlavour: 2, slots: 400, outputShare: [0.2, 0.5] });
    const first = await solve(loadInstance(base), { strategy: 'ls', seed: 1, maxIterations: 100, timeBudgetMs: BACKSTOP_MS });
    assert.equal(first.transfers, 'priced');
    const instance = freezeAt(base, first, Math.floor(first.objective.makespanSlots / 2));
    assert.ok(instance.frozen!.assignments.some((a) => (a.fetchSlots ?? 0) > 0), 'some frozen task fetched');
    const plan = await solve(loadInstance(instance), { strategy: 'rffd', seed: 2, maxIterations: 3, timeBudgetMs: BACKSTOP_MS, previous: first });
    frozenKept(instance, plan);
    const by = new Map(plan.assignments.map((a) => [key(a), a]));
    for (const f of instance.frozen!.assignments) assert.equal(by.get(key(f))!.fetchSlots, f.fetchSlots);
    if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
    assert.deepEqual(checkPlans([{ instance, plan }])[0].errors, []);
  });
});
