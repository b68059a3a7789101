/**
 * The evaluator (src/engine/evaluate/evaluate.ts): one test per rule of FORMAT.md on a tiny hand-made
 * instance, the KPIs, and properties on random instances and plans, cross-checked with the independent
 * ../shared/tools/check-plan.py when it is there.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import * as fc from 'fast-check';
import { evaluatePlan, Evaluation } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { solve } from '../../src/engine/solve';
import { CheckerSummary, checkerAvailable, checkPlan, checkPlans, REPO_ROOT, SKIP_MESSAGE } from '../support/check-plan';
import { assertProperty, at, clone, planOf } from '../support/fixtures';
import {
  availableOf,
  BROKEN_KINDS,
  BrokenKind,
  endOf,
  EXPECTED_MESSAGE,
  instanceWithPlanArb,
  materializePlan,
  objectiveOf,
  PlanCase,
  planArb,
  planRecipeArb,
  instanceArb,
} from '../support/random-instance';

const SEED = 0x5eed;
const RUNS = 200;

// ---------------------------------------------------------------------------------------------------
// A tiny instance: n1 {cpu 4, ram 8, at most 2 tasks}, n2 {cpu 2, ram 4, speed 2}; slots of 60 s, T = 10.
// j1 (release 2, deadline 6, revenue 10 / -2): a (2 tasks, cpu 2 + ram 1, 120 s = 2 slots) -> b (1 task,
// cpu 1, work 120 = 2 slots on n1, 1 slot on n2). j2: x (1 task, ram 1, 60 s = 1 slot), no revenue.

function tinyInstance(): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'tiny',
    horizon: { slots: 10, slotSeconds: 60 },
    metrics: ['cpu', 'ram'],
    nodes: [
      { id: 'n1', capacity: { cpu: 4, ram: 8 }, maxTasks: 2 },
      { id: 'n2', capacity: { cpu: 2, ram: 4 }, speed: 2 },
    ],
    jobs: [
      {
        id: 'j1',
        releaseSlot: 2,
        deadlineSlot: 6,
        revenue: { onTime: 10, late: -2 },
        stages: [
          { id: 'a', tasks: 2, demand: { cpu: 2, ram: 1 }, durationSeconds: 120 },
          { id: 'b', tasks: 1, after: ['a'], demand: { cpu: 1 }, work: 120 },
        ],
      },
      { id: 'j2', stages: [{ id: 'x', tasks: 1, demand: { ram: 1 }, durationSeconds: 60 }] },
    ],
  };
}

/** Feasible: both a tasks fill n1's cpu on slots 2-3, b runs on n2 in slot 4, x on n2 in slot 0. */
const GOOD = ['j1/a/0@n1:2', 'j1/a/1@n1:2', 'j1/b/0@n2:4', 'j2/x/0@n2:0'];

function tinyPlan(specs: string[] = GOOD, rejected: string[] = [], extra: Partial<PlanDoc> = {}): PlanDoc {
  return planOf(tinyInstance(), specs.map(at), rejected, extra);
}

/** Evaluates, asserts the verdict and that some violation matches, and that check-plan.py agrees when present. */
function expectVerdict(inst: InstanceDoc, plan: unknown, ok: boolean, pattern?: RegExp, crossCheck = true): Evaluation {
  const e = evaluatePlan(loadInstance(inst), plan);
  assert.equal(e.ok, ok, `evaluator verdict; violations: ${JSON.stringify(e.violations)}`);
  assert.equal(e.violations.length === 0, ok);
  if (pattern) assert.ok(e.violations.some((v) => pattern.test(v)), `no violation matches ${pattern}: ${JSON.stringify(e.violations)}`);
  if (crossCheck) handMade.push({ instance: clone(inst), plan: clone(plan), ok, where: new Error().stack!.split('\n')[2]?.trim() ?? '' });
  return e;
}

/** Every hand-made plan goes to check-plan.py too, in one batch at the end of the file. */
const handMade: { instance: InstanceDoc; plan: unknown; ok: boolean; where: string; summary?: Partial<CheckerSummary> }[] = [];

