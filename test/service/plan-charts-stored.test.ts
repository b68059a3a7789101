/**
 * A plan's charts rendered by the worker when it stores the plan (issue 40; src/modules/charts/stored-plan-charts.ts)
 * against the real service: they are in plan_charts as soon as the solve has ended; the chart route serves the
 * stored body (X-Chart-Source: stored, the API's renderer not called) after the same access check; a request
 * the stored charts were not made for renders, as does a plan whose charts could not be stored; and the migration
 * goes down and up on a scratch database. A chart that fails or is late on the worker: test/charts/stored-plan-charts.test.ts.
 */
import assert from 'node:assert/strict';
import { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { Service, startService, stopChild } from '../../harness/service';
import { chartRevision } from '../../src/modules/charts/chart-revision';
import { ChartRenderer } from '../../src/modules/charts/chart-renderer';
import { dataSourceOptions } from '../../src/modules/database/data-source';
import { migrate } from '../../src/ops/main';
import { getText, solvedPlan } from '../support/chart-fixtures';
import { withScratchDatabase } from '../support/scratch-database';

type StoredRow = { chart: string; format: string; params: string; revision: string; body: string; render_ms: number };

describe('plan charts stored by the worker', () => {
  let svc: Service;
  let worker: ChildProcess;
  let renders = 0;
  const rows = (planId: string) => svc.sql<StoredRow>(`SELECT chart, format, params, revision, body, render_ms FROM plan_charts WHERE plan_id = $1 ORDER BY chart, format`, [planId]);
  const tenant = (name: string) => svc.tenant(name, ['farmer', 'customer']);

  before(async () => {
    svc = await startService();
    // Every plan, however small (the default is from 5,000 tasks: FALLOW_CHART_PRERENDER_MIN_TASKS).
    worker = svc.startWorker({ FALLOW_CHART_PRERENDER_MIN_TASKS: '0' });
    // The API's renderer, counted: a stored chart must be served without it.
    const renderer = svc.app.get(ChartRenderer);
    const make = renderer.make.bind(renderer);
    renderer.make = (job) => {
      renders++;
      return make(job);
    };
  });
  after(async () => svc?.close());

  it('a solved plan has its page\'s charts stored as soon as its solve has ended, and the route serves them without rendering', async () => {
    const a = await tenant('stored-a');
    const { planId } = await solvedPlan(svc, a.keys);
    const stored = await rows(planId);
    assert.deepEqual(stored.map((r) => `${r.chart}.${r.format}`), ['gantt.svg', 'utilisation.svg']);
    for (const r of stored) {
      assert.equal(r.params, '', 'the routes\' default parameters');
      assert.equal(r.revision, chartRevision(), 'made by the chart code this API runs');
      assert.match(r.body, /^<svg /);
      assert.ok(r.render_ms >= 0);
    }

    const before = renders;
    for (const r of stored) {
      const got = await getText(svc, `/v1/plans/${planId}/charts/${r.chart}.svg`, a.keys.customer);
      assert.equal(got.status, 200, got.body);
      assert.match(got.type, /^image\/svg\+xml/);
      assert.equal(got.headers.get('x-chart-source'), 'stored');
      assert.equal(got.body, r.body, 'exactly the stored body');
      const again = await getText(svc, `/v1/plans/${planId}/charts/${r.chart}.svg`, a.keys.farmer);
      assert.equal(again.headers.get('x-chart-source'), 'stored', 'kept in memory, still the stored one');
      assert.equal(again.body, r.body);
    }
    assert.equal(renders, before, 'the API rendered nothing');

    // The same access check as before: the stored chart is no way around it.
    const b = await tenant('stored-b');
    assert.equal((await getText(svc, `/v1/plans/${planId}/charts/gantt.svg`, b.keys.customer)).status, 404);
    assert.equal((await getText(svc, `/v1/plans/${planId}/charts/gantt.svg`)).status, 401);
    assert.equal((await getText(svc, `/v1/plans/${planId}/charts/gantt.svg`, svc.operatorKey)).headers.get('x-chart-source'), 'stored');
  });

  it('a request the stored charts were not made for is rendered: another format, or charts of other chart code; the rendering is the stored body', async () => {
    const a = await tenant('other-request');
    const { planId } = await solvedPlan(svc, a.keys);
    const before = renders;
    const spec = await getText(svc, `/v1/plans/${planId}/charts/gantt.json`, a.keys.customer);
    assert.equal(spec.status, 200);
    assert.equal(spec.headers.get('x-chart-source'), 'rendered', 'specs are not stored');
    assert.equal(JSON.parse(spec.body).$schema, 'https://vega.github.io/schema/vega-lite/v6.json');
    assert.equal(renders, before + 1);

    // A row made by other chart code (another revision) is never served: the API renders, and its rendering is
    // byte for byte what the worker stored (from the same plan and instance, read back from Postgres here).
    const [stored] = (await rows(planId)).filter((r) => r.chart === 'utilisation');
    await svc.sql(`UPDATE plan_charts SET revision = 'older-chart-code' WHERE plan_id = $1 AND chart = 'utilisation'`, [planId]);
    const svg = await getText(svc, `/v1/plans/${planId}/charts/utilisation.svg`, a.keys.customer);
    assert.equal(svg.status, 200);
    assert.equal(svg.headers.get('x-chart-source'), 'rendered');
    assert.equal(renders, before + 2);
    assert.equal(svg.body, stored.body, 'the API renders what the worker stored');
  });

  it('a plan whose charts could not be stored is stored all the same (the charts\' savepoint rolled back), and its charts are rendered on request', async () => {
    const a = await tenant('prerender-failed');
    // The worker's INSERT into plan_charts fails (no such table), inside the plan's transaction.
    await svc.sql(`ALTER TABLE plan_charts RENAME TO plan_charts_away`);
    let planId: string;
    try {
      ({ planId } = await solvedPlan(svc, a.keys)); // succeeded, with its plan
    } finally {
      await svc.sql(`ALTER TABLE plan_charts_away RENAME TO plan_charts`);
    }
    assert.deepEqual(await rows(planId), []);
    assert.equal((await svc.sql(`SELECT count(*)::int AS n FROM plan_assignments WHERE plan_id = $1`, [planId]))[0].n, 15, 'the plan and its rows are stored');
    const before = renders;
    for (const chart of ['gantt', 'utilisation']) {
      const got = await getText(svc, `/v1/plans/${planId}/charts/${chart}.svg`, a.keys.customer);
      assert.equal(got.status, 200, got.body);
      assert.equal(got.headers.get('x-chart-source'), 'rendered');
      assert.match(got.body, /^<svg /);
    }
    assert.equal(renders, before + 2);
  });

  it('a plan under FALLOW_CHART_PRERENDER_MIN_TASKS has no stored charts (rendered on request)', async () => {
    await stopChild(worker);
    worker = svc.startWorker(); // the default: from 5,000 tasks
    const a = await tenant('small-plan');
    const { planId } = await solvedPlan(svc, a.keys);
    assert.deepEqual(await rows(planId), []);
    const got = await getText(svc, `/v1/plans/${planId}/charts/gantt.svg`, a.keys.customer);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('x-chart-source'), 'rendered');
  });
});

