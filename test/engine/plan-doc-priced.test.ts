/**
 * A plan with priced transfers (docs/FORMAT.md, Transfers priced in plans) survives where a plan goes in the
 * engine: read back into a schedule (fromPlanDoc: Schedule.fetch) and written again (toPlanDoc) it stays priced
 * with the same fetchSlots and ends; assignmentEnds counts the fetch; a pass that would move its tasks without
 * pricing them refuses it; its replay launches the tasks at their planned starts. Unpriced plans are read and
 * written as before (no `transfers`, no `fetchSlots`, a fetchSlots without `transfers` ignored).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import type { AssignmentDoc, InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { matchBlocks } from '../../src/engine/placement/match-blocks';
import { placeReducesOverLinks } from '../../src/engine/placement/shuffle-aware';
import { assignmentEnds, fromPlanDoc, toPlanDoc } from '../../src/engine/schedule/plan-doc';
import { simulatePlan } from '../../src/engine/simulation';
import { at, planOf } from '../support/fixtures';
import { durationOf, randomInstance } from '../support/random-instance';
import { pricedPlan, withTransfers } from '../support/random-transfers';
import { node, oneJob } from '../support/sim-fixtures';

/** Feasible priced plans (first fit, fetchSlots at or above the least) on random instances with transfers. */
function feasiblePricedCases(count: number): { instance: InstanceDoc; plan: PlanDoc }[] {
  const cases: { instance: InstanceDoc; plan: PlanDoc }[] = [];
  for (let seed = 1; cases.length < count && seed < 50 * count; seed++) {
    const instance = withTransfers(randomInstance(7000 + seed), seed);
    const plan = pricedPlan(instance, { seed, rejectRate: 0.2, packing: 'first-fit', below: 0, above: 0.3, forgetFetch: 0, malformed: 0, priced: true });
    if (evaluatePlan(loadInstance(instance), plan).ok) cases.push({ instance, plan });
  }
  assert.equal(cases.length, count, 'enough feasible priced plans');
  return cases;
}

const CASES = feasiblePricedCases(40);

/** A plan without the pricing: no `transfers` and no fetchSlots (feasible when the priced one is: every task holds less). */
function unpriced(plan: PlanDoc): PlanDoc {
  const { transfers: _t, ...rest } = plan;
  return { ...rest, assignments: plan.assignments.map(({ fetchSlots: _f, ...a }) => a) };
}

const keyOf = (a: AssignmentDoc) => `${a.job}/${a.stage}/${a.task}`;
const sorted = (as: AssignmentDoc[]) => [...as].sort((x, y) => keyOf(x).localeCompare(keyOf(y)));

/** Start + fetchSlots (priced) + duration of each assignment, read from the JSON. */
function endsOf(instance: InstanceDoc, plan: PlanDoc, priced: boolean): number[] {
  return plan.assignments.map((a) => {
    const stage = instance.jobs.find((j) => j.id === a.job)!.stages.find((s) => s.id === a.stage)!;
    return a.start + (priced ? a.fetchSlots! : 0) + durationOf(instance, stage, instance.nodes.find((n) => n.id === a.node)!);
  });
}

