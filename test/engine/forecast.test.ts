/**
 * The forecasting engine (src/engine/forecast): pinball loss and the quantile leaf update on hand-computed
 * cases, resampling to slots, the GBT on synthetic traces (calibration, beats the last-day baseline,
 * bounded, deterministic) and the history CSV's error messages.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  baselineForecast,
  conformalQuantile,
  evaluateForecast,
  forecast,
  ForecastInputError,
  parseHistoryCsv,
  pinball,
  quantile,
  resampleMax,
  runForecastEval,
  trainForecaster,
  trainGbt,
} from '../../src/engine/forecast';
import { syntheticHistory } from '../../harness/usage-traces';
import { trainForecasterParallel } from '../../src/worker/forecast-build-parallel';

const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

describe('pinball loss and quantiles', () => {
  test('pinball weighs under-forecasts by q and over-forecasts by 1 - q', () => {
    close(pinball(0.8, 0.5, 0.9), 0.27); // under by 0.3: 0.9 * 0.3
    close(pinball(0.2, 0.5, 0.9), 0.03); // over by 0.3: 0.1 * 0.3
    close(pinball(0.5, 0.5, 0.99), 0);
  });

  test('empirical quantile interpolates between order statistics (type 7)', () => {
    close(quantile([5, 1, 4, 2, 3], 0.5), 3);
    close(quantile([5, 1, 4, 2, 3], 0.9), 4.6); // h = 3.6: 4 + 0.6 * (5 - 4)
    close(quantile([5, 1, 4, 2, 3], 0.25), 2);
    close(quantile([3, NaN, 1], 0.5), 2); // NaN skipped
  });

  test('evaluateForecast: pinball, coverage, reclaimable and margin violations by hand', () => {
    const s = evaluateForecast([0.2, 0.5, 0.9, NaN], [0.3, 0.3, 0.6], 0.9, 0.1);
    assert.equal(s.n, 3);
    close(s.pinball, (0.1 * 0.1 + 0.9 * 0.2 + 0.9 * 0.3) / 3);
    close(s.coverage, 1 / 3);
    close(evaluateForecast([0.2, 0.3, 0.3], [0.3, 0.3, 0.4], 0.5).ties, 1 / 3); // counted in the coverage too
    close(s.reclaimable, (0.7 + 0.7 + 0.4) / 3);
    close(s.marginViolation, 2 / 3); // 0.5 > 0.3 + 0.1 and 0.9 > 0.6 + 0.1
    close(s.qosTrigger, 2 / 3);
  });
});

describe('gradient boosting with the quantile leaf update', () => {
  const opts = { trees: 1, maxDepth: 1, learningRate: 1, subsample: 1, minLeaf: 1, seed: 1 };

  test('a single leaf takes the q-quantile of the residuals', () => {
    const y = Float64Array.from([0.1, 0.2, 0.3, 0.4, 0.5]);
    const f = new Float64Array(5);
    const m = trainGbt(new Uint8Array(5).fill(1), 1, 2, y, f, 0.9, { ...opts, maxDepth: 0 });
    close(m.trees[0].value[0], 0.46); // type-7 0.9-quantile of 0.1..0.5
    for (const v of f) close(v, 0.46);
  });

  test('a split on the pinball gradient, each leaf at the median of its residuals', () => {
    const y = Float64Array.from([0.1, 0.2, 0.3, 0.7, 0.8, 0.9]);
    const f = new Float64Array(6).fill(0.5); // gradients: 1 - q below the start value, -q above
    trainGbt(Uint8Array.from([1, 1, 1, 2, 2, 2]), 1, 3, y, f, 0.5, opts);
    // left residuals -0.4, -0.3, -0.2 -> -0.3; right 0.2, 0.3, 0.4 -> 0.3
    [0.2, 0.2, 0.2, 0.8, 0.8, 0.8].forEach((v, i) => close(f[i], v));
  });
});

describe('split-conformal calibration', () => {
  test('the offset is the ceil((n + 1) q)-th smallest residual', () => {
    const res = () => Float64Array.from([0.5, 0.1, 0.9, 0.3, 0.7, 0.2, 1.0, 0.4, 0.8, 0.6]);
    close(conformalQuantile(res(), 0.5), 0.6); // ceil(5.5) = 6th smallest
    close(conformalQuantile(res(), 0.9), 1.0); // ceil(9.9) = 10th
    close(conformalQuantile(res(), 0.99), 1.0); // capped at the largest
    close(conformalQuantile(new Float64Array(0), 0.9), 0);
  });
});

describe('resampling to slots', () => {
  test('5-minute samples on 3-minute slots: each slot takes the max of the samples it overlaps', () => {
    const s = { t: [0, 300, 600], v: [0.1, 0.5, 0.2] };
    assert.deepEqual(Array.from(resampleMax(s, 180, 0, 5)), [0.1, 0.5, 0.5, 0.5, 0.2]);
  });

  test('1-minute samples on 5-minute slots keep the peak, and a monitoring gap stays NaN', () => {
    const t = [0, 60, 120, 180, 240, 300, 360, 420, 480, 540, 1200];
    const v = [0.1, 0.9, 0.1, 0.1, 0.1, 0.2, 0.2, 0.3, 0.2, 0.2, 0.4];
    const out = Array.from(resampleMax({ t, v }, 300, 0, 5));
    assert.deepEqual(out.slice(0, 2), [0.9, 0.3]);
    assert.ok(Number.isNaN(out[2]) && Number.isNaN(out[3]));
    assert.equal(out[4], 0.4);
  });
});

describe('GBT forecaster on synthetic traces (daily sine + noise + spikes)', () => {
  // 20 nodes, 6 days of 5-minute samples; trained on days 1-4, scored on day 5, 5-minute slots
  const history = syntheticHistory({ nodes: 20, days: 6, metrics: ['cpu'], seed: 7 });
  const report = runForecastEval(history, { slotSeconds: 300, quantiles: [0.5, 0.9, 0.99], margin: 0.05, testDay: 5, trainDays: 4 });
  const row = (model: string, q: number) => report.rows.find((r) => r.model === model && r.q === q)!;

  test('held-out coverage is near the quantile', () => {
    assert.ok(Math.abs(row('gbt', 0.5).coverage - 0.5) < 0.08, `coverage at 0.5: ${row('gbt', 0.5).coverage}`);
    assert.ok(Math.abs(row('gbt', 0.9).coverage - 0.9) < 0.05, `coverage at 0.9: ${row('gbt', 0.9).coverage}`);
    assert.ok(row('gbt', 0.99).coverage >= 0.96, `coverage at 0.99: ${row('gbt', 0.99).coverage}`);
  });

  test('beats the last-day baseline on pinball loss at q = 0.5 and 0.9', () => {
    for (const q of [0.5, 0.9]) assert.ok(row('gbt', q).pinball < row('last-day', q).pinball, `q=${q}: ${row('gbt', q).pinball} vs ${row('last-day', q).pinball}`);
  });

  test('forecasts lie in [0, 1], do not cross between quantiles, and are the same for the same seed', () => {
    const opts = { slotSeconds: 300, quantiles: [0.5, 0.99], trees: 20, seed: 3 };
    const a = forecast(trainForecaster(history, opts), undefined, 288);
    const b = forecast(trainForecaster(history, opts), undefined, 288);
    assert.deepEqual(a, b);
    for (const node of Object.keys(history)) {
      const lo = a[0].usage[node].cpu;
      const hi = a[1].usage[node].cpu;
      assert.equal(lo.length, 288);
      for (let i = 0; i < 288; i++) assert.ok(lo[i] >= 0 && hi[i] <= 1 && lo[i] <= hi[i]);
    }
  });

  test("calibration 'split' brings held-out coverage within a few points of q on stationary traces", () => {
    const cal = runForecastEval(history, { slotSeconds: 300, quantiles: [0.5, 0.9, 0.99], margin: 0.05, testDay: 5, trainDays: 5, models: ['gbt'], gbt: { calibration: 'split' } });
    const cov = (q: number) => cal.rows.find((r) => r.q === q)!.coverage;
    assert.ok(Math.abs(cov(0.5) - 0.5) < 0.05, `coverage at 0.5: ${cov(0.5)}`);
    assert.ok(Math.abs(cov(0.9) - 0.9) < 0.04, `coverage at 0.9: ${cov(0.9)}`);
    assert.ok(cov(0.99) >= 0.97, `coverage at 0.99: ${cov(0.99)}`);
    const model = trainForecaster(history, { slotSeconds: 300, quantiles: [0.5, 0.9], trees: 10, calibration: 'split' });
    assert.equal(model.perMetric.cpu.calibrationRows, 20 * 288);
    assert.ok(model.perMetric.cpu.offsets.every(Number.isFinite));
  });

  test('training on worker threads gives the same forecast as in one thread', async () => {
    const opts = { slotSeconds: 300, quantiles: [0.5, 0.9, 0.99], trees: 8 };
    const a = forecast(await trainForecasterParallel(history, opts, 2), undefined, 288);
    assert.deepEqual(a, forecast(trainForecaster(history, opts), undefined, 288));
  });

  test('a window longer than the trained lag is refused; baselines have the window length', () => {
    const model = trainForecaster(history, { slotSeconds: 300, trees: 5 });
    assert.throws(() => forecast(model, undefined, 289), ForecastInputError);
    const f = baselineForecast('slot-quantile', history, { q: 0.9, slotSeconds: 300, horizonSlots: 10 });
    assert.equal(f.n001.cpu.length, 10);
  });
});

describe('history CSV', () => {
  const ok = 'timestamp,node,metric,value\n0,h1,cpu,0.5\n300,h1,cpu,0.25\n';
  const fails = (text: string, pattern: RegExp) => assert.throws(() => parseHistoryCsv(text), (e: Error) => e instanceof ForecastInputError && pattern.test(e.message));

  test('parses and sorts each series', () => {
    const h = parseHistoryCsv('timestamp,node,metric,value\n300,h1,cpu,0.25\n0,h1,cpu,0.5\n\n0,h2,ram,1\n');
    assert.deepEqual(Array.from(h.h1.cpu.t), [0, 300]);
    assert.deepEqual(Array.from(h.h1.cpu.v), [0.5, 0.25]);
    assert.deepEqual(Array.from(h.h2.ram.v), [1]);
    assert.ok(parseHistoryCsv(ok));
  });

  test('errors name the line and the problem', () => {
    fails('time,node,metric,value\n0,h1,cpu,0.5\n', /^line 1: expected the header/);
    fails(ok + '600,h1,cpu,abc\n', /^line 4: value "abc" is not a number/);
    fails(ok + '600,h1,cpu,1.5\n', /^line 4: value 1.5 is outside \[0, 1\]/);
    fails(ok + 'x,h1,cpu,0.5\n', /^line 4: timestamp "x"/);
    fails(ok + '600,h1,cpu\n', /^line 4: expected 4 comma-separated fields/);
    fails(ok + '300,h1,cpu,0.3\n', /^line 4: a second sample .* \(first on line 3\)/);
  });
});
