/**
 * The shuffle and the per-node links (src/engine/network/links.ts): a reduce fetches its share of every
 * map's output from the map's node; each transfer holds the sender's uplink and the receiver's downlink at
 * the slowest rate on its path. Every expected time below is worked out by hand from the bandwidths.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InstanceDoc, StageSpec } from '../../src/engine/model/types';
import { NodeLinks } from '../../src/engine/network/links';
import { at, planOf } from '../support/fixtures';
import { node, oneJob, runPlan } from '../support/sim-fixtures';

/** 1-second slots so planned starts are seconds; every node has an 80 Mbit/s link (100 MB = 10 s). */
function job(stages: StageSpec[], nodes = ['a', 'b', 'c', 'd'], extra: Partial<InstanceDoc> = {}): InstanceDoc {
  return oneJob(stages, { horizon: { slots: 400, slotSeconds: 1 }, nodes: nodes.map((id) => node(id)), ...extra });
}

const map = (tasks: number, outputMB: number): StageSpec => ({ id: 'map', tasks, demand: { cpu: 1, ram: 1 }, durationSeconds: 10, outputMB });
const reduce = (tasks: number): StageSpec => ({ id: 'reduce', tasks, after: ['map'], demand: { cpu: 1, ram: 1 }, durationSeconds: 5 });

describe('shuffle: reduces fetch the map output over the nodes links', () => {
  test('2 maps on a and b writing 100 MB each, one reduce on c: 10 s of maps + 2 x 10 s of fetch into c + 5 s', () => {
    // Both maps end at 10 s. c's downlink takes one transfer at a time: a's 100 MB from 10 to 20 s (80 Mbit/s
    // on both ends), b's from 20 to 30 s; the reduce computes from 30 s and ends at 35 s.
    const doc = job([map(2, 100), reduce(1)]);
    const { sim, report } = runPlan(doc, planOf(doc, [at('j/map/0@a:0'), at('j/map/1@b:0'), at('j/reduce/0@c:10')]), undefined);
    assert.equal(sim.computeStartedAt[2], 30);
    assert.equal(report.makespanSeconds, 35);
    assert.equal(report.remoteTaskPct, 0, 'a shuffle is no remote read');
  });

  test("a reduce on a map's node reads that map's output locally: it pays only for the other", () => {
    const doc = job([map(2, 100), reduce(1)]);
    const onA = runPlan(doc, planOf(doc, [at('j/map/0@a:0'), at('j/map/1@b:0'), at('j/reduce/0@a:10')]), undefined).report;
    const onC = runPlan(doc, planOf(doc, [at('j/map/0@a:0'), at('j/map/1@b:0'), at('j/reduce/0@c:10')]), undefined).report;
    // On a: only b's 100 MB crosses, 10 to 20 s, then 5 s of compute.
    assert.equal(onA.makespanSeconds, 25);
    assert.ok(onA.makespanSeconds < onC.makespanSeconds);
  });

  test("each reduce reads 1/tasks of every map's output", () => {
    // One map on a writes 200 MB; two reduces on b and c read 100 MB each. They share a's uplink: b's fetch
    // 10-20 s, c's 20-30 s (a per-receiver model would end both at 20 s).
    const doc = job([map(1, 200), reduce(2)]);
    const { sim, report } = runPlan(doc, planOf(doc, [at('j/map/0@a:0'), at('j/reduce/0@b:10'), at('j/reduce/1@c:10')]), undefined);
    assert.deepEqual([sim.computeStartedAt[1], sim.computeStartedAt[2]], [20, 30]);
    assert.equal(report.makespanSeconds, 35);
  });
});

describe("per-node links: a transfer queues on the sender's uplink and on the receiver's downlink", () => {
  const chunks = (placements: string[][]) => placements.map((nodes, task) => ({ job: 'j', stage: 'm', task, nodes }));
  const maps: StageSpec = { id: 'm', tasks: 2, demand: { cpu: 1, ram: 1 }, durationSeconds: 30, inputMB: 100 };

  test('two remote reads from the same replica holder queue on its uplink, though they go to different nodes', () => {
    const doc = job([maps]);
    // Both chunks only on c; tasks on a and b: c sends one chunk 0-10 s, the other 10-20 s; the second task ends at 50 s.
    const same = runPlan(doc, planOf(doc, [at('j/m/0@a:0'), at('j/m/1@b:0')], [], { placement: chunks([['c'], ['c']]) }), undefined).report;
    assert.equal(same.makespanSeconds, 50);
    // From c and d to a and b: no link is shared, both arrive at 10 s.
    const apart = runPlan(doc, planOf(doc, [at('j/m/0@a:0'), at('j/m/1@b:0')], [], { placement: chunks([['c'], ['d']]) }), undefined).report;
    assert.equal(apart.makespanSeconds, 40);
  });

  test('a remote read takes the replica whose uplink frees first', () => {
    // Chunk 0 only on c; chunk 1 on c and d. Task 0 (a) holds c's uplink 0-10 s, so task 1 (b) reads from d.
    const doc = job([maps]);
    const r = runPlan(doc, planOf(doc, [at('j/m/0@a:0'), at('j/m/1@b:0')], [], { placement: chunks([['c'], ['c', 'd']]) }), undefined).report;
    assert.equal(r.makespanSeconds, 40);
  });

  test('the slower end sets the rate: 100 MB from a 40 Mbit/s node to an 80 Mbit/s one takes 20 s', () => {
    const doc = job([maps], ['a', 'b']);
    doc.nodes[1].bandwidthMbps = 40;
    doc.jobs[0].stages[0] = { ...maps, tasks: 1 };
    const r = runPlan(doc, planOf(doc, [at('j/m/0@a:0')], [], { placement: chunks([['b']]) }), undefined).report;
    assert.equal(r.makespanSeconds, 20 + 30);
  });

  test("with a network, a node's own link still caps the rack's rate", () => {
    // Intra-rack 8000 Mbit/s, but both nodes have 80 Mbit/s links: 100 MB takes 10 s, not 0.1 s.
    const doc = job([{ ...maps, tasks: 1 }], ['a', 'b'], { network: { intraRackMbps: 8000, interRackMbps: 800 } });
    doc.nodes.forEach((n) => (n.rack = 'r1'));
    const r = runPlan(doc, planOf(doc, [at('j/m/0@a:0')], [], { placement: chunks([['b']]) }), undefined).report;
    assert.equal(r.makespanSeconds, 10 + 30);
  });

  test('NodeLinks: a transfer queues on both of its links and ends when the busier one has carried it', () => {
    const links = new NodeLinks([80, 80, 80]);
    assert.equal(links.reserve(0, 0, 1, 10), 10); // 0 -> 1: 0-10 on both
    assert.equal(links.reserve(0, 2, 1, 5), 15); // 2 -> 1: 2's uplink 0-5, 1's downlink 10-15
    assert.equal(links.reserve(0, 0, 2, 5), 15); // 0 -> 2: 0's uplink 10-15, 2's downlink 0-5
    assert.equal(links.reserve(0, 1, 0, 5), 5); // 1 -> 0 uses the other directions: free at once
    // Each link carried exactly its own transfers, back to back: no link idled waiting for another.
    assert.deepEqual([links.uplinkFreeAt(0), links.downlinkFreeAt(1), links.uplinkFreeAt(2), links.downlinkFreeAt(2)], [15, 15, 5, 5]);
    links.begin();
    links.reserve(20, 2, 0, 5);
    links.undo();
    assert.deepEqual([links.uplinkFreeAt(2), links.downlinkFreeAt(0)], [5, 5], 'undo takes a reservation back');
  });
});
