/**
 * POSUM's allocation policies (seeds/002 Table II) on a hand-made queue: one node that runs one task at a
 * time, so the order the four jobs start in is the policy's order. Deadline jobs d1 (due 90 s) and d2 (due
 * 50 s), batch jobs b1 (30 s of work) and b2 (5 s), all of one 10-s, 10-s, 30-s and 5-s task, released at 0
 * behind a 5-s warm-up job w: the simulator hands jobs released at one instant to the policy one event at a
 * time, so the first arrival would otherwise take the free node before the others are known.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { PosumAllocation, PosumAllocationPolicy } from '../../src/engine/policies/posum/allocation';
import { getQos } from '../../src/engine/qos';
import { Simulator } from '../../src/engine/simulate/simulator';
import { ActualUsage } from '../../src/engine/simulate/usage';

const one = (id: string, seconds: number, deadlineSlot?: number) => ({
  id,
  class: deadlineSlot === undefined ? ('batch' as const) : ('deadline' as const),
  ...(deadlineSlot === undefined ? {} : { deadlineSlot }),
  stages: [{ id: 's', tasks: 1, demand: { cpu: 1 }, durationSeconds: seconds }],
});

const DOC: InstanceDoc = {
  format: 'fallow.instance/v1',
  name: 'queue',
  horizon: { slots: 100, slotSeconds: 10 },
  metrics: ['cpu'],
  nodes: [{ id: 'n', capacity: { cpu: 1 } }],
  jobs: [one('w', 5), one('d1', 10, 9), one('d2', 10, 5), one('b1', 30), one('b2', 5)],
};

function startOrder(kind: PosumAllocation, delta = 0.5, seed = 1): string[] {
  const model = loadInstance(DOC);
  const sim = new Simulator(model, new ActualUsage(model, undefined), new PosumAllocationPolicy(model, kind, { delta, minExecutionSeconds: 10 }), { qos: getQos('none'), seed });
  const r = sim.run();
  assert.equal(r.unfinishedJobs, 0);
  const order = model.jobs.map((j, n) => ({ id: j.id, at: sim.startedAt[j.firstTask], n })).sort((a, b) => a.at - b.at || a.n - b.n).map((x) => x.id);
  assert.equal(order[0], 'w');
  return order.slice(1);
}

describe('POSUM allocation policies', () => {
  test('EDLS-Sh: EDF while the deadline jobs are under their share delta, else the largest slowdown', () => {
    // Under their share (nothing of theirs runs when the node frees): EDF, d2 before d1; then LSF.
    assert.deepEqual(startOrder('edls-sh', 0.5), ['d2', 'd1', 'b2', 'b1']);
    // A share of 0: batch first, b2 (5 s / max(5, MinE 10) = 0.5) before b1 (5 / 30); the deadline jobs last.
    assert.deepEqual(startOrder('edls-sh', 0), ['b2', 'b1', 'd2', 'd1']);
  });

  test('EDLS-Pr: the deadline queue first with probability delta', () => {
    assert.deepEqual(startOrder('edls-pr', 1), ['d2', 'd1', 'b2', 'b1']);
    assert.deepEqual(startOrder('edls-pr', 0), ['b2', 'b1', 'd2', 'd1']);
    assert.deepEqual(startOrder('edls-pr', 0.5, 7), startOrder('edls-pr', 0.5, 7), 'the same for a seed');
  });

  test('hSRTF: shortest predicted remaining time first; LOCF: first in, first out', () => {
    assert.deepEqual(startOrder('hsrtf'), ['b2', 'd1', 'd2', 'b1']);
    assert.deepEqual(startOrder('locf'), ['d1', 'd2', 'b1', 'b2']);
  });

  test('EDLS-Sh on two nodes: past its share delta, the deadline queue yields the next node to the batch queue', () => {
    // Two one-core nodes freed at 5 s (two warm-up jobs), then d (deadline) and b (batch), two 100-s tasks each.
    const doc: InstanceDoc = {
      ...DOC,
      nodes: [{ id: 'n1', capacity: { cpu: 1 } }, { id: 'n2', capacity: { cpu: 1 } }],
      jobs: [one('w1', 5), one('w2', 5), { ...one('d', 100, 50), stages: [{ id: 's', tasks: 2, demand: { cpu: 1 }, durationSeconds: 100 }] }, { ...one('b', 100), stages: [{ id: 's', tasks: 2, demand: { cpu: 1 }, durationSeconds: 100 }] }],
    };
    const startedAt5 = (delta: number) => {
      const model = loadInstance(doc);
      const sim = new Simulator(model, new ActualUsage(model, undefined), new PosumAllocationPolicy(model, 'edls-sh', { delta, minExecutionSeconds: 10 }), { qos: getQos('none'), seed: 1 });
      sim.run();
      return model.jobs.map((j) => Array.from({ length: j.taskCount }, (_, t) => sim.startedAt[j.firstTask + t]).filter((x) => x === 5).length);
    };
    // delta 0.5: the first node to d (share 0 < 0.5), the second to b (d holds half the cluster).
    assert.deepEqual(startedAt5(0.5), [0, 0, 1, 1]);
    // delta 1: d keeps both.
    assert.deepEqual(startedAt5(1), [0, 0, 2, 0]);
  });

  test('delta outside [0, 1] is refused', () => {
    assert.throws(() => new PosumAllocationPolicy(loadInstance(DOC), 'edls-sh', { delta: 1.5, minExecutionSeconds: 10 }), /delta/);
  });
});
