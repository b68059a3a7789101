/**
 * The chart routes against the real service: a plan's Gantt and utilisation charts and a simulation's planned
 * vs realised chart as SVG (image/svg+xml) and as Vega-Lite JSON, under exactly the visibility of
 * GET /v1/plans/{id} and GET /v1/simulations/{id}; the accounting revenue charts under the reports' roles and
 * query validation; the plan page shell.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Service, startService } from '../../harness/service';
import { getText, SCHEDULED_TASKS, simulatedPlan, solvedPlan } from '../support/chart-fixtures';

const VEGA_LITE = 'https://vega.github.io/schema/vega-lite/v6.json';

describe('charts', () => {
  let svc: Service;
  let a: { id: string; keys: Record<string, string> };
  let b: { id: string; keys: Record<string, string> };
  let planId: string;
  let simulation: any;

  before(async () => {
    svc = await startService();
    svc.startWorker();
    a = await svc.tenant('charts-a', ['farmer', 'customer']);
    b = await svc.tenant('charts-b', ['farmer', 'customer']);
    ({ planId } = await solvedPlan(svc, a.keys));
    // Committed, so that the revenue charts (accounting counts committed plans only) have its revenue to draw.
    const committed = await svc.client(a.keys.customer).POST('/v1/plans/{id}/commit', { params: { path: { id: planId } } });
    assert.equal(committed.response.status, 200, JSON.stringify(committed.error));
    simulation = await simulatedPlan(svc, a.keys.customer, planId);
  });
  after(async () => svc?.close());

  it('the Gantt is SVG with one bar per task, and its Vega-Lite spec lists the rejected job', async () => {
    const svg = await getText(svc, `/v1/plans/${planId}/charts/gantt.svg`, a.keys.customer);
    assert.equal(svg.status, 200, svg.body);
    assert.match(svg.type, /^image\/svg\+xml/);
    assert.match(svg.body, /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg.body, /class="mark-rect role-mark/);
    for (const job of ['wordcount', 'sort', 'join']) assert.ok(svg.body.includes(`>${job}<`), `the legend names ${job}`);
    assert.match(svg.body, /rejected jobs: too-big/);

    const json = await getText(svc, `/v1/plans/${planId}/charts/gantt.json`, a.keys.customer);
    assert.equal(json.status, 200);
    assert.match(json.type, /^application\/json/);
    const spec = JSON.parse(json.body);
    assert.equal(spec.$schema, VEGA_LITE);
    assert.equal(spec.data.values.length, SCHEDULED_TASKS);
    assert.ok(spec.data.values.every((v: any) => ['c01', 'c02', 'c03'].includes(v.node)));
    assert.deepEqual(spec.data.values.map((v: any) => v.job).sort(), [...Array(8).fill('wordcount'), ...Array(4).fill('sort'), ...Array(3).fill('join')].sort());
    assert.ok(spec.data.values.every((v: any) => v.end > v.start));
    assert.ok(spec.title.subtitle.includes('rejected jobs: too-big'));
  });

  it('the utilisation chart draws, per node and metric, the capacity the forecast leaves and what the plan uses', async () => {
    const svg = await getText(svc, `/v1/plans/${planId}/charts/utilisation.svg`, a.keys.farmer);
    assert.equal(svg.status, 200, svg.body);
    assert.match(svg.type, /^image\/svg\+xml/);
    assert.match(svg.body, /class="mark-area role-mark/);
    const spec = JSON.parse((await getText(svc, `/v1/plans/${planId}/charts/utilisation.json`, a.keys.customer)).body);
    assert.equal(spec.$schema, VEGA_LITE);
    const c03cpu = spec.data.values.filter((v: any) => v.node === 'c03' && v.metric === 'cpu');
    // c03: 8 CPUs, the forecast takes half, the safety margin nothing (none given)
    assert.ok(c03cpu.every((v: any) => Math.abs(v.available - 4) < 1e-9), JSON.stringify(c03cpu.slice(0, 3)));
    assert.ok(spec.data.values.some((v: any) => v.used > 0));
    assert.ok(spec.data.values.every((v: any) => v.used <= v.available + 1e-6), 'a feasible plan never uses more than is left');
  });

  it('reads a plan\'s charts exactly as the plan: 404 for another tenant, 401 without a key, 400 for a bad id', async () => {
    for (const [key, status] of [
      [b.keys.customer, 404],
      [b.keys.farmer, 404],
      [undefined, 401],
      [svc.operatorKey, 200],
    ] as const) {
      const plan = await getText(svc, `/v1/plans/${planId}`, key);
      const chart = await getText(svc, `/v1/plans/${planId}/charts/gantt.svg`, key);
      assert.equal(plan.status, status);
      assert.equal(chart.status, status, chart.body);
      if (status !== 200) {
        assert.match(chart.type, /^application\/problem\+json/);
        assert.equal(JSON.parse(chart.body).title, JSON.parse(plan.body).title);
      }
    }
    const missing = '00000000-0000-4000-8000-000000000000';
    assert.equal((await getText(svc, `/v1/plans/${missing}/charts/gantt.svg`, a.keys.customer)).status, 404);
    assert.equal((await getText(svc, '/v1/plans/not-a-uuid/charts/gantt.svg', a.keys.customer)).status, 400);
  });

  it('an unknown chart is a 404 naming the charts there are', async () => {
    const r = await getText(svc, `/v1/plans/${planId}/charts/pie.svg`, a.keys.customer);
    assert.equal(r.status, 404);
    assert.match(r.type, /^application\/problem\+json/);
    assert.match(JSON.parse(r.body).detail, /"pie\.svg" does not exist; the charts are gantt\.svg, gantt\.json, utilisation\.svg, utilisation\.json/);
    assert.equal((await getText(svc, `/v1/plans/${planId}/charts/gantt.png`, a.keys.customer)).status, 404);
  });

  it('a simulation\'s chart puts each job\'s realised end against the planned one, with kills marked', async () => {
    const report = simulation.report;
    assert.ok(report.relaunches > 0, 'the heavier load kills tasks');
    const svg = await getText(svc, `/v1/simulations/${simulation.id}/charts/planned-vs-realised.svg`, a.keys.customer);
    assert.equal(svg.status, 200, svg.body);
    assert.match(svg.type, /^image\/svg\+xml/);
    assert.match(svg.body, /class="mark-symbol role-mark/);
    const spec = JSON.parse((await getText(svc, `/v1/simulations/${simulation.id}/charts/planned-vs-realised.json`, a.keys.customer)).body);
    assert.equal(spec.$schema, VEGA_LITE);
    const rows = spec.data.values;
    assert.deepEqual(rows.map((r: any) => r.job).sort(), ['join', 'sort', 'wordcount']);
    for (const r of rows) {
      const job = report.jobs.find((j: any) => j.id === r.job);
      assert.ok(r.planned > 0);
      if (job.endSeconds !== null) assert.equal(r.realised, job.endSeconds);
      assert.equal(r.note.includes('kill'), job.kills > 0, `${r.job}: ${r.note} vs ${job.kills} kills`);
    }
    assert.equal(report.jobs.reduce((s: number, j: any) => s + j.kills, 0), report.relaunches, 'per-job kills add up to the report\'s relaunches');
    assert.ok(spec.title.subtitle.includes('rejected jobs: too-big'));
    assert.equal((await getText(svc, `/v1/simulations/${simulation.id}/charts/planned-vs-realised.svg`, b.keys.customer)).status, 404);
    assert.equal((await getText(svc, `/v1/simulations/${simulation.id}`, b.keys.customer)).status, 404);
    assert.equal((await getText(svc, `/v1/simulations/${simulation.id}/charts/gantt.svg`, a.keys.customer)).status, 404);
  });

  it('a simulation that has not succeeded has no chart yet: 409 saying its status', async () => {
    await svc.sql("UPDATE simulations SET status = 'running' WHERE id = $1", [simulation.id]);
    try {
      const r = await getText(svc, `/v1/simulations/${simulation.id}/charts/planned-vs-realised.svg`, a.keys.customer);
      assert.equal(r.status, 409);
      assert.match(JSON.parse(r.body).detail, /is running: its charts exist once it has succeeded/);
    } finally {
      await svc.sql("UPDATE simulations SET status = 'succeeded' WHERE id = $1", [simulation.id]);
    }
  });

  it('revenue per period: the customer\'s bill and the operator\'s platform figures as charts, under the reports\' roles', async () => {
    const q = '?from=2030-01-01T00:00:00Z&to=2030-01-03T00:00:00Z&period=day';
    const svg = await getText(svc, `/v1/accounting/customer/charts/revenue.svg${q}`, a.keys.customer);
    assert.equal(svg.status, 200, svg.body);
    assert.match(svg.type, /^image\/svg\+xml/);
    assert.match(svg.body, /class="mark-rect role-mark/);
    const spec = JSON.parse((await getText(svc, `/v1/accounting/customer/charts/revenue.json${q}`, a.keys.customer)).body);
    const report = JSON.parse((await getText(svc, `/v1/accounting/customer${q}`, a.keys.customer)).body);
    assert.equal(spec.$schema, VEGA_LITE);
    const due = spec.layer[0].data.values.filter((v: any) => v.series === 'amount due').reduce((s: number, v: any) => s + v.amount, 0);
    assert.ok(report.totals.amountDue > 0);
    assert.equal(Math.round(due * 100), report.totals.amountDue, 'amounts are drawn in euros');

    const op = await getText(svc, `/v1/accounting/operator/charts/revenue.json${q}`, svc.operatorKey);
    assert.equal(op.status, 200);
    assert.ok(JSON.parse(op.body).layer[0].data.values.some((v: any) => v.series === 'revenue' && v.amount > 0));
    assert.equal((await getText(svc, `/v1/accounting/operator/charts/revenue.svg${q}`, a.keys.customer)).status, 403);
    assert.equal((await getText(svc, `/v1/accounting/farmer/charts/revenue.svg${q}`, a.keys.farmer)).status, 200);
    const bad = await getText(svc, '/v1/accounting/customer/charts/revenue.svg?period=fortnight', a.keys.customer);
    assert.equal(bad.status, 422);
    assert.equal(JSON.parse(bad.body).problems[0].path, 'query:period');
  });

  it('a made chart is kept, SVG and spec: served again without reading the plan or its instance, still only to who may read the plan', async () => {
    const { planId: own } = await solvedPlan(svc, b.keys);
    const first = { svg: await getText(svc, `/v1/plans/${own}/charts/gantt.svg`, b.keys.customer), json: await getText(svc, `/v1/plans/${own}/charts/gantt.json`, b.keys.customer) };
    assert.equal(first.svg.status, 200, first.svg.body);
    assert.equal(first.json.status, 200, first.json.body);
    // Spoil what a chart is made from: a chart made again would fail on it, a kept one does not need it.
    await svc.sql(`UPDATE solves SET instance = '{}'::jsonb WHERE id = (SELECT solve_id FROM plans WHERE id = $1)`, [own]);
    await svc.sql(`UPDATE plans SET document = '{}'::jsonb WHERE id = $1`, [own]);
    for (const [file, was] of [['gantt.svg', first.svg], ['gantt.json', first.json]] as const) {
      const again = await getText(svc, `/v1/plans/${own}/charts/${file}`, b.keys.customer);
      assert.equal(again.status, 200, again.body);
      assert.equal(again.type, was.type);
      assert.equal(again.body, was.body, `${file} is the kept one`);
      assert.equal((await getText(svc, `/v1/plans/${own}/charts/${file}`, a.keys.customer)).status, 404, 'the cache is behind the plan\'s visibility');
    }
    assert.equal((await getText(svc, `/v1/plans/${own}/charts/utilisation.svg`, b.keys.customer)).status, 500, 'a chart not made yet reads the (spoilt) documents');
  });

  it('the plan page is an HTML shell that carries no plan data and lets only its own script run', async () => {
    const page = await getText(svc, `/v1/plans/${planId}/page`);
    assert.equal(page.status, 200);
    assert.match(page.type, /^text\/html/);
    assert.ok(page.body.includes(planId));
    for (const job of ['wordcount', 'too-big']) assert.ok(!page.body.includes(job), `the shell does not show ${job}`);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.match(csp, /connect-src 'self'/);
    assert.equal((await getText(svc, '/v1/plans/not-a-uuid/page')).status, 400);
  });
});
