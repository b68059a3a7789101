/**
 * The network model and the online policies of the ACO-BP comparison in the simulator: a remote read costs
 * inputMB over the inter-rack (or intra-rack) bandwidth, a reduce fetches its share of the map output;
 * the Fair Scheduler's delay scheduling runs fewer non-local maps than FS without it on an instance built
 * for it; the aco-bp policy finishes a paper-shaped batch within capacity, deterministically.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance, Model } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { RwsPolicy } from '../../src/engine/policies/rws/rws';
import { getQos } from '../../src/engine/qos';
import { simulatePlan, simulatePolicy } from '../../src/engine/simulation';
import { Driver, Simulator } from '../../src/engine/simulate/simulator';
import { givenOrRandomReplicas } from '../../src/engine/policies/dispatch/replicas';
import { ActualUsage } from '../../src/engine/simulate/usage';
import { acoBpInstance } from '../../harness/acobp-instance';

/** Launches every ready task at once on its stage's node (by index), one task per node at a time. */
class ImmediateDriver implements Driver {
  readonly name = 'immediate';
  readonly mode = 'policy' as const;
  private readonly queue: number[] = [];
  constructor(private readonly model: Model, private readonly nodeOf: Record<string, number>) {}
  prepare(sim: Simulator): void {
    sim.slots.fill(1);
    givenOrRandomReplicas(sim);
  }
  onReady(_sim: Simulator, i: number): void {
    this.queue.push(i);
  }
  onKilled(_sim: Simulator, i: number): void {
    this.queue.push(i);
  }
  dispatch(sim: Simulator): void {
    for (let n = 0; n < this.queue.length; n++) {
      const i = this.queue[n];
      const k = this.nodeOf[this.model.stages[this.model.taskStage[i]].id];
      if (sim.freeSlots(k) > 0) (sim.launch(i, k), this.queue.splice(n--, 1));
    }
  }
}

/** Nodes a1, a2 in rack A and b1 in rack B; one map of 10 s whose block lives on a1; a reduce after it. */
function network(outputMB = 0): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'net',
    horizon: { slots: 100, slotSeconds: 1 },
    metrics: ['vcpu'],
    network: { intraRackMbps: 8000, interRackMbps: 800 },
    nodes: [
      { id: 'a1', rack: 'A', capacity: { vcpu: 1 } },
      { id: 'a2', rack: 'A', capacity: { vcpu: 1 } },
      { id: 'b1', rack: 'B', capacity: { vcpu: 1 } },
    ],
    jobs: [
      {
        id: 'j',
        stages: [
          { id: 'map', tasks: 1, demand: { vcpu: 1 }, durationSeconds: 10, inputMB: 1000, outputMB, blocks: [['a1']] },
          { id: 'reduce', tasks: 1, after: ['map'], demand: { vcpu: 1 }, durationSeconds: 5 },
        ],
      },
    ],
  };
}

const planOn = (mapNode: string, reduceNode: string, reduceStart = 20) => ({
  format: 'fallow.plan/v1',
  instance: 'net',
  strategy: 'hand',
  assignments: [
    { job: 'j', stage: 'map', task: 0, node: mapNode, start: 0 },
    { job: 'j', stage: 'reduce', task: 0, node: reduceNode, start: reduceStart },
  ],
  rejected: [],
  placement: [{ job: 'j', stage: 'map', task: 0, nodes: ['a1'] }],
  objective: { scheduledTasks: 2, makespanSlots: reduceStart + 5 },
});

