/**
 * StoredPlanCharts (src/modules/charts/stored-plan-charts.ts) on its own, its renderer and repository faked: which
 * plans get their charts made, what is stored under which key, and that a chart that fails, is late or cannot be
 * stored never fails the plan's store (it says why instead). Against the real service: test/service/plan-charts-stored.test.ts.
 */
import { Logger } from '@nestjs/common';
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { EntityManager } from 'typeorm';
import type { PlanChartsJob } from '../../src/charts/chart-job';
import type { Config } from '../../src/config';
import { chartRevision } from '../../src/modules/charts/chart-revision';
import type { ChartRenderer } from '../../src/modules/charts/chart-renderer';
import type { ChartToStore, PlanChartsRepository } from '../../src/modules/charts/plan-charts.repository';
import { chartParamsKey, StoredPlanCharts } from '../../src/modules/charts/stored-plan-charts';

const TX = {} as EntityManager;

function setUp(opts: { render?: (chart: string) => Promise<string>; insert?: () => Promise<void>; minTasks?: number; timeoutMs?: number } = {}) {
  const made: PlanChartsJob[] = [];
  const inserted: { planId: string; revision: string; charts: ChartToStore[] }[] = [];
  let warmUps = 0;
  const renderer = {
    makePlanCharts: async (load: () => PlanChartsJob) => {
      const job = load();
      made.push(job);
      const render = opts.render ?? (async (chart: string) => `<svg>${chart}</svg>`);
      return Promise.all(job.charts.map(async (c) => ({ body: await render(c.chart), ms: 7 })));
    },
    warmUp: () => void warmUps++,
  } as unknown as ChartRenderer;
  const repo = {
    insertInTx: async (_tx: EntityManager, planId: string, revision: string, charts: ChartToStore[]) => {
      await opts.insert?.();
      inserted.push({ planId, revision, charts });
    },
  } as unknown as PlanChartsRepository;
  const config = { chartPrerender: { minTasks: opts.minTasks ?? 100, timeoutMs: opts.timeoutMs ?? 10_000 } } as Config;
  return { charts: new StoredPlanCharts(repo, renderer, config), made, inserted, warmUps: () => warmUps };
}

describe('charts the worker stores with a plan', () => {
  before(() => Logger.overrideLogger(false)); // the warnings are what is asserted here, not what is read

  test('a plan under FALLOW_CHART_PRERENDER_MIN_TASKS gets none, and its solve does not load vega', () => {
    const s = setUp({ minTasks: 100 });
    s.charts.solveStarts(99);
    assert.equal(s.charts.start(99, '{}', () => '{}'), null);
    assert.equal(s.warmUps(), 0);
    s.charts.solveStarts(100);
    assert.equal(s.warmUps(), 1, 'a solve that may make a large plan loads vega while the engine runs');
  });

  test('the page\'s charts are made from the texts given and stored under the defaults\' key and this chart code\'s revision', async () => {
    const s = setUp();
    const pending = s.charts.start(100, '{"plan":1}', () => '{"instance":1}');
    const outcome = await pending!.storeInTx(TX, 'p1');
    assert.equal(s.made.length, 1, 'one job: the plan is read once for both charts');
    assert.deepEqual(s.made[0].charts.map((c) => `${c.chart}.${c.format}`), ['gantt.svg', 'utilisation.svg']);
    assert.deepEqual([s.made[0].plan, s.made[0].instance], [{ json: '{"plan":1}' }, { json: '{"instance":1}' }]);
    assert.equal(s.inserted.length, 1);
    assert.equal(s.inserted[0].planId, 'p1');
    assert.equal(s.inserted[0].revision, chartRevision());
    assert.deepEqual(s.inserted[0].charts.map((c) => [c.chart, c.format, c.params, c.body, c.renderMs]), [['gantt', 'svg', '', '<svg>gantt</svg>', 7], ['utilisation', 'svg', '', '<svg>utilisation</svg>', 7]]);
    assert.equal(outcome.stored, 2);
    assert.equal(outcome.bytes, '<svg>gantt</svg><svg>utilisation</svg>'.length);
    assert.equal(outcome.error, undefined);
  });

  test('a chart that fails, one that is late, or charts that cannot be stored: nothing stored, the reason said, nothing thrown', async () => {
    const failing = setUp({ render: async () => Promise.reject(new Error('out of memory')) });
    const failed = await failing.charts.start(100, '{}', () => '{}')!.storeInTx(TX, 'p2');
    assert.deepEqual([failed.stored, failed.error, failing.inserted.length], [0, 'out of memory', 0]);

    const slow = setUp({ render: () => new Promise(() => undefined), timeoutMs: 50 });
    const t0 = Date.now();
    const alive = setInterval(() => undefined, 1000); // the wait's timer never holds a process open (a worker has other handles)
    const late = await slow.charts.start(100, '{}', () => '{}')!.storeInTx(TX, 'p3').finally(() => clearInterval(alive));
    assert.ok(Date.now() - t0 < 5_000, 'the wait ends at the timeout');
    assert.equal(late.stored, 0);
    assert.match(late.error!, /FALLOW_CHART_PRERENDER_TIMEOUT_MS \(50 ms\)/);
    assert.equal(slow.inserted.length, 0);

    const unstorable = setUp({ insert: () => Promise.reject(new Error('relation "plan_charts" does not exist')) });
    const notStored = await unstorable.charts.start(100, '{}', () => '{}')!.storeInTx(TX, 'p4');
    assert.deepEqual([notStored.stored, notStored.error], [0, 'relation "plan_charts" does not exist']);
  });

  test('the parameters\' key: empty for the defaults, canonical (sorted, escaped, unset ones left out) otherwise', () => {
    assert.equal(chartParamsKey(), '');
    assert.equal(chartParamsKey({ width: undefined }), '');
    assert.equal(chartParamsKey({ to: 20, from: 10, theme: 'dark mode' }), 'from=10&theme=dark%20mode&to=20');
    assert.equal(chartParamsKey({ from: 10, to: 20 }), chartParamsKey({ to: 20, from: 10 }));
  });
});
