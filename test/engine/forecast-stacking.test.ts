/**
 * The parts of the forecaster that decide on the calibration day (issue 5): early stopping of the
 * boosting on validation rows, stacking with the baselines, the slot-quantile helper the stacking shares
 * with the baselines, and the share of training rows the trees see.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { baselineForecast, chooseBlend, NO_BLEND, slotQuantile, trainForecaster, trainGbt } from '../../src/engine/forecast';
import { Random } from '../../src/engine/random';
import { syntheticHistory } from '../../harness/usage-traces';

const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

/** n rows of one feature with 8 bins; y rises with the bin in the training rows. */
function rows(n: number, seed: number, slope: number) {
  const rng = new Random(seed);
  const bins = new Uint8Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    bins[i] = 1 + rng.int(8);
    y[i] = slope * bins[i] + 0.05 * rng.next();
  }
  return { bins, y };
}

describe('early stopping on validation rows', () => {
  const opts = { trees: 30, maxDepth: 2, learningRate: 0.3, subsample: 0.8, minLeaf: 20, seed: 5 };

  test('validation rows never train: the trees are a prefix of those trained without them', () => {
    const train = rows(2000, 1, 0.05);
    const valid = rows(500, 2, 0.05);
    const bins = new Uint8Array([...train.bins, ...valid.bins]);
    const y = new Float64Array([...train.y, ...valid.y]);
    const alone = trainGbt(train.bins, 1, 10, train.y, new Float64Array(2000), 0.5, opts);
    const stopped = trainGbt(bins, 1, 10, y, new Float64Array(2500), 0.5, { ...opts, patience: 5 }, 2000);
    assert.ok(stopped.trees.length >= 1 && stopped.trees.length <= alone.trees.length);
    stopped.trees.forEach((t, i) => assert.deepEqual(t, alone.trees[i]));
  });

  test('when the validation rows contradict the training rows no tree is kept, and f is the start again', () => {
    const train = rows(2000, 3, 0.05);
    const valid = rows(500, 4, -0.05); // the opposite trend: every tree makes them worse
    const bins = new Uint8Array([...train.bins, ...valid.bins]);
    const y = new Float64Array([...train.y, ...valid.y].map((v) => v + 0.5));
    const f = new Float64Array(2500).fill(0.5);
    const m = trainGbt(bins, 1, 10, y, f, 0.5, { ...opts, patience: 5 }, 2000);
    assert.equal(m.trees.length, 0);
    for (const v of f) close(v, 0.5);
  });
});

describe('stacking with the baselines on the calibration rows', () => {
  const n = 400;
  const rng = new Random(9);
  const y = Float64Array.from({ length: n }, () => 0.3 + 0.4 * rng.next());
  const noisy = y.map((v) => v + 0.3 * (rng.next() - 0.5));
  const flat = new Float64Array(n).fill(0.9);

  test('a baseline that forecasts the calibration day better takes the weight', () => {
    const { blend, offset } = chooseBlend(y, noisy, y, flat, 0.5, true);
    assert.deepEqual(blend, { gbt: 0, slot: 1, max: 0 });
    close(offset, 0);
  });

  test('the GBT keeps its weight where it is the better forecast; without stacking it is alone with its offset', () => {
    assert.deepEqual(chooseBlend(y, y, noisy, flat, 0.9, true).blend, NO_BLEND);
    const alone = chooseBlend(y, noisy, y, flat, 0.9, false);
    assert.deepEqual(alone.blend, NO_BLEND);
    assert.ok(alone.offset > 0, 'a 0.9 forecast from an unbiased noisy one is shifted up');
    const covered = y.filter((v, k) => v <= noisy[k] + alone.offset).length / n;
    assert.ok(covered >= 0.9, `calibration coverage ${covered}`);
  });

  test('slotQuantile is the slot-quantile baseline', () => {
    const history = syntheticHistory({ nodes: 1, days: 4, metrics: ['cpu'], periodSeconds: 3600, seed: 2 });
    const y = Float64Array.from(history.n001.cpu.v);
    const from = history.n001.cpu.t[0] + 96 * 3600;
    const base = baselineForecast('slot-quantile', history, { q: 0.9, slotSeconds: 3600, horizonSlots: 24, from, until: from });
    for (let h = 0; h < 24; h++) close(slotQuantile(y.subarray(0, 96), 96 + h, 24, 0.9, NaN), base.n001.cpu[h]);
    assert.equal(slotQuantile(y, 5, 24, 0.9, 0.42), 0.42); // no past day: the fallback
  });
});