describe('network model', () => {
  const mapEnd = (mapNode: string, outputMB: number, reduceNode: string) => ({ r: simulatePlan(loadInstance(network(outputMB)), planOn(mapNode, reduceNode) as never, { qos: 'none' }) });

  test('a node-local map reads nothing; rack-local reads at the intra-rack rate; remote at the inter-rack rate', () => {
    // The reduce is planned right after the map (slot 10): the map's read delays it by the read's time.
    const run = (mapNode: string) => simulatePlan(loadInstance(network()), planOn(mapNode, mapNode, 10) as never, { qos: 'none' });
    const local = run('a1');
    const rack = run('a2');
    const remote = run('b1');
    assert.deepEqual([local.remoteTasks, rack.remoteTasks, remote.remoteTasks], [0, 1, 1]);
    assert.equal(local.makespanSeconds, 15);
    assert.equal(rack.makespanSeconds, 15 + (1000 * 8) / 8000, '1000 MB at 8000 Mbit/s: 1 s');
    assert.equal(remote.makespanSeconds, 15 + (1000 * 8) / 800, '1000 MB at 800 Mbit/s: 10 s');
    assert.equal(remote.remoteBytes, 1000e6);
  });

  test("Jain's index is 1 for a lone job, and the utilisation series holds what ran", () => {
    const r = simulatePlan(loadInstance(network()), planOn('a1', 'a1', 10) as never, { qos: 'none' });
    assert.equal(r.jainFairness, 1);
    // One vCPU of three held from 0 to 15 s: samples at 0 and 10 s.
    assert.deepEqual(r.utilisation.seconds, [0, 10]);
    assert.deepEqual(r.utilisation.used.vcpu, [0.3333, 0.3333]);
    assert.deepEqual(r.locality, { nodeLocal: 1, rackLocal: 0, remote: 0 });
  });

  test('a reduce fetches the map output held elsewhere: nothing on its own node, more across racks', () => {
    const same = mapEnd('a1', 8000, 'a1').r.makespanSeconds;
    const rack = mapEnd('a1', 8000, 'a2').r.makespanSeconds;
    const across = mapEnd('a1', 8000, 'b1').r.makespanSeconds;
    assert.equal(same, 25);
    assert.equal(rack, 25 + 8000 * 8 / 8000, 'the 8 s intra-rack shuffle delays the reduce');
    assert.equal(across, 25 + 8000 * 8 / 800, 'the 80 s inter-rack shuffle');
  });

  test('slow start: a reduce launched after half the maps fetches their output while the rest run', () => {
    // Two maps of 10 s, one after the other on a1 (one slot), each writing 8000 MB; the reduce runs on b1,
    // across racks: each map's output takes 80 s to arrive. With the barrier it launches at 20 s and
    // fetches both (160 s), then computes 5 s: 185 s. With slow start 0.5 it launches when the first map
    // ends (10 s), fetches its output until 90 s, the second's until 170 s, and ends at 175 s.
    const doc = network(8000);
    doc.jobs[0].stages[0] = { ...doc.jobs[0].stages[0], tasks: 2, blocks: [['a1'], ['a1']] };
    const model = loadInstance(doc);
    const run = (reduceSlowstart: number) => {
      const driver = new ImmediateDriver(model, { map: 0, reduce: 2 });
      const sim = new Simulator(model, new ActualUsage(model, undefined), driver, { qos: getQos('none'), reduceSlowstart });
      const r = sim.run();
      return { makespan: r.makespanSeconds, reduceLaunch: sim.startedAt[2] };
    };
    assert.deepEqual(run(1), { makespan: 185, reduceLaunch: 20 });
    assert.deepEqual(run(0.5), { makespan: 175, reduceLaunch: 10 });
    assert.throws(() => run(0), /reduceSlowstart/);
  });
});

