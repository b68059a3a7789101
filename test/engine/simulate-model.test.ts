/**
 * The parts of the simulation model behind issue 6's Hadoop / Cuckoo / Salamander comparison, on handmade
 * instances: independent links per node, Hadoop's dispatcher blind to the QoS controller (heartbeats),
 * Cuckoo's TaskTrackers on Hadoop's fixed slots, and Salamander's relaunch that keeps tasks local.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { CuckooPolicy } from '../../src/engine/policies/cuckoo/cuckoo';
import { HadoopPolicy } from '../../src/engine/policies/hadoop/hadoop';
import { hostWeights } from '../../src/engine/placement/host-weights';
import { HEARTBEAT_SECONDS } from '../../src/engine/policies/dispatch/locality-dispatch';
import { stagingSeconds } from '../../src/engine/network/links';
import { at, planOf } from '../support/fixtures';
import { flat, node, oneJob, runDriver, runPlan } from '../support/sim-fixtures';

describe('network: one full-duplex link per node', () => {
  test('staging: nodes receive their shares in parallel; the job waits for the busiest receiver', () => {
    assert.equal(stagingSeconds([100, 100, 50], [80, 80, 80]), 10);
  });

  test('remote fetches into different nodes from different nodes run in parallel, into the same node one after the other', () => {
    const doc = oneJob([{ id: 'm', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 30, inputMB: 100 }], {
      nodes: [node('a'), node('b'), node('c'), node('d')],
    });
    const placement = [0, 1].map((task) => ({ job: 'j', stage: 'm', task, nodes: [task === 0 ? 'c' : 'd'] }));
    // 100 MB at 80 Mbps = 10 s each. c -> a and d -> b share no link: both end at 10 + 30 s.
    // (From one holder to two nodes they would share its uplink: simulate-shuffle.test.ts.)
    const apart = runPlan(doc, planOf(doc, [at('j/m/0@a:0'), at('j/m/1@b:0')], [], { placement }), undefined).report;
    assert.ok(Math.abs(apart.makespanSeconds - 40) < 1e-9, `makespan ${apart.makespanSeconds}`);
    // Both on a: the second chunk arrives at 20 s.
    const together = runPlan(doc, planOf(doc, [at('j/m/0@a:0'), at('j/m/1@a:0')], [], { placement }), undefined).report;
    assert.ok(Math.abs(together.makespanSeconds - 50) < 1e-9, `makespan ${together.makespanSeconds}`);
  });
});

describe("Hadoop's dispatcher does not see the QoS controller", () => {
  test('a node whose task was killed is handed a task again at its next heartbeat, not after the period', () => {
    // One node; in slot 0 (50 s) the regular customers leave 1.6 GB of RAM, a task needs 4 GB: every launch is
    // killed at once. The TaskTracker asks again every 3 s: launches at 0, 3, ..., 48 s are killed (17), the
    // one at 51 s runs (slot 1 leaves all the RAM) and ends 100 s later. The per-slot controller (period = the
    // slot) holds slot 0's load for the whole slot.
    const doc = oneJob([{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 4 }, durationSeconds: 100 }], { nodes: [node('a')] });
    const { sim, report } = runDriver(doc, (m) => new HadoopPolicy(m), { a: { ram: [0.9, ...flat(0, 19)] } }, 'cuckoo', 1, { qosPeriodSeconds: 50 });
    assert.equal(HEARTBEAT_SECONDS, 3);
    assert.equal(report.relaunches, 17);
    assert.equal(sim.startedAt[0], 51);
    assert.ok(Math.abs(report.makespanSeconds - 151) < 1e-9, `makespan ${report.makespanSeconds}`);
  });

  test('with the 100-ms controller the load falls within the slot and the kills stop earlier', () => {
    // The load falls linearly from 0.9 at 0 s to 0 at 50 s: a 4 GB task fits once 16(1 - U) >= 4, i.e. U <= 0.75,
    // from t = 50(1 - 0.75/0.9) = 8.3 s. Launches at 0, 3 and 6 s are killed; the one at 9 s runs until 109 s.
    const doc = oneJob([{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 4 }, durationSeconds: 100 }], { nodes: [node('a')] });
    const { sim, report } = runDriver(doc, (m) => new HadoopPolicy(m), { a: { ram: [0.9, ...flat(0, 19)] } });
    assert.equal(report.relaunches, 3);
    assert.equal(sim.startedAt[0], 9);
    assert.ok(Math.abs(report.makespanSeconds - 109) < 1e-9, `makespan ${report.makespanSeconds}`);
  });
});

describe("Cuckoo's TaskTrackers keep Hadoop's fixed slots: the forecast only places chunks", () => {
  // 10 slots of 10 s, CPU margin 10 %. The forecast calls c always busy (95 %): Alg. 1 gives it no weight,
  // so Alg. 2 puts no replica there. The actual load is nil everywhere. 60 tasks of 64 MB, 2 replicas:
  // a and b hold every chunk and fill their 20 slots; c, whose TaskTracker still has 20 slots, asks for
  // work and runs tasks remotely (Cuckoo IV-A, Salamander IV-A/IV-B: 20 fixed slots per TaskTracker), one
  // per heartbeat, the off-switch allowance of Hadoop 1's JobTracker.
  const doc = oneJob([{ id: 'm', tasks: 60, demand: { cpu: 1, ram: 1 }, work: 10, inputMB: 64 }], {
    horizon: { slots: 10, slotSeconds: 10 },
    safetyMargin: { cpu: 0.1 },
    nodes: ['a', 'b', 'c'].map((id) => node(id, { capacity: { cpu: 64, ram: 256 }, maxTasks: 20 })),
    usage: { c: { cpu: flat(0.95, 10) } },
  });
  doc.jobs[0].replication = 2;
  const idle = { a: { cpu: flat(0, 10) }, b: { cpu: flat(0, 10) }, c: { cpu: flat(0, 10) } };

  test('c gets no weight and no replica, yet 20 slots like every host, as under Hadoop', () => {
    const model = loadInstance(doc);
    assert.equal(hostWeights(model)[2], 0);
    const cuckoo = runDriver(doc, (m) => new CuckooPolicy(m), idle).sim;
    assert.ok(cuckoo.replicas.every((r) => r !== null && !r.includes(2)));
    assert.deepEqual(Array.from(cuckoo.slots), [20, 20, 20]);
    assert.deepEqual(Array.from(runDriver(doc, (m) => new HadoopPolicy(m), idle).sim.slots), [20, 20, 20]);
  });

  test('the host the forecast wrongly calls busy still runs tasks (remotely) when it is idle, one per heartbeat', () => {
    const { sim, report } = runDriver(doc, (m) => new CuckooPolicy(m), idle);
    const starts = Array.from(sim.node)
      .map((k, i) => (k === 2 ? sim.startedAt[i] : NaN))
      .filter((t) => !Number.isNaN(t))
      .sort((x, y) => x - y);
    assert.equal(report.unfinishedJobs, 0);
    assert.equal(report.relaunches, 0);
    assert.ok(starts.length >= 2, `c ran ${starts.length} tasks`);
    assert.equal(report.remoteTasks, starts.length, 'every task on c reads its chunk over its link');
    // Hadoop 1's JobTracker hands a TaskTracker at most one off-switch map per heartbeat.
    for (let n = 1; n < starts.length; n++) assert.ok(starts[n] - starts[n - 1] >= HEARTBEAT_SECONDS - 1e-9, `c's launches at ${starts}`);
  });
});

describe("Salamander's relaunch keeps tasks local when that is quicker", () => {
  // One task planned on a at slot 0 (slots of 50 s); a RAM spike on a in slot 0 kills it at once. Its only
  // replica is on a. Relaunching on b means fetching the chunk over b's 80 Mbps link; waiting means the next
  // period (50 s away), when a opens again.
  const run = (inputMB: number) => {
    const doc = oneJob([{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 1 }, durationSeconds: 30, inputMB }]);
    return runPlan(doc, planOf(doc, [at('j/m/0@a:0')]), { a: { ram: [0.95, ...flat(0, 19)] } });
  };

  test('a cheap fetch (10 s < 50 s of waiting): relaunched remotely at once', () => {
    const { sim, model, report } = run(100);
    assert.equal(report.relaunches, 1);
    assert.equal(model.nodeIds[sim.node[0]], 'b');
    assert.equal(report.remoteTasks, 1);
    assert.ok(Math.abs(report.makespanSeconds - 40) < 1e-9, `makespan ${report.makespanSeconds}`);
  });

  test('an expensive fetch (100 s > 50 s): the plan shifts, the task waits for a and runs locally', () => {
    const { sim, model, report } = run(1000);
    assert.equal(report.relaunches, 1);
    assert.equal(model.nodeIds[sim.node[0]], 'a');
    assert.equal(report.remoteTasks, 0);
    assert.ok(Math.abs(report.makespanSeconds - 80) < 1e-9, `makespan ${report.makespanSeconds}`);
  });

  test('a task waits at most one period: if its node is still full it goes remote', () => {
    const doc = oneJob([{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 1 }, durationSeconds: 30, inputMB: 1000 }]);
    const { sim, model, report } = runPlan(doc, planOf(doc, [at('j/m/0@a:0')]), { a: { ram: flat(0.95) } });
    assert.equal(model.nodeIds[sim.node[0]], 'b');
    assert.equal(sim.startedAt[0], 50, 'waited for the next period, then left');
    assert.equal(report.remoteTasks, 1);
  });
});

describe("Hadoop 1's JobTracker hands a TaskTracker at most one reduce per heartbeat", () => {
  // 4 maps then 8 reduces on 4 idle nodes with 20 slots each. Without the rule the first node asking took
  // all 8 reduces and the whole shuffle came in through its link.
  const doc = oneJob(
    [
      { id: 'm', tasks: 4, demand: { cpu: 1, ram: 1 }, durationSeconds: 10 },
      { id: 'r', tasks: 8, demand: { cpu: 1, ram: 1 }, durationSeconds: 10, after: ['m'] },
    ],
    { nodes: ['a', 'b', 'c', 'd'].map((id) => node(id, { capacity: { cpu: 64, ram: 256 }, maxTasks: 20 })) },
  );

  test('the reduces spread over the nodes, and a node gets its second only a heartbeat after its first', () => {
    const { sim, model } = runDriver(doc, (m) => new HadoopPolicy(m), {});
    const reduces = Array.from({ length: 8 }, (_, r) => model.stages[1].firstTask + r);
    const perNode = new Map<number, number[]>();
    for (const i of reduces) perNode.set(sim.node[i], [...(perNode.get(sim.node[i]) ?? []), sim.startedAt[i]]);
    assert.equal(perNode.size, 4, `reduces on ${[...perNode.keys()]}`);
    for (const starts of perNode.values()) {
      starts.sort((x, y) => x - y);
      for (let n = 1; n < starts.length; n++) assert.ok(starts[n] - starts[n - 1] >= HEARTBEAT_SECONDS - 1e-9, `starts ${starts}`);
    }
  });
});
