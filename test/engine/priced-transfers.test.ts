/**
 * Transfers priced in plans (docs/FORMAT.md; issue 38's first step): a plan that says `"transfers": "priced"`
 * gives every task its `fetchSlots`, at least the least fetch time (network/least-fetch.ts), and the task holds
 * its node from its start through fetch and compute. The least fetch time against hand-computed cases, the
 * evaluator's rules on priced plans, and both against check-plan.py on random instances and priced plans.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { fetchSlotsOf, LeastFetch } from '../../src/engine/network/least-fetch';
import { loadInstance, Model, stageKey } from '../../src/engine/model/model';
import type { AssignmentDoc, InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { Random } from '../../src/engine/random';
import { checkerAvailable, checkPlans, SKIP_MESSAGE } from '../support/check-plan';
import { clone } from '../support/fixtures';
import { randomInstance } from '../support/random-instance';
import { leastFetchSlotsOf, PricedRecipe, pricedPlan, withTransfers } from '../support/random-transfers';

// ---------------------------------------------------------------------------------------------------
// A hand-made cluster, slots of 1 s: racks r1 {a1, a2: 1000 Mbit/s} and r2 {b1: 500, b2: 40}, and c with
// neither a rack nor a link rate; network 800 Mbit/s within a rack, 100 across racks.
// j1: map (3 tasks, 2 s, 250 MB blocks on [a1, b1], [b1], [a2], 60 MB of output each) and side (1 task, 1 s,
// no output) -> reduce (2 tasks, 3 s): each reduce reads 60 / 2 = 30 MB from every map task.

const HAND: InstanceDoc = {
  format: 'fallow.instance/v1',
  name: 'priced-hand',
  horizon: { slots: 60, slotSeconds: 1 },
  metrics: ['cpu'],
  network: { intraRackMbps: 800, interRackMbps: 100 },
  nodes: [
    { id: 'a1', rack: 'r1', bandwidthMbps: 1000, capacity: { cpu: 4 } },
    { id: 'a2', rack: 'r1', bandwidthMbps: 1000, capacity: { cpu: 4 } },
    { id: 'b1', rack: 'r2', bandwidthMbps: 500, capacity: { cpu: 4 } },
    { id: 'b2', rack: 'r2', bandwidthMbps: 40, capacity: { cpu: 4 }, maxTasks: 1 },
    { id: 'c', capacity: { cpu: 4 } },
  ],
  jobs: [
    {
      id: 'j1',
      deadlineSlot: 10,
      revenue: { onTime: 10, late: 2 },
      stages: [
        { id: 'map', tasks: 3, durationSeconds: 2, demand: { cpu: 1 }, inputMB: 250, outputMB: 60, blocks: [['a1', 'b1'], ['b1'], ['a2']] },
        { id: 'side', tasks: 1, durationSeconds: 1, demand: { cpu: 1 } },
        { id: 'reduce', tasks: 2, after: ['map', 'side'], durationSeconds: 3, demand: { cpu: 1 } },
      ],
    },
  ],
};

/** Global task index of j1/stage/task in a model of HAND (or a copy). */
function taskOf(model: Model, stage: string, task: number): number {
  return model.stages[model.stageIndex.get(stageKey('j1', stage))!].firstTask + task;
}

/** A node array placing the given tasks (`stage/task` -> node id), every other task nowhere. */
function placing(model: Model, where: Record<string, string>): Int32Array {
  const nodeOf = new Int32Array(model.nTasks).fill(-1);
  for (const [key, id] of Object.entries(where)) {
    const [stage, task] = key.split('/');
    nodeOf[taskOf(model, stage, Number(task))] = model.nodeIndex.get(id)!;
  }
  return nodeOf;
}

const MAPS_LOCAL = { 'map/0': 'a1', 'map/1': 'b1', 'map/2': 'a2', 'side/0': 'c' };

/** The least fetch slots of j1/stage/task on `node` with the others where `where` puts them. */
function least(inst: InstanceDoc, stage: string, task: number, node: string, where: Record<string, string> = MAPS_LOCAL): number {
  const model = loadInstance(inst);
  return new LeastFetch(model).slots(taskOf(model, stage, task), model.nodeIndex.get(node)!, placing(model, where));
}

