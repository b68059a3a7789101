/**
 * Closed loop in the simulator (issue 39, part 4): node outages of the actual-usage input, and a plan replay
 * re-planned as it runs (src/engine/simulate/closed-loop.ts, simulation.ts simulateReplanning). The hand-made
 * instance is small enough to follow by hand (see `lostNode`).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ValidationError } from '../../src/engine/model/errors';
import { loadInstance, Model } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { ReplanState, simulatePlan, simulateReplanning, solveReplanner } from '../../src/engine/simulation';
import { solve } from '../../src/engine/solve';
import { at, planOf } from '../support/fixtures';
import { node, runDriver } from '../support/sim-fixtures';
import { HadoopPolicy } from '../../src/engine/policies/hadoop/hadoop';
import { CuckooPolicy } from '../../src/engine/policies/cuckoo/cuckoo';

/**
 * Three nodes that run one task at a time (slots of 50 s). Job x: 2 maps of 100 s, then a reduce of 200 s;
 * job y: 6 maps of 100 s. The plan runs x on c (maps at 0 and 100 s, the reduce at 200 s) and y's maps on a and
 * b, three each: 400 s.
 */
function lostNode(): { doc: InstanceDoc; plan: PlanDoc } {
  const doc: InstanceDoc = {
    format: 'fallow.instance/v1',
    name: 'lost-node',
    horizon: { slots: 40, slotSeconds: 50 },
    metrics: ['cpu', 'ram'],
    nodes: ['a', 'b', 'c'].map((id) => node(id, { maxTasks: 1 })),
    jobs: [
      {
        id: 'x',
        stages: [
          { id: 'map', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 100 },
          { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1, ram: 1 }, durationSeconds: 200 },
        ],
      },
      { id: 'y', stages: [{ id: 'map', tasks: 6, demand: { cpu: 1, ram: 1 }, durationSeconds: 100 }] },
    ],
  };
  const plan = planOf(doc, [
    at('x/map/0@c:0'),
    at('x/map/1@c:2'),
    at('x/reduce/0@c:4'),
    ...[0, 1, 2].map((n) => at(`y/map/${n}@a:${2 * n}`)),
    ...[3, 4, 5].map((n) => at(`y/map/${n}@b:${2 * (n - 3)}`)),
  ]);
  return { doc, plan };
}

/** Node c lost at 50 s (mid-way through x/map/0), for good or back at `back` s. */
const lostC = (back?: number) => [{ node: 'c', fromSeconds: 50, ...(back !== undefined ? { toSeconds: back } : {}) }];

/** A replanner that keeps every state it was handed and the plan it returned. */
function recording(budget = { maxIterations: 300 }) {
  const seen: { state: ReplanState; plan: PlanDoc }[] = [];
  const inner = solveReplanner({ strategy: 'ls', ...budget, seed: 1 });
  return {
    seen,
    replanner: async (state: ReplanState) => {
      const plan = await inner(state);
      seen.push({ state, plan });
      return plan;
    },
  };
}

