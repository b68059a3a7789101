/**
 * The simulator's parts alone (src/engine/simulate): the leases (leases.ts), the tasks' inputs over the
 * links (inputs.ts), the runtimes (truth.ts) and the report assembly (report.ts), each built without a
 * Simulator around it, with numbers checkable by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { BatchSampler } from '../../src/engine/simulate/batch-metrics';
import { SimClock } from '../../src/engine/simulate/clock';
import { TaskState } from '../../src/engine/simulate/driver';
import { EventQueue, SimEvent } from '../../src/engine/simulate/event-queue';
import { NODE_UP } from '../../src/engine/simulate/events';
import { TaskInputs } from '../../src/engine/simulate/inputs';
import { Leases } from '../../src/engine/simulate/leases';
import { NodeState } from '../../src/engine/simulate/node-state';
import { assembleReport, RunRecord } from '../../src/engine/simulate/report';
import { TaskRuntimes } from '../../src/engine/simulate/truth';
import { node, oneJob } from '../support/sim-fixtures';

const LEASE = { startupSeconds: 10, minLeaseSeconds: 100 };

function leases(mode: 'plan' | 'policy' = 'policy') {
  const model = loadInstance(oneJob([{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 1 }, durationSeconds: 10 }], { nodes: [node('a'), node('b', { lease: LEASE })] }));
  const clock = new SimClock();
  const queue = new EventQueue();
  const nodes = [new NodeState(2), new NodeState(2)];
  return { model, clock, queue, nodes, leases: new Leases(model, clock, queue, nodes, mode) };
}

describe('Leases', () => {
  test('a lease node is down until leased and comes up its start-up delay later, once per lease', () => {
    const { clock, queue, leases: l } = leases();
    assert.deepEqual(Array.from(l.up), [1, 0]);
    assert.equal(l.lease(0), false, 'a fixed node is not leasable');
    clock.now = 5;
    assert.equal(l.lease(1), true);
    assert.equal(l.lease(1), false, 'already leased');
    const ev: SimEvent = { time: 0, kind: 0, a: 0, b: 0 };
    assert.ok(queue.pop(ev));
    assert.deepEqual(ev, { time: 15, kind: NODE_UP, a: 1, b: 1 });
    l.comeUp(1, 0);
    assert.equal(l.up[1], 0, 'a stale lease does not bring it up');
    l.comeUp(1, 1);
    assert.equal(l.up[1], 1);
    assert.equal(clock.capacityEpoch, 1, 'a node coming up is new room');
  });

  test('a busy or young lease is not released; draining stops new tasks after the minimum lease; uptime counts the leases', () => {
    const { clock, nodes, leases: l } = leases();
    clock.now = 5;
    l.lease(1);
    l.comeUp(1, 1);
    clock.now = 50;
    assert.equal(l.releasable(1), false, 'minimum lease not over');
    assert.equal(l.drain(1), true);
    assert.equal(l.draining[1], 1);
    assert.equal(l.accepting(1), true, 'paid for anyway until 105 s');
    clock.now = 110;
    assert.equal(l.accepting(1), false);
    nodes[1].add(0, [1, 1]);
    assert.equal(l.release(1), false, 'it still runs a task');
    nodes[1].remove(0, [1, 1]);
    assert.equal(l.release(1), true);
    assert.deepEqual([l.up[1], l.leasedAt[1], l.draining[1]], [0, -1, 0]);
    assert.equal(l.uptime(1, 200), 105, 'leased from 5 to 110 s');
    assert.equal(l.uptime(0, 200), 200, 'a fixed node is paid from 0');
    assert.equal(l.drain(1), false, 'not leased');
    assert.equal(l.undrain(1), false, 'not draining');
  });

  test('in a plan replay every node is up and paid from 0', () => {
    const { leases: l } = leases('plan');
    assert.deepEqual(Array.from(l.up), [1, 1]);
    assert.equal(l.uptime(1, 300), 300);
  });
});

describe('TaskInputs', () => {
  // 80 Mbit/s links: 100 MB take 10 s.
  const doc = oneJob(
    [
      { id: 'map', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 10, inputMB: 100, outputMB: 100 },
      { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 1, ram: 1 }, durationSeconds: 5 },
    ],
    { nodes: [node('a'), node('b'), node('c')] },
  );

  test('a remote chunk read queues on the links; a what-if (fetchSeconds) reserves nothing', () => {
    const model = loadInstance(doc);
    const clock = new SimClock();
    const inputs = new TaskInputs(model, clock);
    inputs.replicas[0] = [0];
    inputs.replicas[1] = [0];
    assert.equal(inputs.isLocal(0, 0), true);
    assert.equal(inputs.isLocal(0, 1), false);
    assert.equal(inputs.isLocal(2, 1), true, 'a task without a chunk is local anywhere');
    assert.equal(inputs.fetchSeconds(0, 1), 10);
    assert.equal(inputs.fetchSeconds(0, 1), 10, 'the what-if left the links as they were');
    assert.equal(inputs.fetch(0, 1), 10);
    assert.equal(inputs.fetchSeconds(1, 2), 20, "behind the first transfer on a's uplink");
    assert.equal(inputs.shuffled(0), false);
    assert.equal(inputs.shuffled(1), true);
  });

  test('a reduce fetches its share of the output written on other nodes; placement counts every replica', () => {
    const model = loadInstance(doc);
    const clock = new SimClock();
    const inputs = new TaskInputs(model, clock);
    inputs.replicas[0] = [0, 1];
    inputs.replicas[1] = [1];
    inputs.stage([1]);
    assert.equal(inputs.placementBytes, 300e6);
    assert.equal(inputs.staging[0], 20, 'b receives two chunks');
    inputs.wrote(0, 0);
    inputs.wrote(1, 1);
    clock.now = 30;
    // From a and from b, 100 MB each, on two uplinks but one downlink (c's): 30 + 10 + 10.
    assert.equal(inputs.fetch(2, 2), 50);
    // On a, only b's output crosses (b's uplink is free again at 40 s, a's downlink now).
    assert.equal(inputs.fetchSeconds(2, 0), 20);
    inputs.countRemoteRead(0);
    assert.equal(inputs.remoteBytes, 100e6);
  });
});

describe('TaskRuntimes', () => {
  test('durations over speed, replaced by trueSeconds; runtimeSigma draws the same factors for a seed', () => {
    const model = loadInstance(oneJob([{ id: 'm', tasks: 3, demand: { cpu: 1, ram: 1 }, durationSeconds: 10 }], { nodes: [node('a'), node('b', { speed: 2 })] }));
    const plain = new TaskRuntimes(model);
    assert.equal(plain.seconds(0, 0), 10);
    assert.equal(plain.seconds(0, 1), 10, 'a duration does not scale with speed');
    assert.equal(new TaskRuntimes(model, { trueSeconds: { j: { m: 7 } } }).seconds(1, 0), 7);
    const noisy = (seed: number) => [0, 1, 2].map((i) => new TaskRuntimes(model, { runtimeSigma: 0.5 }, seed).seconds(i, 0));
    assert.deepEqual(noisy(4), noisy(4));
    assert.notDeepEqual(noisy(4), noisy(5));
    assert.ok(noisy(4).every((s) => s > 0 && s !== 10));
    assert.throws(() => new TaskRuntimes(model, { runtimeSigma: -1 }), /runtimeSigma must be >= 0/);
  });
});

describe('assembleReport', () => {
  const model = loadInstance(
    oneJob([{ id: 'm', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 10 }], {
      jobs: [
        { id: 'j', stages: [{ id: 'm', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 10 }] },
        { id: 'k', releaseSlot: 1, stages: [{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 1 }, durationSeconds: 10 }] },
      ],
    }),
  );
  const record = (over: Partial<RunRecord> = {}): RunRecord => ({
    model,
    now: 80,
    accepted: [1, 1],
    state: [TaskState.Done, TaskState.Done, TaskState.Done],
    node: Int32Array.from([0, 1, 0]),
    kills: [1, 0, 2],
    remote: [0, 1, 0],
    startedAt: [0, 5, 50],
    endTime: [10, 20, 75],
    staging: [3, 0],
    leases: { uptime: (_k, until) => until, leasable: () => false },
    sampler: new BatchSampler(model),
    mode: 'policy',
    driver: 'test',
    qos: 'none',
    seed: 1,
    reduceSlowstart: 1,
    qosPeriodSeconds: 0.1,
    placementBytes: 1e6,
    remoteBytes: 2e6,
    interferenceSlots: 4,
    stalledTasks: 1,
    events: 99,
    elapsedMs: 0,
    ...over,
  });

  test('per job: its end, execution (staging + end - release) and kills; over the run: makespan, shares and counters', () => {
    const r = assembleReport(record());
    assert.equal(r.makespanSeconds, 75);
    assert.deepEqual(
      r.jobs.map((j) => [j.id, j.endSeconds, j.executionSeconds, j.computeSeconds, j.kills, j.remoteTasks]),
      [
        ['j', 20, 23, 20, 1, 1],
        ['k', 75, 25, 25, 2, 0],
      ],
    );
    assert.deepEqual(r.jobExecutionSeconds, { min: 23, median: 24, max: 25 });
    assert.deepEqual([r.tasks, r.relaunches, r.relaunchedTaskPct, r.remoteTasks], [3, 3, 100, 1]);
    assert.equal(r.remoteTaskPct, 100 / 3);
    assert.deepEqual([r.bytesMoved, r.interferenceSlots, r.stalledTasks, r.events, r.unfinishedJobs, r.rejectedJobs], [3e6, 4, 1, 99, 0, 0]);
    assert.deepEqual([r.mode, r.driver, r.qos], ['policy', 'test', 'none']);
  });

  test('a job with a task not done is unfinished; a rejected job counts no task', () => {
    const r = assembleReport(record({ state: [TaskState.Done, TaskState.Running, TaskState.Skipped], accepted: [1, 0] }));
    assert.equal(r.jobs[0].endSeconds, null);
    assert.equal(r.jobs[0].executionSeconds, null);
    assert.deepEqual([r.unfinishedJobs, r.rejectedJobs, r.tasks, r.makespanSeconds], [1, 1, 2, 10]);
    assert.equal(r.jobs[1].accepted, false);
  });
});
