/**
 * POSUM's runtime predictors (seeds/002 section IV): Eq. 1-3 on hand-computed cases, the order of the
 * evidence (current job, class, customer, the map rate for reduces), auto's choice, and a property: on a
 * history of identical tasks every predictor predicts that runtime.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { basic, detailed, emptyStats, mergeStats, predict, selectivity, StageEvidence, StageQuery, standard, statsOf, TaskRun } from '../../src/engine/predict';
import { Random } from '../../src/engine/random';

const ev = (current: TaskRun[] = [], byClass: TaskRun[] | null = null, byCustomer: TaskRun[] | null = null): StageEvidence => ({
  current: statsOf(current),
  byClass: byClass && statsOf(byClass),
  byCustomer: byCustomer && statsOf(byCustomer),
});
const mapQuery = (own: StageEvidence, inputBytesPerTask: number | null = 100): StageQuery => ({ kind: 'map', tasks: 10, inputBytesPerTask, mapInputBytes: null, own, maps: null });
const reduceQuery = (own: StageEvidence, maps: StageEvidence, mapInputBytes = 1000, tasks = 4): StageQuery => ({ kind: 'reduce', tasks, inputBytesPerTask: null, mapInputBytes, own, maps });

describe('runtime predictors', () => {
  test('basic: the mean runtime of this job\'s completed tasks, else the customer\'s recent ones (never the class)', () => {
    const p = basic(mapQuery(ev([{ runtimeSeconds: 10 }, { runtimeSeconds: 14 }], [{ runtimeSeconds: 99 }], [{ runtimeSeconds: 50 }])))!;
    assert.deepEqual([p.seconds, p.samples, p.source], [12, 2, 'current-job']);
    assert.ok(Math.abs(p.errorSeconds! - Math.sqrt(8)) < 1e-12, 'sample std of 10 and 14');
    const h = basic(mapQuery(ev([], [{ runtimeSeconds: 99 }], [{ runtimeSeconds: 50 }, { runtimeSeconds: 70 }])))!;
    assert.deepEqual([h.seconds, h.samples, h.source], [60, 2, 'customer']);
    assert.equal(basic(mapQuery(ev([], [{ runtimeSeconds: 99 }]))), null, 'the class alone is not "similar" for basic');
    assert.equal(basic(mapQuery(ev([{ runtimeSeconds: 7 }])))!.errorSeconds, null, 'one sample: no spread');
  });

  test('standard, Eq. 1: r = d x rho for maps; reduces read f x D^M / R at the reduce rate, else the map rate', () => {
    // Class maps: 20 s for 100 B and 60 s for 200 B: rho = 80 s / 300 B (the weighted rate; the mean of the
    // two ratios would be 0.25). A 100-B map: 26.67 s.
    const maps = ev([], [{ runtimeSeconds: 20, inputBytes: 100, outputBytes: 50 }, { runtimeSeconds: 60, inputBytes: 200, outputBytes: 100 }]);
    const m = standard(mapQuery(maps))!;
    assert.deepEqual([m.seconds, m.samples, m.source], [(100 * 80) / 300, 2, 'class']);
    // f = 150 / 300 = 0.5; the job's maps read 1000 B: 4 reduces read 0.5 x 1000 / 4 = 125 B each.
    assert.equal(selectivity(maps), 0.5);
    const reduces = ev([], [{ runtimeSeconds: 12.5, inputBytes: 125 }]); // 0.1 s/B
    const r = standard(reduceQuery(reduces, maps))!;
    assert.deepEqual([r.seconds, r.source], [12.5, 'class']);
    // No reduce history at all: the maps' rate, 80/300 s/B x 125 B.
    const fallback = standard(reduceQuery(ev(), maps))!;
    assert.deepEqual([fallback.seconds, fallback.source], [(125 * 80) / 300, 'map-rate']);
    // This job's completed maps come before any history.
    const own = standard(mapQuery(ev([{ runtimeSeconds: 5, inputBytes: 100 }], [{ runtimeSeconds: 20, inputBytes: 100 }])))!;
    assert.deepEqual([own.seconds, own.source], [5, 'current-job']);
    assert.equal(standard(mapQuery(maps, null)), null, 'no input size: standard cannot say');
  });

  test('detailed, Eq. 2 and 3: local and remote map rates; a reduce as shuffle + merge + reduce, first wave with its fixed shuffle time', () => {
    const maps = ev([], [
      { runtimeSeconds: 10, inputBytes: 100, outputBytes: 100, locality: 'node' },
      { runtimeSeconds: 30, inputBytes: 100, outputBytes: 100, locality: 'remote' },
    ]);
    const m = detailed(mapQuery(maps))!;
    assert.deepEqual([m.seconds, m.alternativeSeconds, m.samples], [10, 30, 1]);
    // f = 1; maps read 400 B; 4 reduces: 100 B each. Typical reduce phases: 0.2, 0.1, 0.3 s/B -> 60 s.
    // First-wave reduce: 45 s of shuffle, then merge and reduce of 100 B: 45 + 40 = 85 s.
    const reduces = ev([], [
      { runtimeSeconds: 60, inputBytes: 100, shuffleSeconds: 20, mergeSeconds: 10, reduceSeconds: 30 },
      { runtimeSeconds: 85, inputBytes: 100, shuffleSeconds: 45, mergeSeconds: 10, reduceSeconds: 30, firstWave: true },
    ]);
    const r = detailed(reduceQuery(reduces, maps, 400))!;
    assert.ok(Math.abs(r.seconds - 60) < 1e-9, `typical ${r.seconds}`);
    assert.ok(Math.abs(r.alternativeSeconds! - 85) < 1e-9, `first wave ${r.alternativeSeconds}`);
    assert.equal(detailed(reduceQuery(ev([], [{ runtimeSeconds: 60, inputBytes: 100 }]), maps, 400)), null, 'no phases reported: detailed cannot say');
  });

  test('auto takes the most detailed predictor with enough samples', () => {
    const runs: TaskRun[] = Array.from({ length: 6 }, (_, i) => ({ runtimeSeconds: 10 + i, inputBytes: 100, locality: i < 2 ? 'node' : 'remote' }));
    const q = mapQuery(ev([], runs, runs));
    // detailed rests on 2 local maps, standard on 6: auto (min 5 samples) takes standard.
    assert.equal(predict(q, 'auto')!.predictor, 'standard');
    assert.equal(predict(q, 'auto', { minSamples: 2 })!.predictor, 'detailed');
    assert.equal(predict(mapQuery(ev([], null, [{ runtimeSeconds: 3 }])), 'auto')!.predictor, 'basic');
    assert.equal(predict(mapQuery(ev()), 'auto'), null);
  });

  test('property: on a history of identical tasks, every predictor predicts their runtime', () => {
    const rng = new Random(7);
    for (let trial = 0; trial < 200; trial++) {
      const seconds = 1 + rng.next() * 500;
      const bytes = Math.round(1 + rng.next() * 1e9);
      const n = 2 + Math.floor(rng.next() * 20);
      const map: TaskRun = { runtimeSeconds: seconds, inputBytes: bytes, outputBytes: bytes, locality: 'node' };
      const split = Math.floor(rng.next() * n);
      const history = [Array(split).fill(map), Array(n - split).fill(map)].map(statsOf);
      const own: StageEvidence = { current: emptyStats(), byClass: mergeStats(history[0], history[1]), byCustomer: history[1] };
      for (const name of ['basic', 'standard', 'detailed', 'auto'] as const) {
        const p = predict(mapQuery(own, bytes), name)!;
        assert.ok(Math.abs(p.seconds - seconds) <= 1e-9 * seconds, `${name}: ${p.seconds} vs ${seconds}`);
        if (p.errorSeconds !== null) assert.ok(p.errorSeconds <= 1e-6 * seconds, `${name}: spread ${p.errorSeconds}`);
      }
    }
  });
});
