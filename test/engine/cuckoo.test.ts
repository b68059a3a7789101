/**
 * Cuckoo (src/engine/policies): host weights (Alg. 1) and weighted round-robin chunk placement with
 * replicas and accept/reject (Alg. 2), on a handmade forecast whose numbers are worked out below.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { CuckooPolicy } from '../../src/engine/policies/cuckoo/cuckoo';
import { hostWeights } from '../../src/engine/placement/host-weights';
import { wrrPlacement } from '../../src/engine/placement/wrr-placement';
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

  test('Alg. 2: replicas by weighted round-robin, weights drop by the task cost, a job that does not fit is rejected and gives its weight back', () => {
    const model = loadInstance(forecastInstance());
    const r = wrrPlacement(model, hostWeights(model));
    // Smooth WRR on the remaining weights (a 64, b 36, c 18; each replica costs 15), credits starting at 0:
    // big chunk 0: a (credit 64, the most; a 64 -> 49), b (other than a: b 72 > c 36; 36 -> 21);
    // chunk 1: c (credits a -5, b 39, c 54; 18 -> 3), b (a 44 < b 60; 21 -> 6);
    // chunk 2: a (the only host with 15 left; 49 -> 34), then no other host has 15: big is rejected and
    // gives back its weight and credit. late: a (64 -> 49), b (36 -> 21), accepted.
    assert.deepEqual(Array.from(r.accepted), [0, 1]);
    assert.deepEqual(r.replicas.slice(0, 3), [null, null, null]);
    assert.deepEqual(r.replicas[3], [0, 1]);
    assert.deepEqual(Array.from(r.weights), [49, 21, 18]);
  });

  test('Alg. 2 spreads the chunks over every host in proportion to its weight (Cuckoo III-C), not only over the heaviest', () => {
    // Weights far above the job's cost, as Alg. 1's GFLOP over 24 h are: 300 chunks, 3 replicas, 6 hosts.
    const nodes = [4, 3, 2, 1, 1, 1].map((cpu, k) => node(`h${k}`, { capacity: { cpu, ram: 64 }, maxTasks: 8 }));
    const model = loadInstance({ format: 'fallow.instance/v1', name: 'wrr', horizon: { slots: 10, slotSeconds: 60 }, metrics: ['cpu', 'ram'], nodes, jobs: [{ id: 'j', replication: 3, stages: [{ id: 'map', tasks: 300, demand: { cpu: 1 }, work: 1, inputMB: 64 }] }] });
    const weights = hostWeights(model);
    const r = wrrPlacement(model, weights);
    const count = new Array(6).fill(0);
    for (const reps of r.replicas) for (const k of reps!) count[k]++;
    const total = weights.reduce((a, b) => a + b, 0);
    // 900 replicas: each host within 25% of its share of the weight (300, 225, 150, 75, 75, 75; the three
    // replicas of a chunk go to distinct hosts, which shifts a few from the heaviest to the others). Taking
    // the highest remaining weight every time, the top 3 hosts held all 900.
    count.forEach((c, k) => assert.ok(Math.abs(c - (900 * weights[k]) / total) <= 0.25 * ((900 * weights[k]) / total), `h${k}: ${c} of 900, weight ${weights[k]} of ${total}`));
    assert.ok(count[0] > count[1] && count[1] > count[2] && count[2] > Math.max(count[3], count[4], count[5]), count.join(' '));
  });

  test('the Cuckoo policy runs only the accepted jobs, with the WRR replicas', () => {
    const { sim, report } = runDriver(forecastInstance(), (m) => new CuckooPolicy(m), undefined, 'cuckoo');
    // As in the Alg. 2 test: big is rejected, late accepted with its chunk on a and b.
    assert.equal(report.rejectedJobs, 1);
    assert.equal(report.tasks, 1);
    assert.equal(report.jobs[0].accepted, false);
    assert.deepEqual(sim.replicas[3], [0, 1]);
    assert.equal(report.unfinishedJobs, 0);
    assert.equal(report.placementBytes, 2 * 64e6, 'two replicas of late\'s one chunk');
  });
});