describe('node outages', () => {
  test('a lost node: its task is killed and relaunched elsewhere, nothing starts there until it is back', () => {
    const { doc, plan } = lostNode();
    const model = loadInstance(doc);
    const never = simulatePlan(model, plan, { outages: lostC() });
    // x/map/0 is killed at 50 s: the static replay relaunches it, and x's other tasks due on c, where the plan
    // leaves room (relaunch.ts): a and b run y's maps until 300 s, so x's reduce runs 400-600 s.
    assert.equal(never.relaunches, 1);
    assert.equal(never.unfinishedJobs, 0);
    assert.equal(never.makespanSeconds, 600);
    assert.equal(never.jobs.find((j) => j.id === 'x')!.kills, 1);
    // Back at 150 s: x/map/1 (due at 100 s on c) was relaunched on b at 200 s, the reduce runs on c from 300 s.
    const back = simulatePlan(model, plan, { outages: lostC(150) });
    assert.equal(back.relaunches, 1);
    assert.ok(back.makespanSeconds < never.makespanSeconds, `${back.makespanSeconds} vs ${never.makespanSeconds}`);
    // Without the outage the plan runs as planned.
    assert.equal(simulatePlan(model, plan).makespanSeconds, 400);
  });

  test('online policies start nothing on a lost node', () => {
    const { doc } = lostNode();
    for (const make of [(m: Model) => new HadoopPolicy(m), (m: Model) => new CuckooPolicy(m)]) {
      const { sim, model, report } = runDriver(doc, make, undefined, 'cuckoo', 1, { outages: [{ k: 2, from: 0, to: 250, returnKnown: false }] });
      assert.equal(report.unfinishedJobs, 0, report.driver);
      assert.equal(report.relaunches, 0, `${report.driver}: nothing ran on c when it went, so nothing was killed`);
      for (let i = 0; i < model.nTasks; i++) if (sim.node[i] === 2) assert.ok(sim.startedAt[i] >= 250, `${report.driver}: task ${i} started on c at ${sim.startedAt[i]} s`);
    }
  });

  test('bad outages are refused, every problem by its path', () => {
    const { doc, plan } = lostNode();
    const model = loadInstance(doc);
    try {
      simulatePlan(model, plan, { outages: [{ node: 'zz', fromSeconds: -1 }, { node: 'a', fromSeconds: 10, toSeconds: 5, returnKnown: 'yes' as unknown as boolean }] });
      assert.fail('accepted bad outages');
    } catch (e) {
      assert.ok(e instanceof ValidationError);
      assert.deepEqual(
        e.issues.map((i) => i.path),
        ['outages[0].node', 'outages[0].fromSeconds', 'outages[1].toSeconds', 'outages[1].returnKnown'],
      );
    }
  });
});

