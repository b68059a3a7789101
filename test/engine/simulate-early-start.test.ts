/**
 * Early starts in plan replays (PlanDriverOptions.earlyStart, SimulateOptions.earlyStart): a ready task starts
 * before its planned start when its planned node has a free task slot and room under the actual load now, in
 * the plan's order per node; off, the replay keeps the plan's starts. Hand-checked on one-task-at-a-time nodes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { PlanDriver } from '../../src/engine/simulate/plan-driver';
import { Simulator } from '../../src/engine/simulate/simulator';
import { ActualUsage, UsageDoc } from '../../src/engine/simulate/usage';
import { getQos } from '../../src/engine/qos';
import { simulatePlan } from '../../src/engine/simulation';
import { at, planOf } from '../support/fixtures';
import { flat, node } from '../support/sim-fixtures';

/** Node a runs one task at a time (slots of 50 s); j: two maps of 100 s; y: one task of 100 s. */
function instance(usageA?: number[]): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'early-start',
    horizon: { slots: 20, slotSeconds: 50 },
    metrics: ['cpu', 'ram'],
    nodes: [node('a', { maxTasks: 1 }), node('b', { maxTasks: 1 })],
    usage: { a: { cpu: usageA ?? flat(0), ram: flat(0) }, b: { cpu: flat(0), ram: flat(0) } },
    jobs: [
      { id: 'j', stages: [{ id: 'map', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 100 }] },
      { id: 'y', stages: [{ id: 'map', tasks: 1, demand: { cpu: 1, ram: 1 }, durationSeconds: 100 }] },
    ],
  };
}

/** Starts (s) of j/map/0, j/map/1 and y/map/0 replayed with or without early starts. */
function starts(doc: InstanceDoc, plan: PlanDoc, earlyStart: boolean, actual?: UsageDoc): number[] {
  const model = loadInstance(doc);
  const sim = new Simulator(model, new ActualUsage(model, actual ?? doc.usage), new PlanDriver(model, plan, { earlyStart }), { qos: getQos('salamander') });
  sim.run();
  return [0, 1, 2].map((i) => sim.startedAt[i]);
}

describe('early starts in a plan replay', () => {
  // The plan leaves a idle between 100 s and 200 s, and between 300 s and 400 s.
  const plan = (doc: InstanceDoc) => planOf(doc, [at('j/map/0@a:0'), at('y/map/0@a:4'), at('j/map/1@a:8')]);

  test('off: every task at its planned start', () => {
    const doc = instance();
    assert.deepEqual(starts(doc, plan(doc), false), [0, 400, 200]);
  });

  test("on: each task as soon as its node is free, in the plan's order on the node", () => {
    const doc = instance();
    // y (planned at 200 s) before j/map/1 (planned at 400 s), each when the one before it ends.
    assert.deepEqual(starts(doc, plan(doc), true), [0, 200, 100]);
    const model = loadInstance(doc);
    assert.equal(simulatePlan(model, plan(doc), { earlyStart: true }).makespanSeconds, 300);
    assert.equal(simulatePlan(model, plan(doc)).makespanSeconds, 500);
  });

  test('on: not where the regular customers leave no room now; the planned start still holds', () => {
    // a's CPU is taken (90 %) until 200 s: y, ready from 0 s, does not start there early but at its planned
    // 200 s; j/map/1 follows it early, at 300 s (planned 400 s).
    const doc = instance(Array.from({ length: 20 }, (_, t) => (t < 4 ? 0.9 : 0)));
    const p = planOf(doc, [at('j/map/0@b:0'), at('y/map/0@a:4'), at('j/map/1@a:8')]);
    assert.deepEqual(starts(doc, p, true), [0, 300, 200]);
  });

  test('on: a task whose node has no free task slot waits for it', () => {
    // Both j maps planned on a, the second at 400 s; y on b. j/map/1 starts when j/map/0 frees a's one slot.
    const doc = instance();
    const p = planOf(doc, [at('j/map/0@a:0'), at('j/map/1@a:8'), at('y/map/0@b:0')]);
    assert.deepEqual(starts(doc, p, true), [0, 100, 0]);
  });
});
