/**
 * The `cuckoo` strategy (src/engine/strategies/cuckoo): a fallow.plan/v1 whose placement is Cuckoo's WRR
 * replicas (Alg. 1 + 2), whose admission is Cuckoo's, and whose start slots are Hadoop's locality-first
 * dispatch as a list schedule on the forecast capacity.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluatePlan } from '../../src/engine/evaluate/evaluate';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc, PlanDoc } from '../../src/engine/model/types';
import { hostWeights } from '../../src/engine/placement/host-weights';
import { simulatePlan, simulatePolicy } from '../../src/engine/simulation';
import { solve } from '../../src/engine/solve';
import { node } from '../support/sim-fixtures';

/**
 * 20 slots of 10 s, CPU safety margin 10%; maps of 20 GFLOP reading a 64 MB chunk, 2 replicas.
 *   a: 8 cores x 2 GFLOP/s, forecast 40% -> (16 - 0.5 x 16) x 10 = 80 per slot, 1600
 *   b: 8 cores x 1 GFLOP/s, forecast 0%  -> (8 - 0.1 x 8) x 10 = 72 per slot, 1440
 *   c: 2 cores x 1 GFLOP/s, forecast 0%  -> (2 - 0.2) x 10 = 18 per slot, 360
 */
function hand(jobs: InstanceDoc['jobs']): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: 'cuckoo-plan',
    horizon: { slots: 20, slotSeconds: 10 },
    metrics: ['cpu', 'ram'],
    safetyMargin: { cpu: 0.1 },
    nodes: [
      node('a', { speed: 2, capacity: { cpu: 8, ram: 32 }, maxTasks: 8 }),
      node('b', { capacity: { cpu: 8, ram: 32 }, maxTasks: 8 }),
      node('c', { capacity: { cpu: 2, ram: 8 }, maxTasks: 2 }),
    ],
    usage: { a: { cpu: Array(20).fill(0.4) } },
    jobs,
  };
}

const maps = (id: string, tasks: number, extra: object = {}) => ({
  id,
  replication: 2,
  stages: [{ id: 'map', tasks, demand: { cpu: 1, ram: 2 }, work: 20, inputMB: 64 }],
  ...extra,
});

async function plan(doc: InstanceDoc): Promise<PlanDoc> {
  return solve(loadInstance(doc), { strategy: 'cuckoo', maxIterations: 1 });
}

describe('strategy "cuckoo"', () => {
  test('the placement is the WRR replicas: heavier hosts (Alg. 1) receive more chunks', async () => {
    const doc = hand([maps('j', 30)]);
    assert.deepEqual(Array.from(hostWeights(loadInstance(doc))), [1600, 1440, 360]);
    const p = await plan(doc);
    assert.equal(p.rejected.length, 0);
    const count = new Map<string, number>();
    for (const e of p.placement!) for (const n of e.nodes) count.set(n, (count.get(n) ?? 0) + 1);
    // 60 replicas of 20 GFLOP by weighted round-robin on the remaining weights (1600:1440:360 at first, each
    // replica taking 20 from its host): every host gets some, the small c the fewest.
    const [a, b, c] = ['a', 'b', 'c'].map((n) => count.get(n) ?? 0);
    assert.ok(c > 0 && c < a && c < b, `a ${a} b ${b} c ${c}`);
    assert.equal(a + b + c, 60);
    for (const e of p.placement!) assert.equal(new Set(e.nodes).size, 2, 'two distinct replicas');
  });

  test('tasks run mostly where their chunk is; remote ones are counted by the evaluator', async () => {
    const doc = hand([maps('j', 30)]);
    const model = loadInstance(doc);
    const p = await plan(doc);
    const e = evaluatePlan(model, p);
    assert.ok(e.ok, e.violations.join('; '));
    assert.equal(e.kpis.remoteTasks, p.stats?.remoteTasks);
    assert.ok(e.kpis.remoteTasks! <= p.assignments.length / 2, `${e.kpis.remoteTasks} remote of ${p.assignments.length}`);
  });

  test('a job that cannot fit in the window is rejected, the others run', async () => {
    // `chain` is cheap for the weights but its three 8-slot stages need 24 slots of a 20-slot window.
    const chain = {
      id: 'chain',
      stages: [
        { id: 's1', tasks: 1, demand: { cpu: 1 }, durationSeconds: 80 },
        { id: 's2', tasks: 1, demand: { cpu: 1 }, durationSeconds: 80, after: ['s1'] },
        { id: 's3', tasks: 1, demand: { cpu: 1 }, durationSeconds: 80, after: ['s2'] },
      ],
    };
    const p = await plan(hand([maps('j', 10), chain, maps('k', 4)]));
    assert.deepEqual(p.rejected, ['chain']);
    assert.equal(p.stats?.rejectedByWindow, 1);
    assert.equal(p.objective.scheduledTasks, 14);
  });

  test('a job the weights cannot carry is rejected by Alg. 2 before scheduling', async () => {
    // 3400 GFLOP of weight in all; 100 maps x 2 replicas x 20 GFLOP = 4000.
    const p = await plan(hand([maps('small', 5), maps('huge', 100)]));
    assert.deepEqual(p.rejected, ['huge']);
    assert.equal(p.stats?.rejectedByWeight, 1);
  });

  test('the plan and the online policy start from the same replicas and admission', async () => {
    const doc = hand([maps('small', 5), maps('huge', 100), maps('j', 20)]);
    const model = loadInstance(doc);
    const p = await plan(doc);
    const planned = simulatePlan(model, p, { qos: 'cuckoo' });
    const online = simulatePolicy(model, 'cuckoo', { qos: 'cuckoo' });
    assert.deepEqual(planned.jobs.map((j) => j.accepted), online.jobs.map((j) => j.accepted));
    assert.equal(planned.placementBytes, online.placementBytes, 'the same replicas are staged');
    assert.equal(planned.unfinishedJobs, 0);
    assert.equal(online.unfinishedJobs, 0);
  });
});