describe('the plan_charts migration', () => {
  it('goes down (the table dropped) and up again on a scratch database', async () => {
    await withScratchDatabase('fallow_plan_charts', async (url) => {
      await migrate(url);
      const ds = await new DataSource(dataSourceOptions(url)).initialize();
      try {
        const hasTable = async () => (await ds.query(`SELECT to_regclass('public.plan_charts') AS t`))[0].t !== null;
        const applied = async () => (await ds.query(`SELECT name FROM migrations`)).map((r: { name: string }) => r.name) as string[];
        assert.ok(await hasTable());
        await ds.query(`INSERT INTO plan_charts (plan_id, chart, format, params, revision, body, render_ms) VALUES (gen_random_uuid(), 'gantt', 'svg', '', 'r', '<svg/>', 1)`);
        // Down to before this migration (later ones, if any, are undone first, as they would be in production).
        while ((await applied()).some((n) => n.startsWith('PlanCharts'))) await ds.undoLastMigration({ transaction: 'each' });
        assert.equal(await hasTable(), false);
        const again = await migrate(url);
        assert.ok(again.some((n) => n.startsWith('PlanCharts')), again.join(', '));
        assert.ok(await hasTable());
        assert.deepEqual(await ds.query(`SELECT count(*)::int AS n FROM plan_charts`), [{ n: 0 }]);
      } finally {
        await ds.destroy();
      }
    });
  });
});
