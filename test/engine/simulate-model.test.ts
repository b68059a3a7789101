/**
 * The parts of the simulation model behind issue 6's Hadoop / Cuckoo / Salamander comparison, on handmade
 * instances: independent links per node, Hadoop's dispatcher blind to the QoS controller (heartbeats),
 * Cuckoo's containers sized from the forecast, and Salamander's relaunch that keeps tasks local.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { CuckooPolicy, HadoopPolicy, hostWeights } from '../../src/engine/policies';
import { containerSlots } from '../../src/engine/policies/container-slots';
import { HEARTBEAT_SECONDS } from '../../src/engine/policies/locality-dispatch';
import { stagingSeconds } from '../../src/engine/simulate/transfer';
import { at, planOf } from '../support/fixtures';
import { flat, node, oneJob, runDriver, runPlan } from '../support/sim-fixtures';

describe('network: one independent link per node', () => {
  test('staging: nodes receive their shares in parallel; the job waits for the busiest receiver', () => {
    assert.equal(stagingSeconds([100, 100, 50], [80, 80, 80]), 10);
  });

  test('remote fetches into different nodes run in parallel, into the same node one after the other', () => {
    const doc = oneJob([{ id: 'm', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 30, inputMB: 100 }], {
      nodes: [node('a'), node('b'), node('c')],
    });
    const placement = [0, 1].map((task) => ({ job: 'j', stage: 'm', task, nodes: ['c'] }));
    // 100 MB at 80 Mbps = 10 s each. On a and b: both end at 10 + 30 s.
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
    // one at 51 s runs (slot 1 leaves all the RAM) and ends 100 s later.
    const doc = oneJob([{ id: 'm', tasks: 1, demand: { cpu: 1, ram: 4 }, durationSeconds: 100 }], { nodes: [node('a')] });
    const { sim, report } = runDriver(doc, (m) => new HadoopPolicy(m), { a: { ram: [0.9, ...flat(0, 19)] } });
    assert.equal(HEARTBEAT_SECONDS, 3);
    assert.equal(report.relaunches, 17);
    assert.equal(sim.startedAt[0], 51);
    assert.ok(Math.abs(report.makespanSeconds - 151) < 1e-9, `makespan ${report.makespanSeconds}`);
  });
});

describe("Cuckoo's containers are sized from the forecast", () => {
  // 10 slots of 10 s, CPU margin 10 %: a 8 cores at 40 % -> 4 free cores; b 8 cores idle -> 7.2; c always
  // busy -> no weight; d 64 idle cores -> 57.6, capped at Hadoop's 20.
  const doc = oneJob([{ id: 'm', tasks: 4, demand: { cpu: 1, ram: 1 }, work: 10, inputMB: 10 }], {
    horizon: { slots: 10, slotSeconds: 10 },
    safetyMargin: { cpu: 0.1 },
    nodes: [node('a', { capacity: { cpu: 8, ram: 32 }, speed: 2 }), node('b', { capacity: { cpu: 8, ram: 32 } }), node('c'), node('d', { capacity: { cpu: 64, ram: 256 } })],
    usage: { a: { cpu: flat(0.4, 10) }, c: { cpu: flat(0.95, 10) } },
  });

  test('slots = mean forecast free cores (host weight / speed / window) per task core, at most 20', () => {
    const model = loadInstance(doc);
    const slots = containerSlots(model, hostWeights(model), Uint8Array.of(1), 20);
    assert.deepEqual(Array.from(slots), [4, 7, 0, 20]);
  });

  test('the Cuckoo policy runs on those slots; Hadoop keeps 20 everywhere', () => {
    assert.deepEqual(Array.from(runDriver(doc, (m) => new CuckooPolicy(m)).sim.slots), [4, 7, 0, 20]);
    assert.deepEqual(Array.from(runDriver(doc, (m) => new HadoopPolicy(m)).sim.slots), [20, 20, 20, 20]);
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