describe('ACO-BP comparison policies', () => {
  test('delay scheduling: FS runs fewer non-local maps with it than without it', () => {
    // 10 nodes of 2 vCPU in two racks; 60 maps of 2 s whose blocks live on the first 5 nodes (rack A).
    // Without delay the rack-B nodes take maps at once, all remote; with it, the job waits a moment and
    // its local nodes, freed every 2 s, take the maps before the 3 s delay runs out.
    const doc: InstanceDoc = {
      format: 'fallow.instance/v1',
      name: 'delay',
      horizon: { slots: 600, slotSeconds: 1 },
      metrics: ['vcpu'],
      network: { intraRackMbps: 10000, interRackMbps: 1000 },
      nodes: Array.from({ length: 10 }, (_, k) => ({ id: `n${k}`, rack: k < 5 ? 'A' : 'B', capacity: { vcpu: 2 } })),
      jobs: [{ id: 'j', stages: [{ id: 'map', tasks: 60, demand: { vcpu: 1 }, durationSeconds: 2, inputMB: 128, blocks: Array.from({ length: 60 }, (_, t) => [`n${t % 5}`, `n${(t + 1) % 5}`]) }] }],
    };
    const m = loadInstance(doc);
    const withDelay = simulatePolicy(m, 'fair', { qos: 'none' });
    const without = simulatePolicy(m, 'fair-nodelay', { qos: 'none' });
    assert.equal(withDelay.unfinishedJobs + without.unfinishedJobs, 0);
    assert.ok(without.remoteTasks >= 10, `without delay: ${without.remoteTasks} remote maps`);
    assert.ok(withDelay.remoteTasks < without.remoteTasks / 2, `with delay ${withDelay.remoteTasks} vs without ${without.remoteTasks}`);
  });

  test('the aco-bp policy finishes a paper-shaped batch within capacity, the same for the same seed', () => {
    const m = loadInstance(acoBpInstance({ seed: 3, scale: 0.1, perFlavour: 4, jitter: 0.2, slots: 3000 }));
    const a = simulatePolicy(m, 'aco-bp', { qos: 'none', seed: 2 });
    assert.equal(a.unfinishedJobs, 0);
    assert.equal(a.relaunches, 0, 'launched only where the task fits: nothing to kill');
    assert.ok(a.remoteTaskPct < 50, `${a.remoteTaskPct}% remote`);
    // The comparison's metrics (Fig. 5-10): latency per job, a utilisation series every 10 s, RU per node,
    // Jain's index, and the locality of every map.
    assert.ok(a.utilisation.seconds.length >= Math.floor(a.makespanSeconds / 10));
    for (const m of ['vcpu', 'mem']) assert.ok(a.utilisation.used[m].every((x) => x >= 0 && x <= 1) && a.utilisation.used[m].some((x) => x > 0.3), m);
    assert.equal(Object.keys(a.ruByNode).length, m.K);
    assert.ok(Object.values(a.ruByNode).every((x) => x >= 0 && x <= 1));
    assert.ok(a.jainFairness > 1 / m.jobs.length && a.jainFairness <= 1, `Jain ${a.jainFairness}`);
    const maps = m.stages.filter((s) => s.blocks).reduce((n, s) => n + s.tasks, 0);
    assert.equal(a.locality!.nodeLocal + a.locality!.rackLocal + a.locality!.remote, maps);
    assert.equal(a.locality!.rackLocal + a.locality!.remote, a.remoteTasks);
    const b = simulatePolicy(m, 'aco-bp', { qos: 'none', seed: 2 });
    assert.equal(b.makespanSeconds, a.makespanSeconds);
    assert.deepEqual(b.jobs, a.jobs);
  });

  test('RWS puts more block replicas on stronger VMs; HMJS and RWS finish a batch within capacity', () => {
    const m = loadInstance(acoBpInstance({ seed: 4, scale: 0.1, perFlavour: 4, slots: 3000 }));
    const sim = new Simulator(m, new ActualUsage(m, undefined), new RwsPolicy(m), { qos: getQos('none'), seed: 1 });
    sim.run();
    const byFlavour = new Map<string, number>();
    for (const r of sim.replicas) for (const k of r ?? []) byFlavour.set(m.flavors[k], (byFlavour.get(m.flavors[k]) ?? 0) + 1);
    // Weights 1 : 2 : 4 : 8 : 12 (vCPUs, equal speeds), drawn without replacement per block.
    assert.ok(byFlavour.get('VMF5')! > 3 * byFlavour.get('VMF1')!, JSON.stringify([...byFlavour]));
    assert.ok(byFlavour.get('VMF4')! > byFlavour.get('VMF2')!);
    for (const p of ['rws', 'hmjs']) {
      const r = simulatePolicy(m, p, { qos: 'none', seed: 1 });
      assert.equal(r.unfinishedJobs, 0, p);
      assert.equal(r.relaunches, 0, `${p}: launched only where the task fits`);
    }
  });
});