describe('training rows', () => {
  const history = syntheticHistory({ nodes: 10, days: 5, metrics: ['cpu'], seed: 4 });

  test('rowFraction thins the training rows only; the calibration rows are all kept', () => {
    const all = trainForecaster(history, { slotSeconds: 300, trees: 3, rowFraction: 1 }).perMetric.cpu;
    const half = trainForecaster(history, { slotSeconds: 300, trees: 3, rowFraction: 0.5 }).perMetric.cpu;
    assert.equal(all.trainingRows, 10 * 3 * 288); // days 1-3 (day 0 has no lag, day 4 calibrates)
    assert.equal(half.calibrationRows, all.calibrationRows);
    assert.ok(Math.abs(half.trainingRows / all.trainingRows - 0.5) < 0.03, `kept ${half.trainingRows} of ${all.trainingRows}`);
  });
});

describe('split search on integer count histograms', () => {
  test('each split of a depth-2 tree is the one a float gradient sum over every (feature, bin) finds', () => {
    const rng = new Random(11);
    const n = 3000;
    const nf = 3;
    const nb = 12;
    const bins = new Uint8Array(n * nf);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < nf; j++) bins[i * nf + j] = 1 + rng.int(nb - 1);
      y[i] = 0.02 * bins[i * nf + 1] + 0.01 * bins[i * nf + 2] + 0.3 * rng.next();
    }
    const q = 0.9;
    const f = new Float64Array(n).fill(0.2);
    const minLeaf = 50;
    const tree = trainGbt(bins, nf, nb, y, f.slice(), q, { trees: 1, maxDepth: 2, learningRate: 1, subsample: 1, minLeaf, seed: 1 }).trees[0];
    // brute force with float gradients q / q - 1 over the rows of a node
    const g = Array.from(y, (v, i) => (v > f[i] ? q : q - 1));
    const bestSplit = (rows: number[]) => {
      const total = rows.reduce((a, i) => a + g[i], 0);
      let best = { gain: -Infinity, feature: -1, bin: -1 };
      for (let j = 0; j < nf; j++)
        for (let b = 0; b < nb - 1; b++) {
          let gl = 0;
          let nl = 0;
          for (const i of rows)
            if (bins[i * nf + j] <= b) {
              gl += g[i];
              nl++;
            }
          if (nl < minLeaf || rows.length - nl < minLeaf) continue;
          const gain = (gl * gl) / nl + ((total - gl) * (total - gl)) / (rows.length - nl);
          if (gain > best.gain + 1e-9) best = { gain, feature: j, bin: b };
        }
      return best;
    };
    const all = Array.from({ length: n }, (_, i) => i);
    const root = bestSplit(all);
    assert.deepEqual([tree.feature[0], tree.threshold[0]], [root.feature, root.bin]);
    const goesLeft = (i: number) => bins[i * nf + root.feature] <= root.bin;
    for (const [child, rows] of [
      [tree.left[0], all.filter(goesLeft)],
      [tree.right[0], all.filter((i) => !goesLeft(i))],
    ] as const) {
      const want = bestSplit(rows); // the larger child's histogram comes from the parent's minus the smaller's
      assert.deepEqual([tree.feature[child], tree.threshold[child]], [want.feature, want.bin]);
    }
  });
});

describe('default features', () => {
  test('the day of the week only with two weeks of history', () => {
    const short = trainForecaster(syntheticHistory({ nodes: 2, days: 6, metrics: ['cpu'], seed: 1 }), { slotSeconds: 3600, trees: 2, minLeaf: 5 });
    assert.ok(!short.featureNames.includes('dayOfWeek'));
    assert.equal(short.featureColumns.length, short.featureNames.length);
    const long = trainForecaster(syntheticHistory({ nodes: 2, days: 15, metrics: ['cpu'], seed: 1 }), { slotSeconds: 3600, trees: 2, minLeaf: 5 });
    assert.ok(long.featureNames.includes('dayOfWeek'));
  });
});
