/**
 * What a running plan has done by now, as its re-plan's `frozen` (src/engine/replan/frozen-from-events.ts):
 * a started task is frozen where and when it started, a finished one early enough to end when it did, a killed
 * one is planned again, a task without events is taken to have started as planned only when asked, and the
 * frozen set stays one some plan can keep (a stage after a task that runs again runs again; one that started
 * before its predecessors' planned ends starts at their end). Hand-made cases on a two-node instance.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import type { AssignmentDoc, InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { frozenFromEvents, FrozenFromEventsInput, TaskEvent } from '../../src/engine/replan/frozen-from-events';
import { at } from '../support/fixtures';

const T0 = Date.parse('2030-01-01T00:00:00Z');
/** Ten-minute slots: `min(25)` is in slot 2. */
const min = (m: number) => T0 + m * 60_000;

/** Two nodes; j1 is three 2-slot maps then one 1-slot reduce, j2 two 1-slot tasks; 12 slots of 10 minutes. */
function instance(nodes = ['n1', 'n2']): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'running',
    horizon: { slots: 12, slotSeconds: 600 },
    metrics: ['cpu'],
    nodes: nodes.map((id) => ({ id, capacity: { cpu: 4 } })),
    jobs: [
      {
        id: 'j1',
        stages: [
          { id: 'map', tasks: 3, demand: { cpu: 1 }, durationSeconds: 1200 },
          { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1 }, durationSeconds: 600 },
        ],
      },
      { id: 'j2', stages: [{ id: 'run', tasks: 2, demand: { cpu: 1 }, durationSeconds: 600 }] },
    ],
  };
}

const PLAN: PlanDoc = {
  format: 'fallow.plan/v1',
  instance: 'running',
  strategy: 'hand',
  assignments: ['j1/map/0@n1:0', 'j1/map/1@n1:0', 'j1/map/2@n2:0', 'j1/reduce/0@n1:2', 'j2/run/0@n2:2', 'j2/run/1@n2:3'].map(at),
  rejected: [],
  objective: { scheduledTasks: 6, makespanSlots: 4 },
};

const ev = (spec: string, type: TaskEvent['type'], minute: number): TaskEvent => {
  const [job, stage, task, node] = spec.split(/[/@]/);
  return { job, stage, task: Number(task), node, type, atMs: min(minute) };
};

function run(over: Partial<FrozenFromEventsInput> & { nowSlot: number }) {
  return frozenFromEvents({
    model: loadInstance(instance()),
    plan: PLAN,
    events: [],
    window: { startsAtMs: T0, slotSeconds: 600 },
    nowMs: min(over.nowSlot * 10),
    assumeStartedAsPlanned: false,
    ...over,
  });
}

const shown = (a: AssignmentDoc[]) => a.map((x) => `${x.job}/${x.stage}/${x.task}@${x.node}:${x.start}${x.fetchSlots !== undefined ? `+${x.fetchSlots}` : ''}`);

