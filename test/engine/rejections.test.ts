/**
 * explainRejections (src/engine/evaluate/rejections.ts): one hand-built instance per verdict, each
 * solved for real so that the job is rejected by the engine, not by the test.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { explainRejections } from '../../src/engine/evaluate/rejections';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, JobSpec, NodeSpec } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';
import { planOf } from '../support/fixtures';

const SLOT = 60;

function instance(T: number, nodes: NodeSpec[], jobs: JobSpec[], extra: Partial<InstanceDoc> = {}): InstanceDoc {
  return { format: 'fallow.instance/v1', name: 'rejections', horizon: { slots: T, slotSeconds: SLOT }, metrics: ['cpu', 'ram'], nodes, jobs, ...extra };
}
/** A job of one stage of `tasks` tasks lasting `slots` slots on every node. */
function job(id: string, tasks: number, slots: number, demand: Record<string, number>, releaseSlot?: number): JobSpec {
  return { id, ...(releaseSlot !== undefined ? { releaseSlot } : {}), stages: [{ id: 'run', tasks, demand, durationSeconds: slots * SLOT }] };
}

async function reasons(inst: InstanceDoc, rejected: string[]) {
  const model = loadInstance(inst);
  const plan = await solve(model, { strategy: 'rffd', maxIterations: 5, seed: 3 });
  assert.deepEqual([...plan.rejected].sort(), [...rejected].sort(), 'the engine rejects exactly these jobs');
  const out = explainRejections(model, plan);
  assert.deepEqual(out.map((r) => r.job).sort(), [...rejected].sort(), 'one reason per rejected job');
  return new Map(out.map((r) => [r.job, r]));
}

describe('explainRejections', () => {
  test('demand-exceeds-capacity: names the stage, the metric, the demand and the best node', async () => {
    // ram 40 per task; the nodes have 32 and 24, and a safety margin of 10% leaves 28.8 on the larger one.
    const inst = instance(20, [{ id: 'small', capacity: { cpu: 8, ram: 24 } }, { id: 'big', capacity: { cpu: 8, ram: 32 } }], [
      job('ok', 2, 2, { cpu: 1, ram: 4 }),
      job('fat', 1, 2, { cpu: 1, ram: 40 }),
    ], { safetyMargin: { ram: 0.1 } });
    const r = (await reasons(inst, ['fat'])).get('fat')!;
    assert.equal(r.code, 'demand-exceeds-capacity');
    assert.match(r.reason, /stage "run" needs 40 ram per task/);
    assert.match(r.reason, /28\.8 \(node big\)/);
    assert.match(r.reason, /slots 0-19/);
  });

  test('demand-exceeds-capacity counts only the job\'s window: capacity that is there before its release does not help', async () => {
    // The node is free up to slot 5 and 75% busy afterwards; the job is released at 5 and needs 4 cpu of 8.
    const usage = { n: { cpu: [0, 0, 0, 0, 0, ...Array(15).fill(0.75)] } };
    const inst = instance(20, [{ id: 'n', capacity: { cpu: 8, ram: 8 } }], [job('late', 1, 1, { cpu: 4 }, 5)], { usage });
    const r = (await reasons(inst, ['late'])).get('late')!;
    assert.equal(r.code, 'demand-exceeds-capacity');
    assert.match(r.reason, /needs 4 cpu per task.*slots 5-19.*the most any node offers is 2 \(node n\)/);
  });

  test('misses-window: the chain of stages from the release cannot end by the horizon', async () => {
    const chain: JobSpec = {
      id: 'chain',
      releaseSlot: 4,
      stages: [
        { id: 'map', tasks: 2, demand: { cpu: 1 }, durationSeconds: 3 * SLOT },
        { id: 'reduce', tasks: 1, demand: { cpu: 1 }, durationSeconds: 4 * SLOT, after: ['map'] },
      ],
    };
    const inst = instance(10, [{ id: 'n', capacity: { cpu: 4, ram: 4 } }], [job('ok', 1, 2, { cpu: 1 }), chain]);
    const r = (await reasons(inst, ['chain'])).get('chain')!;
    assert.equal(r.code, 'misses-window');
    assert.match(r.reason, /released at slot 4/);
    assert.match(r.reason, /its chain of stages map -> reduce takes at least 7 slots and ends at slot 11/);
    assert.match(r.reason, /horizon \(10 slots\)/);
  });

  test('misses-window: the chain would fit, but the forecast availability leaves no room in time', async () => {
    // cpu is fully used from slot 6 on: the 3-slot task released at 4 has only slots 4-5.
    const usage = { n: { cpu: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1] } };
    const inst = instance(12, [{ id: 'n', capacity: { cpu: 4, ram: 4 } }], [job('ok', 1, 2, { cpu: 1 }), job('squeezed', 1, 3, { cpu: 1 }, 4)], { usage });
    const r = (await reasons(inst, ['squeezed'])).get('squeezed')!;
    assert.equal(r.code, 'misses-window');
    assert.match(r.reason, /stage "run" cannot end within the horizon \(12 slots\)/);
    assert.match(r.reason, /its stage "run" takes at least 3 slots, but the forecast availability leaves no room/);
  });

  test('misses-window: every task fits in time, but all of them need more than the window holds', async () => {
    // 5 tasks x 3 slots x 1 cpu = 15 cpu-slots; one cpu for 10 slots offers 10.
    const inst = instance(10, [{ id: 'n', capacity: { cpu: 1, ram: 4 } }], [job('bulk', 5, 3, { cpu: 1 })]);
    const r = (await reasons(inst, ['bulk'])).get('bulk')!;
    assert.equal(r.code, 'misses-window');
    assert.match(r.reason, /its 5 tasks need 15 cpu-slots, the nodes offer 10/);
  });

  test('capacity-taken: the job fits alone, the accepted ones hold the room', async () => {
    // One cpu for 10 slots: two 6-slot jobs cannot both run; the second in the order is rejected.
    const inst = instance(10, [{ id: 'n', capacity: { cpu: 1, ram: 4 } }], [job('a', 1, 6, { cpu: 1 }), job('b', 1, 6, { cpu: 1 })]);
    const model = loadInstance(inst);
    const plan = await solve(model, { strategy: 'rffd', maxIterations: 1, seed: 1 });
    assert.equal(plan.rejected.length, 1);
    const [r] = explainRejections(model, plan);
    assert.equal(r.job, plan.rejected[0]);
    assert.equal(r.code, 'capacity-taken');
    assert.match(r.reason, /alone on the empty cluster its critical path would end at slot 6, within the horizon \(10 slots\)/);
    assert.match(r.reason, /the accepted jobs use the capacity it needs; the objective schedules as many tasks as possible first/);
  });

  test('a hand-written plan: every rejected job gets a reason, in the plan\'s order; nothing for accepted jobs', () => {
    const inst = instance(10, [{ id: 'n', capacity: { cpu: 2, ram: 4 } }], [
      job('a', 1, 2, { cpu: 1 }),
      job('b', 1, 2, { cpu: 3 }),
      job('c', 1, 2, { cpu: 1 }, 9),
      job('d', 1, 2, { cpu: 1 }),
    ]);
    const plan = planOf(inst, [{ job: 'a', stage: 'run', task: 0, node: 'n', start: 0 }], ['d', 'b', 'c', 'nope']);
    const out = explainRejections(loadInstance(inst), plan);
    assert.deepEqual(
      out.map((r) => [r.job, r.code]),
      [
        ['d', 'capacity-taken'],
        ['b', 'demand-exceeds-capacity'],
        ['c', 'misses-window'],
      ],
    );
  });
});