describe('evaluatePlan: one rule at a time', () => {
  test('the reference plan is feasible and truthful', () => {
    const e = expectVerdict(tinyInstance(), tinyPlan(), true);
    assert.equal(e.feasible, true);
    assert.equal(e.truthful, true);
    assert.equal(e.kpis.scheduledTasks, 4);
    assert.equal(e.kpis.makespanSlots, 5);
  });

  test('rule 1: a job neither rejected nor complete', () => {
    const e = expectVerdict(tinyInstance(), tinyPlan(GOOD.slice(1)), false, /^job "j1" is neither rejected nor complete: 2\/3 tasks assigned$/);
    assert.equal(e.kpis.scheduledTasks, 1, 'only j2 counts');
  });

  test('rule 1: rejecting the incomplete job instead is fine', () => {
    expectVerdict(tinyInstance(), tinyPlan(['j2/x/0@n2:0'], ['j1']), true);
  });

  test('rule 1: a task assigned twice', () => {
    expectVerdict(tinyInstance(), tinyPlan([...GOOD, 'j2/x/0@n2:0']), false, /^assignments\[4\]: task j2\/x\/0 is assigned twice$/);
  });

  test('rule 1: a duplicate counts with its later assignment, as in check-plan.py', () => {
    const plan = tinyPlan([...GOOD, 'j2/x/0@n2:7']);
    const e = expectVerdict(tinyInstance(), plan, false, /assigned twice/);
    assert.equal(e.kpis.makespanSlots, 8);
    handMade[handMade.length - 1].summary = { makespanSlots: 8 };
  });

  test('rule 1: a job both rejected and assigned', () => {
    expectVerdict(tinyInstance(), tinyPlan(GOOD, ['j2']), false, /^assignments\[3\]: job "j2" is both rejected and assigned$/);
  });

  test('rule 1: rejecting a job that does not exist', () => {
    expectVerdict(tinyInstance(), tinyPlan(GOOD, ['j9']), false, /^rejected\[0\]: job "j9" is not in the instance$/);
  });

  test('rule 1: assignments to an unknown job, stage or task', () => {
    expectVerdict(tinyInstance(), tinyPlan([...GOOD, 'j9/x/0@n2:0']), false, /^assignments\[4\]\.job: unknown job "j9"$/);
    // check-plan.py ignores assignments to stages or task indices that do not exist (it only looks up the
    // tasks the instance has), so these two are not cross-checked.
    expectVerdict(tinyInstance(), tinyPlan([...GOOD, 'j1/c/0@n2:0']), false, /^assignments\[4\]\.stage: job "j1" has no stage "c"$/, false);
    expectVerdict(tinyInstance(), tinyPlan([...GOOD, 'j1/a/2@n2:0']), false, /^assignments\[4\]\.task: must be an integer in \[0, 1\], got 2$/, false);
  });

  test('rule 2: a task on an unknown node', () => {
    const plan = tinyPlan(['j1/a/0@n1:2', 'j1/a/1@n1:2', 'j1/b/0@n7:4', 'j2/x/0@n2:0']);
    const e = expectVerdict(tinyInstance(), plan, false, /^assignments\[2\]\.node: unknown node "n7"$/);
    // As check-plan.py: j1 is complete, the task on n7 is left out of every sum.
    assert.equal(e.kpis.scheduledTasks, 3);
    assert.ok(!e.violations.some((v) => /neither rejected nor complete/.test(v)), 'the job is complete');
  });

  test('rule 2: a task starting before its job is released', () => {
    expectVerdict(tinyInstance(), tinyPlan(['j1/a/0@n1:1', 'j1/a/1@n1:2', 'j1/b/0@n2:4', 'j2/x/0@n2:0']), false, /^task j1\/a\/0 starts at 1 before the job's release 2$/);
  });

  test('rule 2: a start that is not an integer slot', () => {
    const plan = tinyPlan();
    plan.assignments[3].start = 0.5;
    expectVerdict(tinyInstance(), plan, false, /^assignments\[3\]\.start: must be an integer slot, got 0\.5$/, false);
  });

  test('rule 3: a task ending after the window', () => {
    expectVerdict(tinyInstance(), tinyPlan([...GOOD.slice(0, 3), 'j2/x/0@n2:10']), false, /^task j2\/x\/0 runs \[10, 11\) outside the window \[0, 10\)$/);
    expectVerdict(tinyInstance(), tinyPlan([...GOOD.slice(0, 2), 'j1/b/0@n1:9', 'j2/x/0@n2:0']), false, /^task j1\/b\/0 runs \[9, 11\) outside the window \[0, 10\)$/);
  });

  test('rule 3: a task ending exactly at the window end is inside', () => {
    expectVerdict(tinyInstance(), tinyPlan([...GOOD.slice(0, 2), 'j1/b/0@n1:8', 'j2/x/0@n2:9']), true);
  });

  test('rule 3: a negative start', () => {
    expectVerdict(tinyInstance(), tinyPlan([...GOOD.slice(0, 3), 'j2/x/0@n2:-1']), false, /^task j2\/x\/0 runs \[-1, 0\) outside the window \[0, 10\)$/);
  });

  test('rule 3: a start of 2^32 is outside the window (it must not wrap around to slot 0)', () => {
    const plan = tinyPlan();
    plan.assignments[3].start = 2 ** 32;
    plan.objective.makespanSlots = 2 ** 32 + 1;
    expectVerdict(tinyInstance(), plan, false, /^task j2\/x\/0 runs \[4294967296, 4294967297\) outside the window \[0, 10\)$/);
  });

  test('rule 4: a stage starting before its predecessor ends', () => {
    expectVerdict(tinyInstance(), tinyPlan(['j1/a/0@n1:2', 'j1/a/1@n1:2', 'j1/b/0@n2:3', 'j2/x/0@n2:0']), false, /^job "j1": stage "b" starts at 3 before stage "a" ends at 4$/);
  });

  test('rule 4: the latest predecessor task counts, not the first', () => {
    expectVerdict(tinyInstance(), tinyPlan(['j1/a/0@n1:2', 'j1/a/1@n1:4', 'j1/b/0@n2:5', 'j2/x/0@n2:0']), false, /stage "b" starts at 5 before stage "a" ends at 6/);
    expectVerdict(tinyInstance(), tinyPlan(['j1/a/0@n1:2', 'j1/a/1@n1:4', 'j1/b/0@n2:6', 'j2/x/0@n2:0']), true);
  });

  test('rule 5: demand above capacity on a node', () => {
    expectVerdict(tinyInstance(), tinyPlan(['j1/a/0@n2:2', 'j1/a/1@n2:2', 'j1/b/0@n2:4', 'j2/x/0@n2:0']), false, /^node "n2" metric "cpu" slot 2: demand 4 > available 2$/);
  });

  test('rule 5: availability is C * (1 - usage - safety margin)', () => {
    const inst = tinyInstance();
    inst.safetyMargin = { cpu: 0.25 };
    inst.usage = { n1: { cpu: [0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0] } };
    // slot 2: 4 * (1 - 0.5 - 0.25) = 1 < 4; slot 3: 4 * 0.75 = 3 < 4
    const e = expectVerdict(inst, planOf(inst, GOOD.map(at)), false, /^node "n1" metric "cpu" slot 2: demand 4 > available 1$/);
    assert.ok(e.violations.includes('node "n1" metric "cpu" slot 3: demand 4 > available 3'));
    // usage + margin above 1 leaves nothing (not a negative amount)
    inst.usage = { n1: { cpu: [0, 0, 0.9, 0.9, 0, 0, 0, 0, 0, 0] } };
    expectVerdict(inst, planOf(inst, GOOD.map(at)), false, /^node "n1" metric "cpu" slot 2: demand 4 > available 0$/);
  });

  test('rule 5: a metric missing from a node capacity has none of it', () => {
    const inst = tinyInstance();
    delete (inst.nodes[1].capacity as Record<string, number>).ram;
    expectVerdict(inst, planOf(inst, GOOD.map(at)), false, /^node "n2" metric "ram" slot 0: demand 1 > available 0$/);
  });

  test('rule 5: capacity tolerance is 1e-6 relative plus 1e-9 absolute', () => {
    const inst = tinyInstance();
    const sharing = (capacity: number, demand: number) => {
      const i = clone(inst);
      i.nodes[0].capacity.cpu = capacity;
      i.jobs[0].stages[0].demand.cpu = demand; // two a tasks side by side on n1
      return i;
    };
    const plan = (i: InstanceDoc) => planOf(i, GOOD.map(at));
    // 0.1 + 0.2 = 0.30000000000000004 > 0.3 in binary: within tolerance
    const three = clone(inst);
    three.jobs[0].stages[0].tasks = 3;
    three.nodes[0].capacity.cpu = 0.3;
    three.nodes[0].maxTasks = 3;
    three.jobs[0].stages[0].demand.cpu = 0.1;
    expectVerdict(three, planOf(three, [...GOOD, 'j1/a/2@n1:2'].map(at)), true);
    // large capacities: relative
    expectVerdict(sharing(1000, 500 * (1 + 5e-7)), plan(sharing(1000, 500 * (1 + 5e-7))), true);
    expectVerdict(sharing(1000, 500 * (1 + 2e-6)), plan(sharing(1000, 500 * (1 + 2e-6))), false, /metric "cpu" slot 2: demand 1000 > available 1000/);
    // small capacities: 1e-6 * max(1, available) + 1e-9 absolute
    expectVerdict(sharing(0.5, 0.25 + 0.45e-6), plan(sharing(0.5, 0.25 + 0.45e-6)), true);
    expectVerdict(sharing(0.5, 0.25 + 0.6e-6), plan(sharing(0.5, 0.25 + 0.6e-6)), false, /metric "cpu" slot 2: demand 0.500001 > available 0.5/);
    // (FORMAT.md says "+ 1e-9"; both checkers allow 1e-6 * max(1, available) + 1e-9, so 1e-6 near zero)
    expectVerdict(sharing(0, 0.45e-6), plan(sharing(0, 0.45e-6)), true);
    expectVerdict(sharing(0, 0.55e-6), plan(sharing(0, 0.55e-6)), false, /demand 0\.0000011 > available 0$/);
  });

  test('rule 5: more tasks at once than maxTasks', () => {
    expectVerdict(tinyInstance(), tinyPlan([...GOOD.slice(0, 3), 'j2/x/0@n1:3']), false, /^node "n1" slot 3: 3 tasks > maxTasks 2$/);
  });

  test('rule 5: maxTasks 0 forbids the node', () => {
    const inst = tinyInstance();
    inst.nodes[1].maxTasks = 0;
    expectVerdict(inst, planOf(inst, GOOD.map(at)), false, /^node "n2" slot 0: 1 tasks > maxTasks 0$/);
  });

  test('rule 5: a task ending at slot t does not use slot t', () => {
    // x on n1 in slot 4 right after both a tasks end: 2 tasks at most at once
    expectVerdict(tinyInstance(), tinyPlan([...GOOD.slice(0, 3), 'j2/x/0@n1:4']), true);
  });

  test('rule 6: a misreported objective', () => {
    const lie = tinyPlan(GOOD, [], { objective: { scheduledTasks: 5, makespanSlots: 5 } });
    let e = expectVerdict(tinyInstance(), lie, false, /^objective\.scheduledTasks=5 but the assignments give 4$/);
    assert.equal(e.feasible, true, 'the schedule itself is fine');
    assert.equal(e.truthful, false);
    e = expectVerdict(tinyInstance(), tinyPlan(GOOD, [], { objective: { scheduledTasks: 4, makespanSlots: 6 } }), false, /^objective\.makespanSlots=6 but the assignments give 5$/);
    assert.deepEqual([e.feasible, e.truthful], [true, false]);
    e = expectVerdict(tinyInstance(), tinyPlan(GOOD, [], { objective: undefined as never }), false, /^objective\.scheduledTasks=nothing but the assignments give 4$/);
    assert.deepEqual([e.feasible, e.truthful], [true, false]);
  });

  test('a misreported objective on an infeasible plan is neither feasible nor truthful', () => {
    const e = expectVerdict(tinyInstance(), tinyPlan(GOOD.slice(1), [], { objective: { scheduledTasks: 4, makespanSlots: 5 } }), false);
    assert.deepEqual([e.feasible, e.truthful], [false, false]);
  });

  test('a bound above the makespan is rejected, and ignored when nothing is scheduled', () => {
    expectVerdict(tinyInstance(), tinyPlan(GOOD, [], { bound: { makespanSlots: 6 } }), false, /^bound\.makespanSlots=6 exceeds the plan's own makespan 5$/);
    expectVerdict(tinyInstance(), tinyPlan(GOOD, [], { bound: { makespanSlots: 5 } }), true);
    expectVerdict(tinyInstance(), tinyPlan([], ['j1', 'j2'], { bound: { makespanSlots: 3 } }), true);
  });

  test('rejecting everything is feasible with an empty objective', () => {
    const e = expectVerdict(tinyInstance(), tinyPlan([], ['j1', 'j2']), true);
    assert.equal(e.kpis.scheduledTasks, 0);
    assert.equal(e.kpis.makespanSlots, 0);
    assert.equal(e.kpis.rejectedJobs, 2);
    assert.equal(e.kpis.acceptedJobs, 0);
    assert.equal(e.kpis.revenue, 0);
    assert.deepEqual(e.kpis.utilisation, { cpu: 0, ram: 0 });
  });

  test('malformed plans are named', () => {
    const model = loadInstance(tinyInstance());
    assert.ok(evaluatePlan(model, [1, 2]).violations.includes('$: the plan must be a JSON object'));
    assert.ok(evaluatePlan(model, { ...tinyPlan(), format: 'fallow.plan/v0' }).violations.includes('format: must be "fallow.plan/v1", got "fallow.plan/v0"'));
    assert.ok(evaluatePlan(model, { ...tinyPlan(), assignments: {} }).violations.includes('assignments: must be an array'));
    assert.ok(evaluatePlan(model, { ...tinyPlan(), rejected: 'j1' }).violations.includes('rejected: must be an array of job ids'));
    assert.ok(evaluatePlan(model, { ...tinyPlan(), assignments: [...tinyPlan().assignments, 7] }).violations.includes('assignments[4]: must be an object'));
  });
});

describe('evaluatePlan: KPIs', () => {
  test('revenue: on time when the job ends by its deadline (inclusive), late after it, 0 when rejected', () => {
    const jobs = (e: Evaluation) => Object.fromEntries(e.kpis.jobs.map((j) => [j.id, j]));
    // j1 ends at 5 <= 6
    let e = expectVerdict(tinyInstance(), tinyPlan(), true);
    assert.equal(e.kpis.revenue, 10);
    assert.deepEqual(jobs(e).j1, { id: 'j1', accepted: true, endSlot: 5, deadlineSlot: 6, onTime: true, revenue: 10 });
    assert.deepEqual(jobs(e).j2, { id: 'j2', accepted: true, endSlot: 1, deadlineSlot: null, onTime: true, revenue: 0 });
    // Counted over the jobs that carry revenue, as check-plan.py does: j2 has none.
    assert.equal(e.kpis.onTimeJobs, 1);
    assert.equal(e.kpis.lateJobs, 0);
    // ends exactly at the deadline
    e = expectVerdict(tinyInstance(), tinyPlan([...GOOD.slice(0, 2), 'j1/b/0@n2:5', 'j2/x/0@n2:0']), true);
    assert.equal(jobs(e).j1.endSlot, 6);
    assert.equal(e.kpis.revenue, 10);
    // one slot late
    e = expectVerdict(tinyInstance(), tinyPlan([...GOOD.slice(0, 2), 'j1/b/0@n2:6', 'j2/x/0@n2:0']), true);
    assert.equal(e.kpis.revenue, -2);
    assert.equal(jobs(e).j1.onTime, false);
    assert.deepEqual([e.kpis.onTimeJobs, e.kpis.lateJobs], [0, 1]);
    // rejected
    e = expectVerdict(tinyInstance(), tinyPlan(['j2/x/0@n2:0'], ['j1']), true);
    assert.equal(e.kpis.revenue, 0);
    assert.deepEqual(jobs(e).j1, { id: 'j1', accepted: false, endSlot: null, deadlineSlot: 6, onTime: null, revenue: 0 });
    assert.deepEqual([e.kpis.onTimeJobs, e.kpis.lateJobs, e.kpis.acceptedJobs, e.kpis.rejectedJobs], [0, 0, 1, 1]);
    // no deadline: always on time; missing revenue fields are 0
    const inst = tinyInstance();
    delete inst.jobs[0].deadlineSlot;
    inst.jobs[1].revenue = { late: 3 };
    inst.jobs[1].deadlineSlot = 0;
    e = expectVerdict(inst, planOf(inst, GOOD.map(at)), true);
    assert.equal(e.kpis.revenue, 10 + 3);
    assert.deepEqual([e.kpis.onTimeJobs, e.kpis.lateJobs], [1, 1]);
    handMade[handMade.length - 1].summary = { revenue: 13, onTimeJobs: 1 };
  });

  test('two-stage KPIs: PRU (dominant share per node and slot), JCR and PR', () => {
    let e = expectVerdict(tinyInstance(), tinyPlan(), true);
    // makespan 5, 2 nodes: n1 cpu full in slots 2-3 (1 + 1), n2 ram 1/4 in slot 0 and cpu 1/2 in slot 4
    assert.ok(Math.abs(e.kpis.pru - (1 + 1 + 0.25 + 0.5) / 10) < 1e-12, `pru ${e.kpis.pru}`);
    // j1 ends by its deadline and j2 has none: both count as completed
    assert.equal(e.kpis.jcr, 1);
    assert.equal(e.kpis.pr, e.kpis.revenue);
    e = expectVerdict(tinyInstance(), tinyPlan([...GOOD.slice(0, 2), 'j1/b/0@n2:6', 'j2/x/0@n2:0']), true);
    assert.equal(e.kpis.jcr, 0.5);
    assert.equal(e.kpis.pr, -2);
    e = expectVerdict(tinyInstance(), tinyPlan(['j2/x/0@n2:0'], ['j1']), true);
    assert.equal(e.kpis.jcr, 0.5);
  });

  test('objective.revenue, when a plan reports it, must be true', () => {
    expectVerdict(tinyInstance(), tinyPlan(GOOD, [], { objective: { scheduledTasks: 4, makespanSlots: 5, revenue: 10 } }), true);
    const e = expectVerdict(tinyInstance(), tinyPlan(GOOD, [], { objective: { scheduledTasks: 4, makespanSlots: 5, revenue: 12 } }), false, /^objective\.revenue=12 but the assignments give 10$/, false);
    // (not sent to check-plan.py: revenue is Fallow's addition to the format, which the script does not read)
    assert.equal(e.feasible, true);
    assert.equal(e.truthful, false);
  });

  test('utilisation per metric and mean resource utilisation over [0, makespan)', () => {
    const e = expectVerdict(tinyInstance(), tinyPlan(), true);
    // makespan 5; cpu available 4 + 2 per slot -> 30; used: a 2 * 2 slots * 2 tasks + b 1 * 1 slot = 9
    assert.ok(Math.abs(e.kpis.utilisation.cpu - 9 / 30) < 1e-12, `cpu ${e.kpis.utilisation.cpu}`);
    // ram available 8 + 4 per slot -> 60; used: a 1 * 2 * 2 + x 1 * 1 = 5
    assert.ok(Math.abs(e.kpis.utilisation.ram - 5 / 60) < 1e-12, `ram ${e.kpis.utilisation.ram}`);
    // product over metrics per node and slot: only n1 in slots 2-3 uses both (cpu 4/4 * ram 2/8); 2 nodes * 5 slots
    assert.ok(Math.abs(e.kpis.meanResourceUtilisation - (2 * 0.25) / 10) < 1e-12, `mru ${e.kpis.meanResourceUtilisation}`);
  });

  test('utilisation counts the forecast usage out of what is available', () => {
    const inst = tinyInstance();
    inst.usage = { n2: { cpu: Array(10).fill(0.5) } };
    const e = expectVerdict(inst, planOf(inst, GOOD.map(at)), true);
    // cpu available per slot: 4 + 2 * 0.5 = 5 -> 25 over 5 slots
    assert.ok(Math.abs(e.kpis.utilisation.cpu - 9 / 25) < 1e-12);
  });

  test('remoteTasks counts scheduled tasks whose node holds none of their replicas', () => {
    const placement = [
      { job: 'j1', stage: 'a', task: 0, nodes: ['n1', 'n2'] }, // local
      { job: 'j1', stage: 'a', task: 1, nodes: ['n2'] }, // remote: runs on n1
      // j1/b/0 has no placement entry: remote
      { job: 'j2', stage: 'x', task: 0, nodes: ['n2'] }, // local
    ];
    let e = expectVerdict(tinyInstance(), tinyPlan(GOOD, [], { placement }), true);
    assert.equal(e.kpis.remoteTasks, 2);
    e = expectVerdict(tinyInstance(), tinyPlan(['j2/x/0@n1:0'], ['j1'], { placement }), true);
    assert.equal(e.kpis.remoteTasks, 1, 'rejected jobs do not count');
    e = expectVerdict(tinyInstance(), tinyPlan(), true);
    assert.equal(e.kpis.remoteTasks, null, 'no placement, no figure');
  });
});

describe('evaluatePlan: hand-made plans against check-plan.py', () => {
  test('check-plan.py gives the same verdict (and summary where noted) on every hand-made plan above', (t) => {
    if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
    assert.ok(handMade.length >= 40, `${handMade.length} plans`);
    const answers = checkPlans(handMade);
    handMade.forEach((h, i) => {
      const py = answers[i];
      assert.equal(py.exception, undefined);
      assert.equal(py.feasible, h.ok, `check-plan.py says ${py.feasible} at ${h.where}: ${JSON.stringify(py.errors)}`);
      for (const [k, v] of Object.entries(h.summary ?? {})) assert.equal((py as any)[k], v, `check-plan.py ${k} at ${h.where}`);
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// Properties on random instances and plans

/** Materializes a case and evaluates it. */
async function evaluateCase(instance: InstanceDoc, recipe: PlanCase['recipe']) {
  const model = loadInstance(instance);
  const c = await materializePlan(instance, recipe, model);
  return { ...c, model, evaluation: evaluatePlan(model, c.plan) };
}

const brokenRecipeArb = fc.record({ recipe: planRecipeArb(), kind: fc.constantFrom(...BROKEN_KINDS) }).map(({ recipe, kind }) => ({ ...recipe, broken: kind }));

describe('evaluatePlan: properties', () => {
  test('every deliberately broken plan is rejected with a message naming the problem', async () => {
    const applied = new Map<BrokenKind, number>();
    await assertProperty(
      fc.asyncProperty(instanceArb(), brokenRecipeArb, async (instance, recipe) => {
        const { broken, evaluation: e, plan } = await evaluateCase(instance, recipe);
        if (broken === null) return; // this plan offers no way to make that break (e.g. no stage edge)
        applied.set(broken, (applied.get(broken) ?? 0) + 1);
        assert.equal(e.ok, false, `${broken}: accepted ${JSON.stringify(plan)}`);
        assert.ok(e.violationCount >= 1);
        assert.ok(
          e.violations.some((v) => EXPECTED_MESSAGE[broken].test(v)),
          `${broken}: no violation matches ${EXPECTED_MESSAGE[broken]}: ${JSON.stringify(e.violations.slice(0, 5))}`,
        );
        if (broken.startsWith('lie-')) assert.equal(e.truthful, false);
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
    // The generator must actually produce every kind, or this test proves less than it claims.
    for (const kind of BROKEN_KINDS) assert.ok((applied.get(kind) ?? 0) >= 3, `${kind} was made only ${applied.get(kind) ?? 0} times`);
  });

  test('a lie about the objective of a feasible plan leaves it feasible but untruthful', async () => {
    await assertProperty(
      fc.asyncProperty(instanceArb(), planRecipeArb(), fc.constantFrom('lie-scheduledTasks' as const, 'lie-makespan' as const), async (instance, r, kind) => {
        const { evaluation: e } = await evaluateCase(instance, { ...r, base: 'rffd', broken: kind });
        assert.deepEqual([e.ok, e.feasible, e.truthful], [false, true, false], JSON.stringify(e.violations));
      }),
      { seed: SEED, numRuns: 50 },
    );
  });

  test('the synchronous plan arbitrary: breaks are rejected, the evaluator is deterministic', () => {
    assertProperty(
      fc.property(instanceArb().chain((instance) => fc.tuple(fc.constant(instance), planArb(instance))), ([instance, c]) => {
        const model = loadInstance(instance);
        const e = evaluatePlan(model, c.plan);
        assert.deepEqual(evaluatePlan(model, clone(c.plan)), e);
        if (c.broken) assert.ok(!e.ok && e.violations.some((v) => EXPECTED_MESSAGE[c.broken!].test(v)), `${c.broken}: ${JSON.stringify(e.violations)}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('plans from solve(rffd, maxIterations 1) are accepted', async () => {
    await assertProperty(
      fc.asyncProperty(instanceArb(), planRecipeArb(), async (instance, r) => {
        const { evaluation: e, plan } = await evaluateCase(instance, { ...r, base: 'rffd', broken: null });
        assert.deepEqual(e.violations, []);
        assert.deepEqual([e.ok, e.feasible, e.truthful], [true, true, true]);
        assert.equal(e.kpis.remoteTasks, 0, 'placement puts each chunk on the node that runs the task');
        assert.equal(e.kpis.scheduledTasks, plan.assignments.length);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('KPIs are internally consistent and independent of the order of assignments', async () => {
    let feasibleSeen = 0;
    await assertProperty(
      fc.asyncProperty(instanceWithPlanArb(), async ({ instance, recipe }) => {
        const { evaluation: e, plan, model, broken } = await evaluateCase(instance, recipe);
        const k = e.kpis;
        assert.equal(e.ok, e.violationCount === 0);
        assert.ok(e.violations.length <= e.violationCount);
        if (e.ok) assert.ok(e.feasible && e.truthful);
        if (!e.truthful) assert.equal(e.ok, false);
        assert.equal(k.totalTasks, instance.jobs.reduce((n, j) => n + j.stages.reduce((m, s) => m + s.tasks, 0), 0));
        assert.equal(k.acceptedJobs + k.rejectedJobs, instance.jobs.length);
        assert.equal(k.jobs.length, instance.jobs.length);
        assert.ok(Math.abs(k.revenue - k.jobs.reduce((s, j) => s + j.revenue, 0)) < 1e-9);
        const withRevenue = k.jobs.filter((j, i) => j.accepted && instance.jobs[i].revenue !== undefined);
        assert.equal(k.onTimeJobs + k.lateJobs, withRevenue.length);
        assert.equal(k.onTimeJobs, withRevenue.filter((j) => j.onTime).length);
        for (const j of k.jobs) {
          if (!j.accepted) assert.deepEqual([j.endSlot, j.onTime, j.revenue], [null, null, 0]);
          else assert.equal(j.onTime, j.deadlineSlot === null || j.endSlot! <= j.deadlineSlot);
          if (j.accepted) assert.ok(j.endSlot! <= k.makespanSlots);
        }
        assert.ok(k.meanResourceUtilisation >= 0 && k.meanResourceUtilisation <= 1 + 1e-12);
        for (const m of instance.metrics) assert.ok(k.utilisation[m] >= 0, `utilisation.${m} = ${k.utilisation[m]}`);

        if (e.ok) {
          feasibleSeen++;
          // A feasible plan: the figures follow from the JSON alone.
          const rejected = new Set(plan.rejected);
          assert.equal(k.scheduledTasks, plan.assignments.length);
          assert.deepEqual({ scheduledTasks: k.scheduledTasks, makespanSlots: k.makespanSlots }, objectiveOf(instance, plan));
          assert.ok(k.makespanSlots <= model.T);
          let revenue = 0;
          for (const job of instance.jobs) {
            if (rejected.has(job.id) || !job.revenue) continue;
            const end = Math.max(...plan.assignments.filter((a) => a.job === job.id).map((a) => endOf(instance, a)));
            const onTime = job.deadlineSlot === undefined || end <= job.deadlineSlot;
            revenue += (onTime ? job.revenue.onTime : job.revenue.late) ?? 0;
          }
          assert.ok(Math.abs(k.revenue - revenue) < 1e-9, `revenue ${k.revenue} != ${revenue}`);
          // used <= available, up to the capacity tolerance (which dominates on tiny capacities)
          const H = Math.min(model.T, k.makespanSlots);
          for (const m of instance.metrics) {
            let area = 0;
            let slack = 0;
            for (const n of instance.nodes)
              for (let t = 0; t < H; t++) {
                const av = availableOf(instance, n.id, m, t);
                area += av;
                slack += 1e-6 * Math.max(1, av) + 1e-9;
              }
            if (area > 0) assert.ok(k.utilisation[m] * area <= area + slack + 1e-9, `utilisation.${m} = ${k.utilisation[m]} > 1`);
          }
        }

        // The order of assignments does not matter (messages name array positions, so compare the rest).
        if (broken !== 'duplicate-task') {
          const shuffled = clone(plan);
          new Random(recipe.seed).shuffle(shuffled.assignments);
          const e2 = evaluatePlan(model, shuffled);
          assert.deepEqual([e2.ok, e2.feasible, e2.truthful, e2.kpis], [e.ok, e.feasible, e.truthful, e.kpis]);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(feasibleSeen >= RUNS / 5, `only ${feasibleSeen} of ${RUNS} random plans were feasible`);
  });

  // check-plan.py does not look at assignments to stages or task indices the instance does not have; the
  // evaluator rejects them (see the unit test above). Verdicts on those two breaks are not compared.
  const CHECKER_IGNORES: (BrokenKind | null)[] = ['extra-task', 'unknown-stage'];

  test('evaluatePlan agrees with check-plan.py on verdict and summary', async (t) => {
    if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
    const arb = instanceWithPlanArb();
    // One python3 process checks the whole sample; the property below then finds its answers in the cache
    // (fast-check draws the same values for the same seed) and only shrinking asks for new ones.
    const sample = fc.sample(arb, { seed: SEED, numRuns: RUNS });
    const cases = await Promise.all(sample.map(async ({ instance, recipe }) => ({ instance, plan: (await materializePlan(instance, recipe)).plan })));
    checkPlans(cases);
    let compared = 0;
    let feasible = 0;
    await assertProperty(
      fc.asyncProperty(arb, async ({ instance, recipe }) => {
        const { evaluation: e, plan, broken } = await evaluateCase(instance, recipe);
        const py = checkPlan(instance, plan);
        assert.equal(py.exception, undefined, `check-plan.py raised ${py.exception}`);
        const context = () => `\nevaluator: ${JSON.stringify(e.violations.slice(0, 5))}\ncheck-plan.py: ${JSON.stringify(py.errors.slice(0, 5))}`;
        if (CHECKER_IGNORES.includes(broken)) assert.equal(e.ok, false);
        else assert.equal(e.ok, py.feasible, `verdicts differ (${broken ?? 'no break'})${context()}`);
        const ours = { scheduledTasks: e.kpis.scheduledTasks, makespanSlots: e.kpis.makespanSlots, onTimeJobs: e.kpis.onTimeJobs, totalTasks: e.kpis.totalTasks };
        const theirs = { scheduledTasks: py.scheduledTasks, makespanSlots: py.makespanSlots, onTimeJobs: py.onTimeJobs, totalTasks: py.totalTasks };
        assert.deepEqual(ours, theirs, `summaries differ (${broken ?? 'no break'})${context()}`);
        assert.ok(Math.abs(e.kpis.revenue - py.revenue) < 1e-9, `revenue ${e.kpis.revenue} vs ${py.revenue}`);
        assert.equal(e.kpis.rejectedJobs, new Set(plan.rejected.filter((id) => instance.jobs.some((j) => j.id === id))).size);
        compared++;
        if (py.feasible) feasible++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.equal(compared, RUNS);
    assert.ok(feasible >= RUNS / 5 && feasible <= RUNS * 0.8, `a useful mix of verdicts: ${feasible} of ${RUNS} feasible`);
  });

  test('the shared example instances: rffd plans pass both checkers', async (t) => {
    if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
    // Not random, but real: the evaluator and check-plan.py on the smaller instances in ../shared/instances.
    const dir = path.resolve(REPO_ROOT, '../shared/instances');
    const pairs: { instance: unknown; plan: PlanDoc; ok: boolean }[] = [];
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const instance = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
      const model = loadInstance(instance);
      if (model.nTasks * model.K > 30_000) continue; // keep the test quick
      const plan = await solve(model, { strategy: 'rffd', maxIterations: 1 });
      pairs.push({ instance, plan, ok: evaluatePlan(model, plan).ok });
      // and a broken copy of it
      const broken = clone(plan);
      broken.assignments.pop();
      pairs.push({ instance, plan: broken, ok: evaluatePlan(model, broken).ok });
    }
    assert.ok(pairs.length >= 4);
    const answers = checkPlans(pairs);
    pairs.forEach((p, i) => {
      assert.equal(p.ok, i % 2 === 0);
      assert.equal(answers[i].feasible, p.ok, JSON.stringify(answers[i].errors));
    });
  });
});
