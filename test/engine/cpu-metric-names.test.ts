import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadInstance } from '../../src/engine/model/model';
import { isCpu } from '../../src/engine/qos/salamander';
import { simulatePolicy } from '../../src/engine/simulation';

/** One 1-core node, four 10-second tasks of 1 core each; the CPU metric named `metric`. */
function oneCore(metric: string) {
  return loadInstance({
    format: 'fallow.instance/v1',
    name: `one-core-${metric}`,
    horizon: { slots: 120, slotSeconds: 1 },
    metrics: [metric, 'mem'],
    nodes: [{ id: 'n1', capacity: { [metric]: 1, mem: 64 } }],
    jobs: [{ id: 'j', stages: [{ id: 's', tasks: 4, demand: { [metric]: 1, mem: 1 }, durationSeconds: 10 }] }],
  });
}

test('the CPU is the metric named cpu, vcpu, cpus, vcpus or cores, in any case; nothing else is', () => {
  for (const name of ['cpu', 'vcpu', 'VCPU', 'cpus', 'vCPUs', 'cores']) assert.ok(isCpu(name), name);
  for (const name of ['ram', 'mem', 'gpu', 'cpu_share', 'core']) assert.equal(isCpu(name), false, name);
});

test('tasks that together demand more CPU than a node has share it: four 1-core tasks on 1 core take 40 s, whatever the metric is called', () => {
  // Hadoop's 20 fixed slots launch all four at once; unthrottled they would all end at 10 s.
  for (const metric of ['cpu', 'vcpu']) {
    const report = simulatePolicy(oneCore(metric), 'hadoop', { qos: 'none', seed: 1 });
    assert.ok(report.makespanSeconds >= 40 - 1e-6, `${metric}: ${report.makespanSeconds} s`);
    assert.ok(report.makespanSeconds < 50, `${metric}: ${report.makespanSeconds} s`);
  }
});
