/**
 * POSUM's look-ahead shared by two threads (SimulateOptions.lookAheadThreads, policies/posum/look-ahead-peer.ts):
 * a second thread runs the same run and simulates half of every decision's members, the scores swapped through
 * shared memory. Its promise: the same decisions and report as one thread. A side whose other side is gone goes on
 * alone, deciding the same.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, test } from 'node:test';
import { loadInstance, Model } from '../../src/engine/model/model';
import { LookAheadPeer } from '../../src/engine/policies/posum/look-ahead-peer';
import { Decision, PortfolioPolicy } from '../../src/engine/policies/posum/posum-policy';
import { getQos } from '../../src/engine/qos';
import { portfolioParams, SimReport, simulatePolicy } from '../../src/engine/simulation';
import { Simulator } from '../../src/engine/simulate/simulator';
import { ActualUsage, UsageDoc } from '../../src/engine/simulate/usage';
import { posumInstance } from '../support/posum-instance';

const WEIGHTS = { alpha: 1 / 100, beta: 1, gamma: 1 };

function instance(seed: number): { model: Model; actual: UsageDoc } {
  const { doc, actual } = posumInstance(seed);
  return { model: loadInstance(doc), actual };
}

/** The report without what differs between any two runs (wall-clock costs) or says how it was run. */
function decided(r: SimReport): unknown {
  const { elapsedMs: _e, lookAheadThreads: _t, decisions, ...rest } = r as SimReport & { elapsedMs?: number };
  return { ...rest, decisions: decisions!.map(({ elapsedMs: _, ...d }: Decision) => d) };
}

describe('POSUM: two threads share each decision\'s look-ahead', () => {
  test('decide as one thread, decision for decision and member score for member score, with most decisions shared', () => {
    for (const seed of [1, 2, 3]) {
      const { model, actual } = instance(seed);
      const options = { actual, qos: 'salamander', seed: 1, posum: { weights: WEIGHTS } };
      const one = simulatePolicy(model, 'posum', options);
      const two = simulatePolicy(model, 'posum', { ...options, lookAheadThreads: 2 });
      assert.ok(one.decisions!.length >= 5, `seed ${seed}: ${one.decisions!.length} decisions`);
      assert.deepEqual(decided(two), decided(one), `seed ${seed}`);
      assert.equal(one.lookAheadThreads, undefined);
      const t = two.lookAheadThreads!;
      assert.equal(t.gaveUp, false, `seed ${seed}: the second thread was given up`);
      // Only the first slot's decisions (replayed from time 0, nothing to fork yet) are not shared.
      assert.ok(t.sharedDecisions >= two.decisions!.length - 3 && t.sharedDecisions > 0, `seed ${seed}: ${t.sharedDecisions} of ${two.decisions!.length} decisions shared`);
    }
  });

  test('a side whose other side is gone simulates every member itself and decides the same', () => {
    const { model, actual } = instance(4);
    const run = (peer: boolean) => {
      const policy = new PortfolioPolicy(model, portfolioParams({ weights: WEIGHTS }));
      let side: LookAheadPeer | null = null;
      if (peer) {
        const buffer = new SharedArrayBuffer(policy.lookAheadBytes);
        new LookAheadPeer(1, buffer, 16).leave();
        side = policy.shareLookAheads(0, buffer);
      }
      const report = new Simulator(model, new ActualUsage(model, actual), policy, { qos: getQos('salamander'), seed: 1, provisioner: policy }).run();
      return { trail: policy.trail.map(({ elapsedMs: _, ...d }) => d), score: report.score, side };
    };
    const alone = run(false);
    const given = run(true);
    assert.ok(alone.trail.length >= 5);
    assert.deepEqual(given.trail, alone.trail);
    assert.deepEqual(given.score, alone.score);
    assert.equal(given.side!.isAlone, true);
    assert.equal(given.side!.shared, 0);
  });

  test('swaps halves of the same decision only: a half for another decision leaves each side alone', async () => {
    const buffer = new SharedArrayBuffer(LookAheadPeer.bytes(16));
    const file = path.resolve(__dirname, '../../src/engine/policies/posum/look-ahead-peer.js');
    const other = new Worker(
      `const { LookAheadPeer } = require(${JSON.stringify(file)});
       const { workerData, parentPort } = require('node:worker_threads');
       const side = new LookAheadPeer(1, workerData, 16);
       const all = (x) => Array.from({ length: 16 }, () => ({ vd: x, sb: x, c: x }));
       const first = side.swap(7, all(1));
       const second = side.swap(9, all(2));
       parentPort.postMessage({ first: first && first[0].vd, second, shared: side.shared, alone: side.isAlone });`,
      { eval: true, workerData: buffer },
    );
    const side = new LookAheadPeer(0, buffer, 16);
    const all = (x: number) => Array.from({ length: 16 }, () => ({ vd: x, sb: x, c: x }));
    assert.deepEqual(side.swap(7, all(3))![0], { vd: 1, sb: 1, c: 1 });
    assert.equal(side.swap(8, all(4)), null);
    assert.deepEqual([side.shared, side.isAlone], [1, true]);
    const [theirs] = await once(other, 'message');
    assert.deepEqual(theirs, { first: 3, second: null, shared: 1, alone: true });
  });

  test('takes 1 or 2 threads, and shares only the replayed look-ahead of the live run', () => {
    const { model, actual } = instance(5);
    assert.throws(() => simulatePolicy(model, 'posum', { actual, lookAheadThreads: 3 }), /lookAheadThreads must be 1 or 2, got 3/);
    const rebuilt = new PortfolioPolicy(model, portfolioParams({ weights: WEIGHTS, lookAheadMode: 'rebuild' }));
    assert.equal(rebuilt.sharesLookAheads, false);
    assert.throws(() => rebuilt.shareLookAheads(0, new SharedArrayBuffer(rebuilt.lookAheadBytes)), /only in the live run of a replayed look-ahead/);
    assert.throws(() => new LookAheadPeer(0, new SharedArrayBuffer(8), 16), /needs \d+ bytes, got 8/);
  });
});
