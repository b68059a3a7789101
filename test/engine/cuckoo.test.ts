/**
 * Cuckoo (src/engine/policies): host weights (Alg. 1) and weighted round-robin chunk placement with
 * replicas and accept/reject (Alg. 2), on a handmade forecast whose numbers are worked out below.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { CuckooPolicy, hostWeights, wrrPlacement } from '../../src/engine/policies';
import { node, runDriver } from '../support/sim-fixtures';

/**
 * Two slots of 10 s, CPU safety margin 10%.
 *   a: 4 cores x 2 GFLOP/s = cap 8, forecast 50% both slots: load 0.6 -> (8 - 4.8) x 10 = 32 per slot, 64
 *   b: 4 cores x 1 GFLOP/s = cap 4, forecast 0% then 90%: (4 - 0.4) x 10 = 36, then load 1.0 -> nothing: 36
 *   c: 1 core  x 1 GFLOP/s = cap 1, forecast 0%: (1 - 0.1) x 10 = 9 per slot, 18
 */
function forecastInstance(): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'cuckoo-hand',
    horizon: { slots: 2, slotSeconds: 10 },
    metrics: ['cpu', 'ram'],
    safetyMargin: { cpu: 0.1 },
    nodes: [node('a', { speed: 2 }), node('b'), node('c', { capacity: { cpu: 1, ram: 16 } })],
    usage: { a: { cpu: [0.5, 0.5] }, b: { cpu: [0, 0.9] } },
    jobs: [
      { id: 'big', replication: 2, stages: [{ id: 'map', tasks: 3, demand: { cpu: 1 }, work: 15, inputMB: 64 }] },
      { id: 'late', replication: 2, stages: [{ id: 'map', tasks: 1, demand: { cpu: 1 }, work: 15, inputMB: 64 }] },
    ],
  };
}

describe('Cuckoo data placement', () => {
  test('Alg. 1: host weight = sum over forecast points of free GFLOP/s (load + sm < 100%) x sampling period', () => {
    assert.deepEqual(Array.from(hostWeights(loadInstance(forecastInstance()))), [64, 36, 18]);
  });

  test('Alg. 2: replicas go to the heaviest hosts, weights drop by the task cost, a job that does not fit is rejected', () => {
    const model = loadInstance(forecastInstance());
    const r = wrrPlacement(model, hostWeights(model));
    // big, chunk 0: a (64 -> 49), then b (36 -> 21); chunk 1: a (49 -> 34), b (21 -> 6);
    // chunk 2: a (34 -> 19), then c (18 -> 3) now outweighs b (6).
    assert.deepEqual(r.replicas.slice(0, 3), [[0, 1], [0, 1], [0, 2]]);
    // late: a (19 -> 4), then the best other host has 6 < 15 left: rejected, its weight given back.
    assert.deepEqual(Array.from(r.accepted), [1, 0]);
    assert.equal(r.replicas[3], null);
    assert.deepEqual(Array.from(r.weights), [19, 6, 3]);
  });

  test('the Cuckoo policy runs only the accepted jobs, with the WRR replicas', () => {
    const { sim, report } = runDriver(forecastInstance(), (m) => new CuckooPolicy(m), undefined, 'cuckoo');
    assert.equal(report.rejectedJobs, 1);
    assert.equal(report.tasks, 3);
    assert.equal(report.jobs[1].accepted, false);
    assert.deepEqual(sim.replicas[2], [0, 2]);
    assert.equal(report.unfinishedJobs, 0);
    assert.equal(report.placementBytes, 3 * 2 * 64e6, 'two replicas of each of the three chunks');
  });
});