describe('priced plans read back and written again', () => {
  test('fromPlanDoc then toPlanDoc keeps transfers, every fetchSlots, the makespan; the evaluator accepts it', () => {
    let fetching = 0;
    for (const { instance, plan } of CASES) {
      const model = loadInstance(instance);
      const s = fromPlanDoc(model, plan);
      assert.ok(s.fetch, 'a priced plan gives a priced schedule');
      assert.equal(s.makespan(), plan.objective.makespanSlots);
      const back = toPlanDoc(model, s, plan.strategy);
      assert.equal(back.transfers, 'priced');
      assert.deepEqual(sorted(back.assignments), sorted(plan.assignments));
      assert.deepEqual([...back.rejected].sort(), [...plan.rejected].sort());
      assert.deepEqual(back.objective, plan.objective);
      assert.deepEqual(evaluatePlan(model, back).violations, []);
      fetching += plan.assignments.filter((a) => a.fetchSlots! > 0).length;
    }
    assert.ok(fetching > 0, 'some tasks fetch');
  });

  test('assignmentEnds counts the fetch of a priced plan, the compute alone otherwise', () => {
    for (const { instance, plan } of CASES) {
      const model = loadInstance(instance);
      assert.deepEqual(assignmentEnds(model, plan), endsOf(instance, plan, true));
      assert.deepEqual(assignmentEnds(model, unpriced(plan)), endsOf(instance, plan, false));
      // fetchSlots without "transfers": "priced" prices nothing (the spec), here as in the evaluator.
      assert.deepEqual(assignmentEnds(model, { ...plan, transfers: undefined }), endsOf(instance, plan, false));
    }
  });

  test('an unpriced plan reads and writes as before: no fetch, no transfers, no fetchSlots', () => {
    for (const { instance, plan } of CASES.slice(0, 10)) {
      const model = loadInstance(instance);
      for (const doc of [unpriced(plan), { ...plan, transfers: undefined }]) {
        const s = fromPlanDoc(model, doc);
        assert.equal(s.fetch, null);
        const back = toPlanDoc(model, s, 'hand');
        assert.ok(!('transfers' in back));
        assert.ok(back.assignments.every((a) => !('fetchSlots' in a)));
        assert.deepEqual(sorted(back.assignments), sorted(unpriced(plan).assignments));
        assert.equal(back.objective.makespanSlots, Math.max(0, ...endsOf(instance, plan, false)));
      }
    }
  });

  test('a priced schedule keeps its fetch through clone, copyFrom and reject', () => {
    const { instance, plan } = CASES.find((c) => c.plan.assignments.some((a) => a.fetchSlots! > 0))!;
    const model = loadInstance(instance);
    const s = fromPlanDoc(model, plan);
    const c = s.clone();
    assert.deepEqual(c.fetch, s.fetch);
    assert.notEqual(c.fetch, s.fetch, 'a copy, not the same array');
    const plain = fromPlanDoc(model, unpriced(plan));
    plain.copyFrom(s);
    assert.deepEqual(plain.fetch, s.fetch);
    assert.equal(plain.makespan(), s.makespan());
    plain.copyFrom(fromPlanDoc(model, unpriced(plan)));
    assert.equal(plain.fetch, null, 'copying an unpriced schedule leaves no stale fetch');
    const j = model.taskJob[s.fetch!.findIndex((f) => f > 0)];
    c.reject(j);
    const job = model.jobs[j];
    assert.ok(c.fetch!.subarray(job.firstTask, job.firstTask + job.taskCount).every((f) => f === 0));
    assert.ok(toPlanDoc(model, c, 'hand').rejected.includes(job.id));
  });
});

describe('passes that move tasks refuse a priced schedule', () => {
  // Two maps writing output, two reduces reading it: the shuffle-aware pass has readers to move.
  const doc = oneJob(
    [
      { id: 'm', tasks: 2, demand: { cpu: 1 }, durationSeconds: 40, outputMB: 400 },
      { id: 'r', tasks: 2, demand: { cpu: 1 }, durationSeconds: 40, after: ['m'] },
    ],
    { nodes: ['a', 'b'].map((id) => node(id)) },
  );
  const plain = planOf(doc, [at('j/m/0@a:0'), at('j/m/1@b:0'), at('j/r/0@a:1'), at('j/r/1@a:1')]);
  const priced: PlanDoc = { ...plain, transfers: 'priced', assignments: plain.assignments.map((a) => ({ ...a, fetchSlots: 1 })) };

  test('the shuffle-aware reduce placement names priced transfers; the unpriced plan still moves', () => {
    const model = loadInstance(doc);
    assert.throws(() => placeReducesOverLinks(model, fromPlanDoc(model, priced)), /shuffle-aware reduce placement does not yet re-place a schedule with priced transfers/);
    assert.ok(placeReducesOverLinks(model, fromPlanDoc(model, plain)) > 0);
  });

  test('matching map tasks to their blocks names priced transfers', () => {
    const { instance, plan } = CASES.find((c) => c.instance.jobs.some((j) => j.stages.some((s) => s.blocks)))!;
    const model = loadInstance(instance);
    assert.throws(() => matchBlocks(model, fromPlanDoc(model, plan)), /matching map tasks to their blocks does not yet re-place a schedule with priced transfers/);
    assert.doesNotThrow(() => matchBlocks(model, fromPlanDoc(model, unpriced(plan))));
  });
});

describe('a priced plan replays', () => {
  test("its tasks launch at their planned starts: the replay equals the unpriced copy's, the fetch done by the simulator", () => {
    for (const { instance, plan } of CASES.slice(0, 5)) {
      const model = loadInstance(instance);
      // elapsedMs is the run's wall clock, the one figure that is not the simulation's.
      const { elapsedMs: _p, ...priced } = simulatePlan(model, plan, { qos: 'none', seed: 1 });
      const { elapsedMs: _u, ...plain } = simulatePlan(model, unpriced(plan), { qos: 'none', seed: 1 });
      assert.deepEqual(priced, plain);
      assert.equal(priced.driver, 'plan:random-priced');
    }
  });
});