describe('closed loop: re-planning a plan replay', () => {
  test('a node lost mid-run: the static replay relaunches where the plan leaves room, the re-planned one re-places x and ends earlier', async () => {
    const { doc, plan } = lostNode();
    const model = loadInstance(doc);
    const staticRun = simulatePlan(model, plan, { outages: lostC() });
    const { seen, replanner } = recording();
    const run = await simulateReplanning(model, plan, { outages: lostC(), replan: { onNodeLost: true, onKill: true, replanner } });
    assert.equal(run.unfinishedJobs, 0);
    // One re-plan, at the loss: y/map/0 and y/map/3 run on a and b since 0 (frozen); x's maps go to a and b
    // first, its reduce after them, y's four other maps around it: 500 s, the least two nodes allow.
    assert.equal(run.replan.replans.length, 1);
    const r = run.replan.replans[0];
    assert.equal(r.trigger, 'node-lost');
    assert.equal(r.outcome, 'adopted');
    assert.equal(r.atSeconds, 50);
    assert.equal(r.nowSlot, 1);
    assert.equal(r.frozenTasks, 2);
    const { state, plan: next } = seen[0];
    assert.deepEqual(
      state.instance.frozen.assignments.map((a) => `${a.job}/${a.stage}/${a.task}@${a.node}:${a.start}`).sort(),
      ['y/map/0@a:0', 'y/map/3@b:0'],
    );
    assert.deepEqual(state.lost, [{ node: 'c', fromSeconds: 50, backSeconds: null, announced: false }]);
    assert.deepEqual(state.instance.usage!.c.cpu.slice(0, 3), [0, 1, 1], 'c is lost from slot 1 to the end of the window');
    for (const a of next.assignments) assert.notEqual(a.node, 'c', `${a.job}/${a.stage}/${a.task} planned on the lost node`);
    assert.equal(run.makespanSeconds, 500);
    assert.ok(run.makespanSeconds < staticRun.makespanSeconds);
    assert.equal(run.relaunches, 1, 'x/map/0 was killed once, by the loss');
  });

  test('a re-plan with nothing changed keeps the plan: nothing moves, the run is the static replay', async () => {
    // The plan of lostNode without the loss is optimal (400 s: 3 nodes, 6 units of y and x's chain of 8 slots).
    const { doc, plan } = lostNode();
    const model = loadInstance(doc);
    const staticRun = simulatePlan(model, plan);
    const { seen, replanner } = recording();
    const run = await simulateReplanning(model, plan, { replan: { everySeconds: 50, replanner } });
    // At 50, 100, 150 and 200 s; from then on every task has started (nothing to plan).
    assert.equal(run.replan.replans.length, 4);
    assert.equal(run.replan.skipped['nothing-to-plan'], 3);
    for (const r of run.replan.replans) {
      assert.equal(r.trigger, 'periodic');
      assert.equal(r.outcome, 'adopted', r.error);
      assert.equal(r.movedTasks, 0, `at ${r.atSeconds} s: ${r.movedTasks} moved`);
    }
    for (const { plan: p } of seen) assert.deepEqual(key(p), key(plan));
    assert.equal(run.makespanSeconds, staticRun.makespanSeconds);
    assert.equal(run.relaunches, 0);
  });

  test('the state has the started tasks frozen at their actual starts, and the returned plan keeps them (the evaluator says so)', async () => {
    const { doc, plan } = lostNode();
    const model = loadInstance(doc);
    const { seen, replanner } = recording();
    await simulateReplanning(model, plan, { outages: lostC(), replan: { everySeconds: 100, replanner } });
    assert.ok(seen.length >= 3, `${seen.length} re-plans`);
    let followed = plan;
    for (const { state, plan: next } of seen) {
      // Every task started as the plan it followed said (this run has no other surprise than the loss, and the
      // task killed by it is not frozen): its frozen node and start are that plan's, and the run has started
      // exactly those tasks whose start has come.
      const planned = new Map(followed.assignments.map((a) => [`${a.job}/${a.stage}/${a.task}`, a]));
      for (const f of state.instance.frozen.assignments) {
        const p = planned.get(`${f.job}/${f.stage}/${f.task}`)!;
        assert.equal(`${f.node}:${f.start}`, `${p.node}:${p.start}`, `${f.job}/${f.stage}/${f.task} at ${state.nowSeconds} s`);
        assert.ok(f.start <= state.nowSlot);
      }
      const check = evaluatePlan(loadInstance(state.instance), next);
      assert.ok(check.ok, check.violations.slice(0, 5).join('; '));
      const kept = new Map(next.assignments.map((a) => [`${a.job}/${a.stage}/${a.task}`, a]));
      for (const f of state.instance.frozen.assignments) {
        const a = kept.get(`${f.job}/${f.stage}/${f.task}`)!;
        assert.equal(`${a.node}:${a.start}`, `${f.node}:${f.start}`, `frozen ${f.job}/${f.stage}/${f.task} moved`);
      }
      for (const a of next.assignments)
        if (!state.instance.frozen.assignments.some((f) => f.job === a.job && f.stage === a.stage && f.task === a.task)) assert.ok(a.start >= state.nowSlot, `${a.job}/${a.stage}/${a.task} starts at ${a.start} before ${state.nowSlot}`);
      followed = next;
    }
  });

  test('a lost node comes back when its return is announced, or when the loop expects it back', async () => {
    const { doc, plan } = lostNode();
    const model = loadInstance(doc);
    const announced = recording();
    await simulateReplanning(model, plan, { outages: [{ node: 'c', fromSeconds: 50, toSeconds: 250, returnKnown: true }], replan: { onKill: false, replanner: announced.replanner } });
    const first = announced.seen[0].state;
    assert.deepEqual(first.lost, [{ node: 'c', fromSeconds: 50, backSeconds: 250, announced: true }]);
    assert.deepEqual(first.instance.usage!.c.ram.slice(0, 7), [0, 1, 1, 1, 1, 0, 0], 'lost in slots 1-4, back at slot 5 (250 s)');
    const expected = recording();
    await simulateReplanning(model, plan, { outages: lostC(), replan: { expectedOutageSeconds: 100, replanner: expected.replanner } });
    assert.deepEqual(expected.seen[0].state.lost, [{ node: 'c', fromSeconds: 50, backSeconds: 150, announced: false }]);
    assert.deepEqual(expected.seen[0].state.instance.usage!.c.cpu.slice(0, 4), [0, 1, 1, 0]);
  });

  test('tasks that overcommit a node (CPU is throttled, not refused) are frozen on a node made as large as they need, other slots unchanged', async () => {
    // Node a: 2 CPUs. j1's map (1 CPU) is planned 0-100 s but the regular customers take 3/4 of the CPU until
    // 200 s, so it runs at half speed, 0-200 s, and its reduce starts at 200 s, not 100 s, and runs to 400 s;
    // j2's task (2 CPUs) starts as planned at 300 s: 3 CPUs run on a from 300 s. j3's task is still to start at
    // the re-plan at 350 s.
    const doc: InstanceDoc = {
      format: 'fallow.instance/v1',
      name: 'overcommit',
      horizon: { slots: 20, slotSeconds: 50 },
      metrics: ['cpu', 'ram'],
      nodes: [node('a', { capacity: { cpu: 2, ram: 16 } })],
      jobs: [
        { id: 'j1', stages: [{ id: 'map', tasks: 1, demand: { cpu: 1, ram: 1 }, durationSeconds: 100 }, { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1, ram: 1 }, durationSeconds: 200 }] },
        { id: 'j2', stages: [{ id: 'map', tasks: 1, demand: { cpu: 2, ram: 1 }, durationSeconds: 200 }] },
        { id: 'j3', stages: [{ id: 'map', tasks: 1, demand: { cpu: 1, ram: 1 }, durationSeconds: 100 }] },
      ],
    };
    const plan = planOf(doc, [at('j1/map/0@a:0'), at('j1/reduce/0@a:2'), at('j2/map/0@a:6'), at('j3/map/0@a:10')]);
    const model = loadInstance(doc);
    const actual = { a: { cpu: Array.from({ length: 20 }, (_, t) => (t < 4 ? 0.75 : 0)) } };
    const { seen, replanner } = recording();
    const run = await simulateReplanning(model, plan, { actual, replan: { everySeconds: 350, onKill: false, onNodeLost: false, replanner } });
    assert.equal(run.unfinishedJobs, 0);
    const { state, plan: next } = seen[0];
    assert.equal(state.nowSlot, 7);
    assert.deepEqual(state.instance.frozen.assignments.map((f) => `${f.job}/${f.stage}@${f.start}`), ['j1/map@0', 'j1/reduce@4', 'j2/map@6']);
    assert.equal(state.instance.nodes[0].capacity.cpu, 3, 'the frozen tasks need 3 CPUs at slot 7');
    // Every slot keeps the room it had, 3 x (1 - u) = 2 x (1 - actual or forecast), but slot 7: 3 CPUs, all frozen.
    const room = state.instance.usage!.a.cpu.map((u) => Math.round(3 * (1 - u) * 1e6) / 1e6);
    assert.deepEqual(room.slice(0, 10), [0.5, 0.5, 0.5, 0.5, 2, 2, 2, 3, 2, 2]);
    const check = evaluatePlan(loadInstance(state.instance), next);
    assert.ok(check.ok, check.violations.slice(0, 3).join('; '));
    assert.equal(run.replan.replans[0].outcome, 'adopted');
  });

  test('a failing replanner leaves the run on its plan: the failure is recorded, the run is the static replay', async () => {
    const { doc, plan } = lostNode();
    const model = loadInstance(doc);
    const run = await simulateReplanning(model, plan, {
      outages: lostC(),
      replan: {
        replanner: () => {
          throw new Error('no solver today');
        },
      },
    });
    assert.equal(run.replan.replans.length, 1);
    assert.equal(run.replan.replans[0].outcome, 'failed');
    assert.equal(run.replan.replans[0].error, 'no solver today');
    assert.equal(run.makespanSeconds, simulatePlan(model, plan, { outages: lostC() }).makespanSeconds);
  });

  test('a solved plan of a generated instance re-planned every 10 minutes with a node lost: every job ends, each re-plan recorded', async () => {
    const { ephemeralInstance } = await import('../../harness/ephemeral-instance');
    const doc = ephemeralInstance({ nodes: 4, jobs: 3, seed: 7, maxMaps: 10 });
    const model = loadInstance(doc);
    const plan = await solve(model, { strategy: 'ls', maxIterations: 200, seed: 1 });
    const run = await simulateReplanning(model, plan, {
      outages: [{ node: 'h02', fromSeconds: 1500, toSeconds: 2700 }],
      replan: { everySeconds: 600, strategy: 'ls', maxIterations: 200, seed: 1 },
    });
    assert.equal(run.unfinishedJobs, 0);
    const triggers = new Set(run.replan.replans.map((r) => r.trigger));
    assert.ok(triggers.has('node-lost') && triggers.has('node-back') && triggers.has('periodic'), [...triggers].join(','));
    for (const r of run.replan.replans) assert.equal(r.outcome, 'adopted', r.error);
  });
});

function key(plan: PlanDoc): string[] {
  return plan.assignments.map((a) => `${a.job}/${a.stage}/${a.task}@${a.node}:${a.start}`).sort();
}