describe('frozen from execution events', () => {
  test('a task running, or taken to run as planned, on a node lost while it runs runs again; a finished one and those on other nodes stay', () => {
    // n1 lost from minute 15 until minute 40: the maps on n1 (slots 0-1) and the reduce on n1 (slot 2) run into it.
    const r = run({
      nowSlot: 3,
      assumeStartedAsPlanned: true,
      events: [ev('j1/map/0@n1', 'started', 1), ev('j1/map/2@n2', 'started', 1), ev('j1/map/2@n2', 'finished', 19)],
      lost: [{ node: 'n1', fromMs: min(15), toMs: min(40) }, { node: 'gone', fromMs: min(0), toMs: null }],
    });
    assert.deepEqual(shown(r.frozen.assignments), ['j1/map/2@n2:0', 'j2/run/0@n2:2']);
    assert.deepEqual(r.rerun.map((x) => `${x.job}/${x.stage}/${x.task}:${x.reason}`).sort(), ['j1/map/0:node-lost', 'j1/map/1:node-lost', 'j1/reduce/0:node-lost']);
    // A loss before the task ran, or after it ended, changes nothing.
    const untouched = run({ nowSlot: 3, assumeStartedAsPlanned: true, lost: [{ node: 'n1', fromMs: min(30), toMs: null }, { node: 'n2', fromMs: min(0), toMs: min(0) }] });
    assert.deepEqual(shown(untouched.frozen.assignments), ['j1/map/0@n1:0', 'j1/map/1@n1:0', 'j1/map/2@n2:0', 'j1/reduce/0@n1:2', 'j2/run/0@n2:2']);
  });

  test('started tasks are frozen where they started, finished ones too, killed ones run again', () => {
    const r = run({
      nowSlot: 2,
      events: [ev('j1/map/0@n1', 'started', 1), ev('j1/map/1@n1', 'started', 2), ev('j1/map/1@n1', 'killed', 5), ev('j1/map/2@n2', 'started', 1), ev('j1/map/2@n2', 'finished', 19)],
    });
    assert.deepEqual(shown(r.frozen.assignments), ['j1/map/0@n1:0', 'j1/map/2@n2:0']);
    assert.equal(r.frozen.nowSlot, 2);
    assert.deepEqual(r.sources, ['running', 'finished']);
    assert.deepEqual(r.rerun, [{ job: 'j1', stage: 'map', task: 1, reason: 'killed' }]);
    assert.deepEqual(r.adjusted, []);
    assert.equal(r.ignoredEvents, 0);
  });

  test('a task started again after it was killed runs from its last start', () => {
    const r = run({ nowSlot: 3, events: [ev('j1/map/1@n1', 'started', 2), ev('j1/map/1@n1', 'killed', 5), ev('j1/map/1@n2', 'started', 12)] });
    assert.deepEqual(shown(r.frozen.assignments), ['j1/map/1@n2:1']);
    assert.deepEqual(r.rerun, []);
  });

  test('assumeStartedAsPlanned freezes what the plan started before nowSlot with no event, and a stage after a killed task runs again', () => {
    const events = [ev('j1/map/0@n1', 'started', 1), ev('j1/map/1@n1', 'started', 2), ev('j1/map/1@n1', 'killed', 5)];
    const r = run({ nowSlot: 3, events, assumeStartedAsPlanned: true });
    // map/2 and run/0 planned before slot 3 with no event: as planned; run/1 planned at 3 is not frozen; the reduce waits for map/1.
    assert.deepEqual(shown(r.frozen.assignments), ['j1/map/0@n1:0', 'j1/map/2@n2:0', 'j2/run/0@n2:2']);
    assert.deepEqual(r.sources, ['running', 'assumed', 'assumed']);
    assert.deepEqual(r.rerun, [
      { job: 'j1', stage: 'map', task: 1, reason: 'killed' },
      { job: 'j1', stage: 'reduce', task: 0, reason: 'after-rerun' },
    ]);
    const without = run({ nowSlot: 3, events });
    assert.deepEqual(shown(without.frozen.assignments), ['j1/map/0@n1:0']);
  });

  test('a task killed, then started again by the plan re-planned (a re-plan of its own) before now, is taken to run as planned when assumed', () => {
    // map/1 was killed in slot 0; the plan re-planned (a previous re-plan) put it at 2 on n2; now is slot 3, no event since.
    const plan: PlanDoc = { ...PLAN, assignments: PLAN.assignments.map((a) => (a.stage === 'map' && a.task === 1 ? { ...a, node: 'n2', start: 2 } : a)) };
    const events = [ev('j1/map/1@n1', 'started', 2), ev('j1/map/1@n1', 'killed', 5)];
    const assumed = run({ nowSlot: 3, plan, events, assumeStartedAsPlanned: true });
    assert.ok(shown(assumed.frozen.assignments).includes('j1/map/1@n2:2'), JSON.stringify(assumed.frozen.assignments));
    assert.ok(!assumed.rerun.some((r) => r.stage === 'map'));
    const reported = run({ nowSlot: 3, plan, events });
    assert.deepEqual(reported.rerun, [{ job: 'j1', stage: 'map', task: 1, reason: 'killed' }]);
  });

  test('events after now, and events of tasks the instance does not have, are not counted', () => {
    const r = run({
      nowSlot: 2,
      events: [ev('j1/map/0@n1', 'started', 1), ev('j1/map/0@n1', 'killed', 21), ev('j9/map/0@n1', 'started', 1), ev('j1/map/7@n1', 'started', 1), ev('j1/map/1@n1', 'started', 25)],
    });
    assert.deepEqual(shown(r.frozen.assignments), ['j1/map/0@n1:0']);
    assert.equal(r.ignoredEvents, 4);
  });

  test('a task on a node the instance no longer has runs again (reported or assumed)', () => {
    const r = frozenFromEvents({
      model: loadInstance(instance(['n1'])),
      plan: PLAN,
      events: [ev('j1/map/0@n1', 'started', 1), ev('j1/map/1@n2', 'started', 1)],
      window: { startsAtMs: T0, slotSeconds: 600 },
      nowSlot: 3,
      nowMs: min(30),
      assumeStartedAsPlanned: true,
    });
    // map/2 (planned on n2, no event) and map/1 (started on n2) are lost with n2; the reduce after them runs again.
    assert.deepEqual(shown(r.frozen.assignments), ['j1/map/0@n1:0']);
    assert.deepEqual(
      r.rerun.map((x) => `${x.job}/${x.stage}/${x.task} ${x.reason}`).sort(),
      ['j1/map/1 node-lost', 'j1/map/2 node-lost', 'j1/reduce/0 after-rerun', 'j2/run/0 node-lost'],
    );
  });

  test('a finished task starts early enough to end when it did; without a start, as planned or as late as it could', () => {
    const r = run({
      nowSlot: 3,
      events: [
        ev('j1/map/0@n1', 'started', 15), // slot 1, 2 slots long by the instance, but it finished in slot 1
        ev('j1/map/0@n1', 'finished', 19),
        ev('j1/map/2@n2', 'finished', 25), // no start: planned on n2 at 0
        ev('j1/map/1@n2', 'finished', 25), // no start, planned on n1: ends by slot 3, so it started by 1
      ],
    });
    assert.deepEqual(shown(r.frozen.assignments), ['j1/map/0@n1:0', 'j1/map/1@n2:1', 'j1/map/2@n2:0']);
    assert.deepEqual(r.adjusted, [{ job: 'j1', stage: 'map', task: 0, from: 1, to: 0, reason: 'ended-sooner' }]);
  });

  test("a stage that started before its predecessors' frozen ends starts at their end, or runs again when that is after nowSlot", () => {
    const maps = [0, 1, 2].flatMap((t) => [ev(`j1/map/${t}@n${t === 2 ? 2 : 1}`, 'started', 0), ev(`j1/map/${t}@n${t === 2 ? 2 : 1}`, 'finished', 9)]);
    // The maps really took one slot; the instance says two: they end at 2, the reduce that started at 1 starts at 2.
    const late = run({ nowSlot: 3, events: [...maps, ev('j1/reduce/0@n1', 'started', 15)] });
    assert.deepEqual(shown(late.frozen.assignments), ['j1/map/0@n1:0', 'j1/map/1@n1:0', 'j1/map/2@n2:0', 'j1/reduce/0@n1:2']);
    assert.deepEqual(late.adjusted, [{ job: 'j1', stage: 'reduce', task: 0, from: 1, to: 2, reason: 'after-predecessors' }]);
    // Now at slot 1 the reduce could only start at 2: it runs again after the maps.
    const early = run({ nowSlot: 1, nowMs: min(19), events: [...maps, ev('j1/reduce/0@n1', 'started', 15)] });
    assert.deepEqual(shown(early.frozen.assignments), ['j1/map/0@n1:0', 'j1/map/1@n1:0', 'j1/map/2@n2:0']);
    assert.deepEqual(early.rerun, [{ job: 'j1', stage: 'reduce', task: 0, reason: 'before-predecessors-end' }]);
  });

  test('a running task the instance would carry past the window started early enough to end with it', () => {
    const r = run({ nowSlot: 11, nowMs: min(115), events: [ev('j1/map/0@n1', 'started', 112)] });
    assert.deepEqual(shown(r.frozen.assignments), ['j1/map/0@n1:10']);
    assert.deepEqual(r.adjusted, [{ job: 'j1', stage: 'map', task: 0, from: 11, to: 10, reason: 'within-window' }]);
  });

  test("the caller's explicit assignments come first, as given, whatever the events say", () => {
    const explicit = [at('j1/map/1@n2:1')];
    const r = run({ nowSlot: 2, explicit, events: [ev('j1/map/1@n1', 'killed', 5), ev('j1/map/0@n1', 'started', 1)] });
    assert.deepEqual(shown(r.frozen.assignments), ['j1/map/1@n2:1', 'j1/map/0@n1:0']);
    assert.deepEqual(r.sources, ['explicit', 'running']);
    assert.deepEqual(r.rerun, []);
  });

  test("a priced plan's fetchSlots stay with a task where it and the tasks before it were planned, not elsewhere", () => {
    const priced: PlanDoc = { ...PLAN, transfers: 'priced', assignments: PLAN.assignments.map((a) => ({ ...a, fetchSlots: a.stage === 'reduce' ? 1 : 0 })) };
    const maps = [0, 1, 2].map((t) => ev(`j1/map/${t}@n${t === 2 ? 2 : 1}`, 'started', 0));
    const asPlanned = run({ nowSlot: 3, plan: priced, events: [...maps, ev('j1/reduce/0@n1', 'started', 25)] });
    assert.deepEqual(shown(asPlanned.frozen.assignments), ['j1/map/0@n1:0+0', 'j1/map/1@n1:0+0', 'j1/map/2@n2:0+0', 'j1/reduce/0@n1:2+1']);
    // map/2 ran on n1 instead: the reduce's fetch is no longer the plan's (the engine prices it), map/2's own neither.
    const moved = run({ nowSlot: 3, plan: priced, events: [...maps.slice(0, 2), ev('j1/map/2@n1', 'started', 0), ev('j1/reduce/0@n1', 'started', 25)] });
    assert.deepEqual(shown(moved.frozen.assignments), ['j1/map/0@n1:0+0', 'j1/map/1@n1:0+0', 'j1/map/2@n1:0', 'j1/reduce/0@n1:2']);
  });
});
