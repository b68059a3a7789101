/**
 * POSUM's look-ahead forks the live run (posum-policy.ts keepSlotStart and rethinkByReplay, Simulator.withdrawJobs):
 * a copy of the live run at the start of the decision's slot, with the jobs not submitted yet withdrawn and the
 * forecast after the slot, stands for the replay of the past from time 0. Its promise is the replay's decisions
 * exactly, at a cost that does not grow with the past. The replay from time 0 stays as the reference
 * (PortfolioPolicy.replayFromTimeZero): the two must decide alike, member score for member score.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadInstance } from '../../src/engine/model/model';
import { PosumAllocationPolicy } from '../../src/engine/policies/posum/allocation';
import { PortfolioParams } from '../../src/engine/policies/posum/params';
import { Decision, PortfolioPolicy } from '../../src/engine/policies/posum/posum-policy';
import { ProvisioningPolicy } from '../../src/engine/policies/posum/provisioning';
import { getQos } from '../../src/engine/qos';
import { portfolioParams } from '../../src/engine/simulation';
import { Simulator } from '../../src/engine/simulate/simulator';
import { ActualUsage } from '../../src/engine/simulate/usage';
import { posumInstance as instance, SLOT } from '../support/posum-instance';

const WEIGHTS = { alpha: 1 / 100, beta: 1, gamma: 1 };

/** POSUM's run on the actual load, its decisions (without their cost in ms), and how many replays started from time 0. */
function run(seed: number, params: Partial<PortfolioParams>, fromTimeZero: boolean): { trail: Omit<Decision, 'elapsedMs'>[]; replaysFromZero: number; score: unknown } {
  const { doc, actual } = instance(seed);
  const model = loadInstance(doc);
  const policy = new PortfolioPolicy(model, portfolioParams({ weights: WEIGHTS, ...params }));
  policy.replayFromTimeZero = fromTimeZero;
  const live = new Simulator(model, new ActualUsage(model, actual), policy, { qos: getQos('salamander'), seed: 1, provisioner: policy });
  const begin = Simulator.prototype.begin;
  let begun = 0;
  Simulator.prototype.begin = function (this: Simulator) {
    begun++;
    begin.call(this);
  };
  try {
    const report = live.run();
    return { trail: policy.trail.map(({ elapsedMs: _, ...d }) => d), replaysFromZero: begun - 1, score: report.score };
  } finally {
    Simulator.prototype.begin = begin;
  }
}

describe('POSUM: the look-ahead forks the live run', () => {
  const cases: [string, Partial<PortfolioParams>][] = [
    ['the defaults (at arrivals and every 120 s, until the submitted work is done)', {}],
    // 25-s periods: decisions inside slots, whose replay runs on from the slot's start with the choices made since.
    ['every 25 s and at arrivals, a 300-s look-ahead', { periodSeconds: 25, lookAheadSeconds: 300 }],
    ['every 25 s only', { periodSeconds: 25, decideOnArrival: false }],
  ];
  for (const [name, params] of cases)
    test(`the same decisions as the replay from time 0, member score for member score: ${name}`, () => {
      let forked = 0;
      let switched = 0;
      for (const seed of [1, 2, 3, 4]) {
        const reference = run(seed, params, true);
        const forking = run(seed, params, false);
        assert.ok(reference.trail.length >= 5, `seed ${seed}: ${reference.trail.length} decisions`);
        assert.equal(reference.replaysFromZero, reference.trail.length, `seed ${seed}: the reference replays every decision from time 0`);
        assert.deepEqual(forking.trail, reference.trail, `seed ${seed}`);
        assert.deepEqual(forking.score, reference.score, `seed ${seed}: the run's score`);
        forked += forking.trail.length - forking.replaysFromZero;
        if (new Set(reference.trail.map((d) => `${d.choice.allocation}/${d.choice.provisioning}`)).size > 1) switched++;
      }
      // Only the decisions of the first slot (nothing to fork yet) replay from time 0.
      assert.ok(forked >= 20, `${forked} decisions forked the live run`);
      assert.ok(switched >= 2, `POSUM switched in ${switched} of 4 runs: too few for the past choices to matter`);
    });

  test('echoed arrivals replay from time 0 (their jobs are not in the live run)', () => {
    const r = run(5, { echoArrivals: true }, false);
    assert.ok(r.trail.length > 0);
    assert.equal(r.replaysFromZero, r.trail.length);
  });
});

describe('Simulator.withdrawJobs', () => {
  test('a fork without the jobs not released yet runs as a run of the instance without them', () => {
    const { doc } = instance(6);
    const model = loadInstance(doc);
    const make = (m: typeof model) => new Simulator(m, new ActualUsage(m, m.doc.usage), new PosumAllocationPolicy(m, 'edls-sh'), { qos: getQos('salamander'), seed: 2, provisioner: new ProvisioningPolicy(m, 'dlx') });
    const at = 150;
    const later = new Set(doc.jobs.flatMap((j, n) => ((j.releaseSlot ?? 0) * SLOT > at ? [n] : [])));
    assert.ok(later.size >= 2 && later.size < doc.jobs.length - 2, `${later.size} jobs released after ${at} s`);
    const live = make(model);
    live.begin();
    live.advance(at);
    const fork = live.fork();
    fork.withdrawJobs(later);
    const forked = fork.runToEnd();
    const without = loadInstance({ ...doc, jobs: doc.jobs.filter((_, n) => !later.has(n)) });
    const alone = make(without).run();
    assert.deepEqual(forked.jobs.filter((_, n) => !later.has(n)).map((j) => j.endSeconds), alone.jobs.map((j) => j.endSeconds));
    assert.ok(forked.jobs.every((j, n) => later.has(n) === !j.accepted));
    assert.equal(forked.makespanSeconds, alone.makespanSeconds);
    // A job already released cannot be withdrawn.
    const released = doc.jobs.findIndex((j) => (j.releaseSlot ?? 0) * SLOT < at);
    assert.throws(() => live.fork().withdrawJobs(new Set([released])), /cannot be withdrawn/);
  });
});
