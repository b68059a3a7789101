/**
 * Issue 25: the rolling-origin evaluation (which days are testable, each trained only on the days before
 * it, scores per node).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ForecastInputError, holdOut, rollingOrigin, ROLLING_MODELS, summariseRolling, testableDays, UsageHistory } from '../../src/engine/forecast';
import { syntheticHistory } from '../../harness/usage-traces';

const DAY = 86_400;
const START = 1_704_067_200; // 2024-01-01 00:00 UTC, a day boundary

describe('rolling origin: testable days', () => {
  test('every day with at least minTrainDays whole days before it, up to the last whole day', () => {
    assert.deepEqual(testableDays(6), [2, 3, 4, 5, 6]);
    assert.deepEqual(testableDays(6, 3), [3, 4, 5, 6]);
    assert.deepEqual(testableDays(1), []);
    assert.throws(() => testableDays(6, 1), ForecastInputError);
  });

  const history = syntheticHistory({ nodes: 4, days: 5, metrics: ['cpu', 'ram'], seed: 3, start: START });
  const o = { slotSeconds: 300, quantiles: [0.5, 0.99], margin: 0.05, gbt: { trees: 5 } };

  test('each day is trained on all the days before it and every node, metric, quantile and model is scored', () => {
    const r = rollingOrigin(history, o);
    assert.deepEqual(
      r.folds.map((f) => [f.testDay, f.trainDays]),
      [
        [2, 2],
        [3, 3],
        [4, 4],
      ],
    );
    assert.equal(r.scores.length, 3 * 4 * 2 * 2 * ROLLING_MODELS.length);
    for (const s of r.scores) assert.equal(s.score.n, 288, `${s.node} ${s.metric} day ${s.day}`);
    const summary = summariseRolling(r, new Set(['n001']));
    assert.equal(summary.quantiles.length, 4);
    assert.equal(summary.quantiles[0].all.nodes, 4);
    assert.equal(summary.quantiles[0].idle.nodes, 1);
    assert.equal(summary.days.length, 3 * 2 * 2);
  });

  test('no leakage: changing the test day and the days after it changes no forecast of the test day', () => {
    const testDay = 3;
    const cut = START + testDay * DAY;
    // every sample from the test day on replaced by 1 - v
    const changed: UsageHistory = {};
    for (const [node, metrics] of Object.entries(history))
      for (const [metric, s] of Object.entries(metrics))
        (changed[node] ??= {})[metric] = { t: s.t, v: Float64Array.from(s.v, (v, i) => (s.t[i] >= cut ? 1 - v : v)) };
    const a = holdOut(history, { ...o, testDay });
    const b = holdOut(changed, { ...o, testDay });
    assert.equal(a.trainStart, START);
    assert.equal(a.testStart, cut);
    assert.deepEqual(b.gbt, a.gbt);
    assert.deepEqual(b.baselines, a.baselines);
    assert.notDeepEqual(b.actual, a.actual); // what is scored did change
  });
});
