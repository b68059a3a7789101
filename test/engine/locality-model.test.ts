/**
 * The locality additions to the instance (docs/FORMAT.md, Locality): block replicas per task, outputMB,
 * network and flavours are validated with the JSON path of every problem, compiled into the model, and
 * counted by the evaluator at three levels (node-local, rack-local, remote). Old instances mean what they meant.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { ValidationError } from '../../src/engine/model/errors';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, Issue } from '../../src/engine/model/types';
import { validateInstance } from '../../src/engine/model/validate';
import { placeChunks } from '../../src/engine/placement/placement';
import { Schedule } from '../../src/engine/schedule/schedule';

function doc(): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'blocks',
    horizon: { slots: 10, slotSeconds: 10 },
    metrics: ['vcpu', 'mem'],
    network: { intraRackMbps: 10000, interRackMbps: 1000 },
    nodes: [
      { id: 'a1', rack: 'A', flavor: 'VMF1', capacity: { vcpu: 1, mem: 2 } },
      { id: 'a2', rack: 'A', flavor: 'VMF2', capacity: { vcpu: 2, mem: 4 } },
      { id: 'b1', rack: 'B', flavor: 'VMF2', capacity: { vcpu: 2, mem: 4 } },
    ],
    jobs: [
      {
        id: 'j',
        stages: [
          { id: 'map', tasks: 3, demand: { vcpu: 1, mem: 1 }, durationSeconds: 10, inputMB: 128, outputMB: 40, blocks: [['a1'], ['a1', 'b1'], ['a1']] },
          { id: 'reduce', tasks: 1, after: ['map'], demand: { vcpu: 1, mem: 1 }, durationSeconds: 10 },
        ],
      },
    ],
  };
}

const issuesOf = (raw: unknown): Issue[] => {
  try {
    validateInstance(raw);
    return [];
  } catch (e) {
    assert.ok(e instanceof ValidationError);
    return e.issues;
  }
};

describe('locality in the instance', () => {
  test('a valid instance compiles blocks, outputMB, network and flavours', () => {
    const m = loadInstance(doc());
    const map = m.stages[0];
    assert.deepEqual(map.blocks!.map((r) => Array.from(r)), [[0], [0, 2], [0]]);
    assert.equal(map.outputMB, 40);
    assert.equal(m.stages[1].blocks, null);
    assert.deepEqual(m.flavors, ['VMF1', 'VMF2', 'VMF2']);
    assert.deepEqual(m.network, { intraRackMbps: 10000, interRackMbps: 1000 });
  });

  test('bad blocks, outputMB and network are all named by path, at once', () => {
    const d = doc() as any;
    d.jobs[0].stages[0].blocks = [['a1', 'zz'], [], ['a1', 'a1', 'a2', 'b1']];
    d.jobs[0].stages[0].outputMB = -1;
    d.jobs[0].stages[1].blocks = [['a1'], ['a2']];
    d.network = { intraRackMbps: 0, interRackMbps: 'fast', extra: 1 };
    assert.deepEqual(issuesOf(d), [
      { path: 'network.intraRackMbps', message: 'must be a number > 0, got 0' },
      { path: 'network.interRackMbps', message: 'must be a number > 0, got "fast"' },
      { path: 'network.extra', message: 'unknown field (expected intraRackMbps or interRackMbps)' },
      { path: 'jobs[0].stages[0].outputMB', message: 'must be a number >= 0, got -1' },
      { path: 'jobs[0].stages[0].blocks[0][1]', message: 'unknown node "zz"' },
      { path: 'jobs[0].stages[0].blocks[1]', message: 'must be a non-empty array of node ids, got []' },
      { path: 'jobs[0].stages[0].blocks[2]', message: 'has 4 replicas but the cluster has 3 nodes' },
      { path: 'jobs[0].stages[0].blocks[2][1]', message: 'node "a1" holds this block twice' },
      { path: 'jobs[0].stages[1].blocks', message: 'has 2 entries but the stage has 1 tasks (one list of replica nodes per task)' },
    ]);
  });

  test('a stage with thousands of bad blocks gets a bounded list of messages and a count of the rest', () => {
    const d = doc() as any;
    d.jobs[0].stages[0].tasks = 500;
    d.jobs[0].stages[0].blocks = Array.from({ length: 500 }, () => ['nowhere']);
    const issues = issuesOf(d);
    assert.equal(issues.length, 21);
    assert.deepEqual(issues[20], { path: 'jobs[0].stages[0].blocks', message: 'and 480 more problems in this stage\'s blocks' });
  });

  test('the evaluator counts node-local, rack-local and remote tasks; placement keeps the given replicas', () => {
    const m = loadInstance(doc());
    const s = new Schedule(m);
    // map 0 on a1 (holds it: node-local), map 1 on a2 (a1 holds it, same rack: rack-local), map 2 on b1
    // (only a1 holds it, rack A: remote); the reduce has no blocks and is not counted.
    [0, 1, 2].forEach((k, i) => ((s.node[i] = k), (s.start[i] = 0)));
    s.node[3] = 0;
    s.start[3] = 1;
    const placement = placeChunks(m, s);
    assert.deepEqual(placement[1].nodes, ['a1', 'b1']);
    const plan = {
      format: 'fallow.plan/v1',
      instance: 'blocks',
      strategy: 'hand',
      assignments: [0, 1, 2, 3].map((i) => ({ job: 'j', stage: m.stages[m.taskStage[i]].id, task: m.taskOrdinal[i], node: m.nodeIds[s.node[i]], start: s.start[i] })),
      rejected: [],
      placement,
      objective: { scheduledTasks: 4, makespanSlots: 2 },
    };
    const e = evaluatePlan(m, plan);
    assert.ok(e.ok, e.violations.join('; '));
    assert.deepEqual(e.kpis.locality, { nodeLocal: 1, rackLocal: 1, remote: 1 });
    // The comparison's figures: 3 of 5 vCPU and 3 of 10 GB held in slot 0, the reduce's 1 and 1 in slot 1 (10 s slots);
    // RU (Eq. 2) per node averaged over the 2 slots; one job: Jain's index 1.
    assert.deepEqual(e.kpis.utilisationSeries, { seconds: [0, 10], used: { vcpu: [0.6, 0.2], mem: [0.3, 0.1] } });
    assert.deepEqual(e.kpis.ruByNode, { a1: 0.5, a2: 0.0625, b1: 0.0625 });
    assert.equal(e.kpis.jainFairness, 1);
    assert.equal(e.kpis.remoteTasks, 2, 'placement-based: the tasks not on a replica');
  });

  test('an instance without blocks has no locality counts, as before', () => {
    const d = doc() as any;
    delete d.jobs[0].stages[0].blocks;
    delete d.network;
    const m = loadInstance(d);
    assert.equal(m.stages[0].blocks, null);
    assert.equal(m.network, null);
    const s = new Schedule(m);
    [0, 1, 2].forEach((k, i) => ((s.node[i] = k), (s.start[i] = 0)));
    s.node[3] = 0;
    s.start[3] = 1;
    const plan = { format: 'fallow.plan/v1', instance: 'blocks', strategy: 'hand', assignments: [0, 1, 2, 3].map((i) => ({ job: 'j', stage: m.stages[m.taskStage[i]].id, task: m.taskOrdinal[i], node: m.nodeIds[s.node[i]], start: s.start[i] })), rejected: [], objective: { scheduledTasks: 4, makespanSlots: 2 } };
    assert.equal(evaluatePlan(m, plan).kpis.locality, null);
  });
});
