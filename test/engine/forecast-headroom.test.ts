/**
 * Headroom (src/engine/forecast/headroom.ts): raising a forecast towards the history maximum, the least
 * headroom that matches a coverage, forecasts with a headroom, and the matched comparison of forecast-eval.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { baselineForecast, checkHeadroom, forecast, ForecastInputError, matchCoverage, raise, runForecastEval, trainForecaster } from '../../src/engine/forecast';
import { syntheticHistory } from '../../harness/usage-traces';

describe('raise and matchCoverage by hand', () => {
  test('raise adds the headroom, stops at the cap, and never lowers a forecast', () => {
    assert.equal(raise(0.3, 0.2, 0.9), 0.5);
    assert.equal(raise(0.3, 0.8, 0.9), 0.9);
    assert.equal(raise(0.95, 0.1, 0.9), 0.95); // already above the maximum: kept
    assert.equal(raise(0.3, 0, 0.9), 0.3);
  });

  test('the least headroom on the 0.01 grid whose coverage reaches the target', () => {
    // actual 0.1, 0.5, 0.6, 0.8 against forecast 0.2 and cap 0.9: covered 1, 1, 2, 3, 4 of 4 from
    // headroom 0, 0.3, 0.4, 0.6 on (0.2 + d >= 0.5 needs d >= 0.3, and so on)
    const s = { actual: [0.1, 0.5, 0.6, 0.8], forecast: [0.2, 0.2, 0.2, 0.2], cap: [0.9, 0.9, 0.9, 0.9] };
    const m = matchCoverage([s], 0.75);
    assert.equal(m.headroom, 0.4);
    assert.equal(m.coverage, 0.75);
    assert.ok(Math.abs(m.reclaimable - 0.4) < 1e-12);
    assert.equal(matchCoverage([s], 0).headroom, 0);
    assert.equal(matchCoverage([s], 1).headroom, 0.6);
    // above the cap nothing helps
    const over = matchCoverage([{ ...s, actual: [0.1, 0.5, 0.6, 0.95] }], 1);
    assert.equal(over.reached, false);
    assert.equal(over.coverage, 0.75);
  });

  test('bad headrooms name the field', () => {
    const fails = (h: unknown, pattern: RegExp) => assert.throws(() => checkHeadroom(h as never), (e: Error) => e instanceof ForecastInputError && pattern.test(e.message));
    fails(-0.1, /^headroom: must be a fraction of capacity in \[0, 1\], got -0.1/);
    fails(1.5, /^headroom: must be a fraction/);
    fails({ cpu: 0.2, ram: 'x' }, /^headroom\.ram: must be a fraction of capacity in \[0, 1\], got "x"/);
    fails([0.1], /^headroom: must be a fraction/);
    checkHeadroom({ cpu: 0.2 });
    checkHeadroom(0);
  });
});

describe('headroom on the GBT forecaster (synthetic traces)', () => {
  const history = syntheticHistory({ nodes: 10, days: 4, metrics: ['cpu', 'ram'], seed: 11 });
  const model = trainForecaster(history, { slotSeconds: 300, quantiles: [0.5, 0.99], trees: 10 });
  const plain = forecast(model, undefined, 288);
  const max = baselineForecast('max', history, { q: 0.99, slotSeconds: 300, horizonSlots: 288 });

  test('forecasts rise by the headroom of their metric, up to the history maximum, and stay ordered', () => {
    const raised = forecast(model, undefined, 288, { headroom: { cpu: 0.1 } });
    let gained = 0;
    for (const node of Object.keys(history)) {
      for (let qi = 0; qi < 2; qi++)
        for (let i = 0; i < 288; i++) {
          const f = plain[qi].usage[node].cpu[i];
          const g = raised[qi].usage[node].cpu[i];
          assert.ok(Math.abs(g - Math.max(f, Math.min(f + 0.1, max[node].cpu[i]))) < 1e-12, `${node} q${qi} slot ${i}: ${g} from ${f}`);
          if (g > f) gained++;
          assert.equal(raised[qi].usage[node].ram[i], plain[qi].usage[node].ram[i]); // ram got none
        }
      for (let i = 0; i < 288; i++) assert.ok(raised[0].usage[node].cpu[i] <= raised[1].usage[node].cpu[i]);
    }
    assert.ok(gained > 0, 'the headroom raised nothing');
    assert.throws(() => forecast(model, undefined, 288, { headroom: 2 }), /headroom: must be a fraction/);
  });

  test("forecast-eval compares the GBT with the maximum at the maximum's coverage", () => {
    const r = runForecastEval(history, { slotSeconds: 300, quantiles: [0.99], margin: 0.05, testDay: 3, trainDays: 3 });
    assert.equal(r.matched.length, 2);
    for (const m of r.matched) {
      const maxRow = r.rows.find((x) => x.model === 'max' && x.metric === m.metric)!;
      assert.equal(m.maxCoverage, maxRow.coverage);
      assert.equal(m.maxReclaimable, maxRow.reclaimable);
      assert.ok(m.reached, `${m.metric}: the maximum's coverage not reached`);
      assert.ok(m.coverage >= m.maxCoverage);
    }
    // scoring with a headroom moves the GBT row, not the baselines
    const h = runForecastEval(history, { slotSeconds: 300, quantiles: [0.99], margin: 0.05, testDay: 3, trainDays: 3, headroom: 0.05 });
    const gbt = (x: typeof r) => x.rows.find((y) => y.model === 'gbt' && y.metric === 'cpu')!;
    assert.ok(gbt(h).coverage >= gbt(r).coverage);
    assert.ok(gbt(h).reclaimable <= gbt(r).reclaimable);
    assert.deepEqual(
      h.rows.filter((y) => y.model !== 'gbt'),
      r.rows.filter((y) => y.model !== 'gbt'),
    );
  });
});