describe('the least fetch time', () => {
  test('a block read: nothing on a holder, the nearest holder in the rack, else across racks', () => {
    assert.equal(least(HAND, 'map', 0, 'a1'), 0, 'node-local');
    assert.equal(least(HAND, 'map', 0, 'b1'), 0, 'node-local on the other holder');
    // a2 shares r1 with a1: 250 MB x 8 / min(1000, 1000, 800) = 2.5 s -> 3 slots (b1 across racks would take 20 s).
    assert.equal(least(HAND, 'map', 0, 'a2'), 3, 'rack-local');
    // c is in no rack: 250 x 8 / min(1000, 100) = 20 s from a1, 250 x 8 / min(500, 100) = 20 s from b1: exactly 20 slots.
    assert.equal(least(HAND, 'map', 0, 'c'), 20, 'remote, an exact multiple of the slot');
    assert.equal(least(HAND, 'map', 2, 'a1'), 3, 'rack-local to a2');
    assert.equal(least(HAND, 'map', 1, 'a1'), 20, 'remote from b1: 250 x 8 / min(500, 1000, 100)');
  });

  test("the smallest rate counts: a node's own link below the network's", () => {
    // b2's link (40) is below both the rack rate (800, from b1) and the cross-rack rate (100, from a1): 2000 / 40 = 50 s.
    assert.equal(least(HAND, 'map', 0, 'b2'), 50);
    assert.equal(least(HAND, 'map', 1, 'b2'), 50);
    const model = loadInstance(HAND);
    const fetch = new LeastFetch(model);
    const k = (id: string) => model.nodeIndex.get(id)!;
    assert.equal(fetch.transferSeconds(100, k('a1'), k('a2')), 1, 'same rack: min(1000, 1000, 800) = 800');
    assert.equal(fetch.transferSeconds(100, k('a1'), k('b1')), 8, 'across racks: min(1000, 500, 100) = 100');
    assert.equal(fetch.transferSeconds(100, k('b1'), k('b2')), 20, 'same rack, b2 the bottleneck: 40');
    assert.equal(fetch.transferSeconds(100, k('c'), k('c')), 0, 'a node to itself moves nothing');
    assert.equal(fetch.transferSeconds(0, k('a1'), k('c')), 0, 'nothing to move');
    // Nodes without a rack share none: two of them talk across racks.
    const rackless = clone(HAND);
    rackless.nodes.push({ id: 'd', capacity: { cpu: 1 } });
    const m2 = loadInstance(rackless);
    assert.equal(new LeastFetch(m2).transferSeconds(100, m2.nodeIndex.get('c')!, m2.nodeIndex.get('d')!), 8, 'c to d at the cross-rack 100');
  });

  test('rates partly given: only the links, only the network, none at all', () => {
    const linksOnly = clone(HAND);
    delete linksOnly.network;
    // a2 from a1: 2000 / min(1000, 1000) = 2 s; c from a1: c gives no rate, a1's 1000 alone: 2 s.
    assert.equal(least(linksOnly, 'map', 0, 'a2'), 2);
    assert.equal(least(linksOnly, 'map', 0, 'c'), 2);
    const networkOnly = clone(HAND);
    for (const n of networkOnly.nodes) delete n.bandwidthMbps;
    assert.equal(least(networkOnly, 'map', 0, 'a2'), 3, '2000 / 800 = 2.5 s');
    assert.equal(least(networkOnly, 'map', 0, 'b2'), 3, 'b1 shares r2: 2.5 s');
    assert.equal(least(networkOnly, 'map', 0, 'c'), 20, '2000 / 100');
    const none = clone(networkOnly);
    delete none.network;
    for (const [stage, task] of [['map', 0], ['map', 1], ['reduce', 0], ['reduce', 1]] as const)
      for (const node of ['a1', 'a2', 'b1', 'b2', 'c']) assert.equal(least(none, stage, task, node), 0, `${stage}/${task} on ${node}: no rate given, no time`);
  });

  test('a stage without blocks reads where its input was placed: nothing', () => {
    const noBlocks = clone(HAND);
    delete noBlocks.jobs[0].stages[0].blocks;
    for (const node of ['a1', 'b2', 'c']) assert.equal(least(noBlocks, 'map', 0, node), 0);
  });

  test('the shuffle: 1/tasks of every earlier task output, from where each of them runs, one after another', () => {
    // Maps on a1, b1, a2; each reduce reads 30 MB of each. On a1: 0 + 30 x 8 / 100 (b1) + 30 x 8 / 800 (a2) = 2.7 s.
    assert.equal(least(HAND, 'reduce', 0, 'a1'), 3);
    assert.equal(least(HAND, 'reduce', 1, 'a1'), 3, 'every reduce reads the same share');
    // On a2: 0.3 (a1) + 2.4 (b1) + 0 = 2.7 s; on c: 2.4 from each = 7.2 s; on b2: 240 / 40 = 6 s from each = 18 s.
    assert.equal(least(HAND, 'reduce', 0, 'a2'), 3);
    assert.equal(least(HAND, 'reduce', 0, 'c'), 8);
    assert.equal(least(HAND, 'reduce', 0, 'b2'), 18);
    // It depends on where the maps ARE placed: all three on a1 leave a reduce on a1 nothing to fetch ...
    const together = { 'map/0': 'a1', 'map/1': 'a1', 'map/2': 'a1', 'side/0': 'c' };
    assert.equal(least(HAND, 'reduce', 0, 'a1', together), 0);
    // ... and one on a2 costs 0.3 s: one slot.
    assert.equal(least(HAND, 'reduce', 0, 'a1', { ...together, 'map/2': 'a2' }), 1);
    // A predecessor without outputMB (side) sends nothing; a stage with more tasks reads a smaller share each.
    const wide = clone(HAND);
    wide.jobs[0].stages[2].tasks = 4; // 15 MB of each map: 1.2 + 1.2 + 1.2 = 3.6 s on c
    assert.equal(least(wide, 'reduce', 3, 'c'), 4);
    // A block and a shuffle add up: a reduce with its own 250 MB blocks on [b1], on a1: 20 s + 2.7 s.
    const both = clone(HAND);
    Object.assign(both.jobs[0].stages[2], { inputMB: 250, blocks: [['b1'], ['a1']] });
    assert.equal(least(both, 'reduce', 0, 'a1'), 23);
    assert.equal(least(both, 'reduce', 1, 'a1'), 3, 'its own block on a1: the shuffle alone');
  });

  test('slots: ceil(seconds / slotSeconds - 1e-9)', () => {
    assert.equal(fetchSlotsOf(0, 60), 0);
    assert.equal(fetchSlotsOf(0.001, 60), 1, 'any transfer takes at least one slot');
    assert.equal(fetchSlotsOf(120, 60), 2, 'an exact multiple is not rounded up');
    assert.equal(fetchSlotsOf(120.001, 60), 3);
    assert.equal(fetchSlotsOf(0.1 + 0.2, 0.1), 3, '3.0000000000000004 slots are 3');
    // The same from a plan: a reduce on x reads 10 MB from y (at 800: 0.1 s) and from z (at 400: 0.2 s), slots of 0.1 s.
    const inst: InstanceDoc = {
      format: 'fallow.instance/v1',
      name: 'ceil',
      horizon: { slots: 20, slotSeconds: 0.1 },
      metrics: ['cpu'],
      nodes: ['x', 'y', 'z'].map((id) => ({ id, bandwidthMbps: id === 'z' ? 400 : 800, capacity: { cpu: 1 } })),
      jobs: [
        {
          id: 'j1',
          stages: [
            { id: 'map', tasks: 2, durationSeconds: 0.1, demand: { cpu: 1 }, outputMB: 20 },
            { id: 'reduce', tasks: 2, after: ['map'], durationSeconds: 0.1, demand: { cpu: 1 } },
          ],
        },
      ],
    };
    assert.equal(least(inst, 'reduce', 0, 'x', { 'map/0': 'y', 'map/1': 'z' }), 3);
  });

  test('plan(): the whole plan at once gives what slots() gives task by task', () => {
    const inst = withTransfers(randomInstance(7), 7);
    const model = loadInstance(inst);
    const rng = new Random(7);
    const fetch = new LeastFetch(model);
    for (let round = 0; round < 20; round++) {
      const nodeOf = Int32Array.from({ length: model.nTasks }, () => (rng.next() < 0.1 ? -1 : rng.int(model.K)));
      const all = fetch.plan(nodeOf);
      for (let i = 0; i < model.nTasks; i++) assert.equal(all[i], nodeOf[i] < 0 ? -1 : fetch.slots(i, nodeOf[i], nodeOf));
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// The evaluator on priced plans of HAND. The reference: maps and side at 0 where their blocks are (no fetch),
// reduce 0 on a1 (fetch 3) and reduce 1 on c (fetch 8) from slot 2: ends 8 and 13.

function pricedOf(inst: InstanceDoc, rows: [string, number, string, number, number | undefined][], extra: Partial<PlanDoc> = {}): PlanDoc {
  const assignments: AssignmentDoc[] = rows.map(([stage, task, node, start, fetchSlots]) => ({
    job: 'j1',
    stage,
    task,
    node,
    start,
    ...(fetchSlots === undefined ? {} : { fetchSlots }),
  }));
  const model = loadInstance(inst);
  const ends = rows.map(([stage, , node, start, fetchSlots]) => start + (fetchSlots ?? 0) + model.stages[model.stageIndex.get(stageKey('j1', stage))!].dur[model.nodeIndex.get(node)!]);
  return {
    format: 'fallow.plan/v1',
    instance: inst.name,
    strategy: 'hand',
    transfers: 'priced',
    assignments,
    rejected: [],
    objective: { scheduledTasks: rows.length, makespanSlots: Math.max(...ends) },
    ...extra,
  };
}

type Row = [string, number, string, number, number | undefined];
const REFERENCE: Row[] = [
  ['map', 0, 'a1', 0, 0],
  ['map', 1, 'b1', 0, 0],
  ['map', 2, 'a2', 0, 0],
  ['side', 0, 'c', 0, 0],
  ['reduce', 0, 'a1', 2, 3],
  ['reduce', 1, 'c', 2, 8],
];
const withRow = (n: number, row: Row): Row[] => REFERENCE.map((r, i) => (i === n ? row : r));

const hand: { name: string; inst: InstanceDoc; plan: PlanDoc }[] = [];
function evaluate(name: string, plan: PlanDoc, inst: InstanceDoc = HAND) {
  hand.push({ name, inst, plan });
  return evaluatePlan(loadInstance(inst), plan);
}

describe('the evaluator on priced plans', () => {
  test('a priced plan at the least fetch times: feasible, its tasks end after fetch and compute', () => {
    const e = evaluate('reference', pricedOf(HAND, REFERENCE));
    assert.deepEqual(e.violations, []);
    assert.equal(e.kpis.makespanSlots, 13);
    assert.equal(e.kpis.scheduledTasks, 6);
    // The job ends at 13, after its deadline 10 (it would end at 5 with compute alone): late, revenue 2.
    assert.deepEqual(e.kpis.jobs[0], { id: 'j1', accepted: true, endSlot: 13, deadlineSlot: 10, onTime: false, revenue: 2 });
    assert.equal(e.kpis.revenue, 2);
    assert.equal(e.kpis.lateJobs, 1);
  });

  test('more than the least is fine (padding for contention) and counts in full', () => {
    const e = evaluate('padded', pricedOf(HAND, withRow(5, ['reduce', 1, 'c', 2, 10])));
    assert.deepEqual(e.violations, []);
    assert.equal(e.kpis.makespanSlots, 15);
  });

  test('fetchSlots below the least is a violation naming the task, its fetchSlots and the least', () => {
    // The task then counts with the least (as check-plan.py counts it): the objective's 13 stays true.
    const plan = pricedOf(HAND, withRow(5, ['reduce', 1, 'c', 2, 7]), { objective: { scheduledTasks: 6, makespanSlots: 13 } });
    const e = evaluate('below', plan);
    assert.deepEqual(e.violations, ['task j1/reduce/1 on node "c": fetchSlots 7 below the least fetch time 8']);
    assert.equal(e.feasible, false);
    assert.equal(e.kpis.makespanSlots, 13);
    // A map read remotely needs its fetch too: map 1 on a1 reads 250 MB from b1, 20 s.
    const remote = evaluate('remote-map', pricedOf(HAND, withRow(1, ['map', 1, 'a1', 0, 0])));
    assert.ok(remote.violations.includes('task j1/map/1 on node "a1": fetchSlots 0 below the least fetch time 20'), remote.violations.join('\n'));
  });

  test('a priced plan without fetchSlots, or with a malformed one, is refused by path', () => {
    for (const [value, shown] of [[undefined, 'nothing'], [1.5, '1.5'], [-1, '-1'], ['3', '"3"']] as const) {
      const plan = pricedOf(HAND, REFERENCE);
      if (value === undefined) delete plan.assignments[4].fetchSlots;
      else (plan.assignments[4] as unknown as Record<string, unknown>).fetchSlots = value;
      const e = evaluate(`malformed ${shown}`, plan);
      assert.deepEqual(e.violations, [`assignments[4].fetchSlots: must be an integer >= 0 in a plan with "transfers": "priced", got ${shown}`]);
      assert.equal(e.ok, false);
      assert.equal(e.kpis.makespanSlots, 13, 'the task counts with the least fetch time');
    }
  });

  test('"transfers" takes only "priced"', () => {
    // Read as unpriced otherwise (its objective is compute alone's), so that is the one violation.
    const plan = pricedOf(HAND, REFERENCE, { transfers: 'yes' as 'priced', objective: { scheduledTasks: 6, makespanSlots: 5 } });
    const e = evaluate('transfers yes', plan);
    assert.deepEqual(e.violations, ['transfers: must be "priced" when given, got "yes"']);
    assert.equal(e.ok, false);
  });

  test('an unpriced plan ignores fetchSlots: it is evaluated exactly as without them', () => {
    const priced = pricedOf(HAND, REFERENCE);
    const { transfers: _, ...unpriced } = priced;
    unpriced.objective = { scheduledTasks: 6, makespanSlots: 5 };
    const bare = clone(unpriced);
    for (const a of bare.assignments) delete a.fetchSlots;
    const e = evaluate('unpriced with fetchSlots', unpriced);
    assert.deepEqual(e.violations, []);
    assert.deepEqual(e, evaluatePlan(loadInstance(HAND), bare));
    assert.equal(e.kpis.jobs[0].onTime, true, 'compute alone ends at 5, by the deadline 10');
  });

  test('rule 3: the fetch counts in the window', () => {
    const short = { ...clone(HAND), horizon: { slots: 12, slotSeconds: 1 } };
    const e = evaluate('window', pricedOf(short, REFERENCE), short);
    assert.deepEqual(e.violations, ['task j1/reduce/1 runs [2, 13) outside the window [0, 12)']);
  });

  test('rule 4: a stage starts after its predecessors have fetched and computed', () => {
    // map 2 on a1 fetches 3 slots (rack-local from a2): it ends at 5, and the reduces may not start at 2.
    const rows = withRow(2, ['map', 2, 'a1', 0, 3]);
    const plan = pricedOf(HAND, rows);
    const e = evaluate('precedence', plan);
    assert.ok(e.violations.includes('job "j1": stage "reduce" starts at 2 before stage "map" ends at 5'), e.violations.join('\n'));
    // From 5 on it is fine (the reduces now read map 2 from a1: 0 + 2.4 + 0 on a1, 7.2 s on c).
    const later = rows.map((r): Row => (r[0] === 'reduce' ? [r[0], r[1], r[2], 5, r[2] === 'a1' ? 3 : 8] : r));
    assert.deepEqual(evaluate('precedence ok', pricedOf(HAND, later)).violations, []);
  });

  test('rule 5: a task holds its demand and its task slot while it fetches', () => {
    // b2 runs one task at a time: side (1 slot from 0, no fetch) and reduce 0 (fetch 18 from 2) are fine ...
    const capped = withRow(3, ['side', 0, 'b2', 0, 0]).map((r): Row => (r[0] === 'reduce' && r[1] === 0 ? ['reduce', 0, 'b2', 2, 18] : r));
    assert.deepEqual(evaluate('b2 one at a time', pricedOf(HAND, capped)).violations, []);
    // ... but side at slot 10 falls in reduce 0's fetch [2, 20) on b2.
    const sideLate = capped.map((r): Row => (r[0] === 'side' ? ['side', 0, 'b2', 10, 0] : r));
    const e = evaluate('b2 busy fetching', pricedOf(HAND, sideLate));
    assert.ok(e.violations.some((v) => v.startsWith('node "b2" slot 10: 2 tasks > maxTasks 1')), e.violations.join('\n'));
    assert.ok(e.violations.includes('job "j1": stage "reduce" starts at 2 before stage "side" ends at 11'));
    assert.deepEqual(e.overloads, [{ node: 'b2', metric: 'tasks', slot: 10, demand: 2, available: 1 }]);
    // Capacity: a reservation of 3.5 cpu on c over slots 5-6 leaves 0.5, less than reduce 1 holds while it fetches.
    const reserved = { ...clone(HAND), reserved: { c: { cpu: [0, 0, 0, 0, 0, 3.5, 3.5] } } };
    const r = evaluate('reserved during the fetch', pricedOf(reserved, REFERENCE), reserved);
    assert.deepEqual(r.violations, ['node "c" metric "cpu" slot 5: demand 1 > available 0.5', 'node "c" metric "cpu" slot 6: demand 1 > available 0.5']);
    assert.deepEqual(
      r.overloads.map((o) => `${o.node}/${o.metric}/${o.slot}`),
      ['c/cpu/5', 'c/cpu/6'],
    );
  });

  test('rule 6: the objective reports the priced makespan', () => {
    const e = evaluate('compute-only makespan', pricedOf(HAND, REFERENCE, { objective: { scheduledTasks: 6, makespanSlots: 5 } }));
    assert.deepEqual(e.violations, ['objective.makespanSlots=5 but the assignments give 13']);
    assert.equal(e.feasible, true);
    assert.equal(e.truthful, false);
  });

  test('check-plan.py gives the same verdict, makespan and revenue on every hand-made priced plan above', (t) => {
    if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
    assert.ok(hand.length >= 15, `${hand.length} hand-made plans`);
    checkPlans(hand.map((h) => ({ instance: h.inst, plan: h.plan }))).forEach((py, i) => {
      const e = evaluatePlan(loadInstance(hand[i].inst), hand[i].plan);
      const what = `${hand[i].name}: check-plan.py ${JSON.stringify(py.errors)}, ours ${JSON.stringify(e.violations)}`;
      assert.equal(py.exception, undefined, what);
      // "transfers": "yes" is refused here; check-plan.py reads it as unpriced (the one deliberate difference).
      if (hand[i].name === 'transfers yes') return assert.equal(py.feasible, true, what);
      assert.equal(py.feasible, e.ok, what);
      assert.equal(py.makespanSlots, e.kpis.makespanSlots, what);
      assert.equal(py.revenue, e.kpis.revenue, what);
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// Random instances with racks, rates, blocks and outputs, random priced plans: both checkers agree.

const CASES = 600;

function recipeOf(seed: number): PricedRecipe {
  const rng = new Random(seed ^ 0x9e3779b9);
  return {
    seed,
    rejectRate: rng.pick([0, 0, 0.2]),
    packing: rng.pick(['first-fit', 'first-fit', 'compute-only', 'random'] as const),
    below: rng.pick([0, 0, 0.15]),
    above: rng.pick([0, 0.3]),
    forgetFetch: rng.pick([0, 0.5, 1]),
    malformed: rng.pick([0, 0, 0, 0.05]),
    priced: rng.next() < 0.9,
  };
}

describe('priced plans: the evaluator and check-plan.py agree', () => {
  const cases: { instance: InstanceDoc; plan: PlanDoc; recipe: PricedRecipe }[] = [];
  for (let seed = 1; cases.length < CASES; seed++) {
    const instance = withTransfers(randomInstance(5000 + seed), seed);
    cases.push({ instance, plan: pricedPlan(instance, recipeOf(seed)), recipe: recipeOf(seed) });
  }

  test('the least fetch time of every placed task equals the independent reading of the specification', () => {
    let nonZero = 0;
    for (const { instance, plan } of cases) {
      const model = loadInstance(instance);
      const where = new Map(plan.assignments.map((a) => [`${a.job}/${a.stage}/${a.task}`, a.node]));
      const nodeOf = new Int32Array(model.nTasks).fill(-1);
      for (const a of plan.assignments) nodeOf[model.stages[model.stageIndex.get(stageKey(a.job, a.stage))!].firstTask + a.task] = model.nodeIndex.get(a.node)!;
      const fetch = new LeastFetch(model);
      for (const a of plan.assignments) {
        const job = instance.jobs.find((j) => j.id === a.job)!;
        const stage = job.stages.find((s) => s.id === a.stage)!;
        const expected = leastFetchSlotsOf(instance, job, stage, a.task, a.node, (j, s, i) => where.get(`${j}/${s}/${i}`));
        const i = model.stages[model.stageIndex.get(stageKey(a.job, a.stage))!].firstTask + a.task;
        assert.equal(fetch.slots(i, nodeOf[i], nodeOf), expected, `${a.job}/${a.stage}/${a.task} on ${a.node} of ${JSON.stringify(instance)}`);
        if (expected > 0) nonZero++;
      }
    }
    assert.ok(nonZero > 500, `${nonZero} tasks with a fetch to price`);
  });

  test(`${CASES} random priced plans: identical verdicts, makespans, scheduled tasks and revenues`, (t) => {
    if (!checkerAvailable()) return t.skip(SKIP_MESSAGE);
    const ours = cases.map((c) => evaluatePlan(loadInstance(c.instance), c.plan));
    const seen = { feasible: 0, feasibleWithFetch: 0, below: 0, capacity: 0, precedence: 0, malformed: 0, unpriced: 0 };
    checkPlans(cases).forEach((py, i) => {
      const e = ours[i];
      const what = `case ${i} (${JSON.stringify(cases[i].recipe)}): check-plan.py ${JSON.stringify(py.errors.slice(0, 3))}, ours ${JSON.stringify(e.violations.slice(0, 3))}`;
      assert.equal(py.exception, undefined, what);
      assert.equal(py.feasible, e.ok, `verdicts differ on ${what}`);
      assert.equal(py.makespanSlots, e.kpis.makespanSlots, what);
      assert.equal(py.scheduledTasks, e.kpis.scheduledTasks, what);
      assert.ok(Math.abs(py.revenue - e.kpis.revenue) < 1e-9, what);
      assert.equal(py.onTimeJobs, e.kpis.onTimeJobs, what);
      const v = e.violations.join('\n');
      if (e.ok) seen.feasible++;
      if (e.ok && cases[i].plan.transfers && cases[i].plan.assignments.some((a) => (a.fetchSlots ?? 0) > 0)) seen.feasibleWithFetch++;
      if (/below the least fetch time/.test(v)) seen.below++;
      if (/metric ".*" slot \d+: demand|tasks > maxTasks/.test(v)) seen.capacity++;
      if (/starts at -?\d+ before stage/.test(v)) seen.precedence++;
      if (/\.fetchSlots: must be/.test(v)) seen.malformed++;
      if (!cases[i].plan.transfers) seen.unpriced++;
    });
    t.diagnostic(JSON.stringify(seen));
    assert.ok(seen.feasible > CASES / 5 && seen.feasible < (CASES * 4) / 5, `a useful mix of verdicts: ${JSON.stringify(seen)}`);
    for (const [k, n] of Object.entries(seen)) assert.ok(n >= 10, `too few cases of ${k}: ${JSON.stringify(seen)}`);
  });
});
