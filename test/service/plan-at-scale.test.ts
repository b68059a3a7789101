/**
 * A large plan read through the API (issue 40 part 3, at a size CI affords: 8,000 tasks on 300 nodes, solved by
 * a worker by reference to a stored cluster, forecast and batch): its assignments paged in plan order and by start
 * slot, narrowed to a node and a window of slots (every page's rows compared with the whole plan filtered here),
 * the query errors each naming its parameter, the summary without the large lists, and the aggregated charts
 * (the page's two stored by the worker with the plan: over FALLOW_CHART_PRERENDER_MIN_TASKS).
 * The 100,000-task run is `npm run bench:service-scale` (bench/SERVICE-SCALE.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeChart } from '../../src/charts/chart-job';
import { MAX_CELLS } from '../../src/charts/node-rows';
import { instanceParts, serviceScaleInstance } from '../../harness/scale-service';
import { Service, startService, stopChild } from '../../harness/service';
import { solveToEnd } from '../support/solve-to-end';

type Row = { job: string; stage: string; task: number; node: string; start: number; end: number };
const key = (a: Pick<Row, 'job' | 'stage' | 'task'>) => `${a.job}/${a.stage}/${a.task}`;

describe('a plan of 8,000 tasks on 300 nodes through the API', () => {
  let svc: Service;
  let customer: string;
  let planId: string;
  let all: Row[];
  const instance = serviceScaleInstance({ seed: 2, tasks: 8000, nodes: 300 });

  const get = async (path: string) => {
    const res = await fetch(`${svc.baseUrl}${path}`, { headers: { authorization: `Bearer ${customer}` } });
    return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  /** Every row of the query, page after page; the pages' sizes are checked against the limit. */
  const walk = async (query: string, limit: number): Promise<Row[]> => {
    const rows: Row[] = [];
    let cursor: string | null = null;
    do {
      const r = await get(`/v1/plans/${planId}/assignments?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(r.body.items.length <= limit && (r.body.nextCursor === null || r.body.items.length === limit));
      rows.push(...r.body.items);
      cursor = r.body.nextCursor;
    } while (cursor);
    return rows;
  };

  before(async () => {
    svc = await startService();
    const t = await svc.tenant('scale', ['farmer', 'customer']);
    customer = t.keys.customer;
    const parts = instanceParts(instance);
    const farmer = svc.client(t.keys.farmer);
    const client = svc.client(customer);
    const cluster = await farmer.POST('/v1/clusters', { body: parts.cluster as never });
    assert.ok(cluster.data, JSON.stringify(cluster.error));
    const forecast = await farmer.POST('/v1/clusters/{clusterId}/forecasts', { params: { path: { clusterId: cluster.data.id } }, body: parts.forecast as never });
    assert.ok(forecast.data, JSON.stringify(forecast.error));
    const batch = await client.POST('/v1/batches', { body: parts.batch as never });
    assert.ok(batch.data, JSON.stringify(batch.error));
    const worker = svc.startWorker();
    try {
      const { solve, plan } = await solveToEnd(client, { clusterId: cluster.data.id, forecastId: forecast.data.id, batchId: batch.data.id, strategy: 'rffd', timeBudgetMs: 1000, seed: 1 });
      planId = solve.planId;
      assert.ok(plan.assignments.length > 7000, `${plan.assignments.length} assignments`);
    } finally {
      await stopChild(worker);
    }
    all = await walk('order=plan', 5000);
  });
  after(async () => svc?.close());

  it('pages every assignment once, in plan order and in start order', async () => {
    const plan = (await svc.client(customer).GET('/v1/plans/{id}', { params: { path: { id: planId } } })).data!;
    assert.deepEqual(all.map(key), plan.assignments.map(key), 'plan order is the order of the document');
    const byStart = await walk('order=start', 1234);
    assert.equal(byStart.length, all.length);
    assert.deepEqual(new Set(byStart.map(key)), new Set(all.map(key)));
    for (let i = 1; i < byStart.length; i++) assert.ok(byStart[i - 1].start <= byStart[i].start, `row ${i} starts before row ${i - 1}`);
  });

  it('narrows to a node and a window of slots: exactly the tasks running there in some slot of [from, to)', async () => {
    const node = all[Math.floor(all.length / 2)].node;
    const ends = all.filter((a) => a.node === node).map((a) => a.end);
    const from = Math.floor(Math.max(...ends) / 3);
    const to = from + 10;
    const expected = all.filter((a) => a.node === node && a.end > from && a.start < to);
    assert.ok(expected.length > 0, 'the window holds some tasks of the node');
    for (const order of ['plan', 'start']) {
      const got = await walk(`node=${node}&from=${from}&to=${to}&order=${order}`, 7);
      assert.deepEqual(new Set(got.map(key)), new Set(expected.map(key)), order);
      if (order === 'plan') assert.deepEqual(got.map(key), expected.map(key));
    }
    // A window alone, over the whole plan.
    const window = await walk(`from=${from}&to=${to}&order=start`, 5000);
    assert.deepEqual(new Set(window.map(key)), new Set(all.filter((a) => a.end > from && a.start < to).map(key)));
    // from alone, to alone.
    assert.equal((await walk(`to=1`, 5000)).length, all.filter((a) => a.start < 1).length);
    assert.equal((await walk(`from=${from}`, 5000)).length, all.filter((a) => a.end > from).length);
  });

  it('a bad slot, an empty window, an unknown order or a cursor of the other order is a 422 naming it', async () => {
    const problems = async (query: string) => {
      const r = await get(`/v1/plans/${planId}/assignments?${query}`);
      assert.equal(r.status, 422, `${query}: ${JSON.stringify(r.body)}`);
      return r.body.problems.map((p: { path: string }) => p.path);
    };
    assert.deepEqual(await problems('from=-1'), ['query:from']);
    assert.deepEqual(await problems('to=1.5'), ['query:to']);
    assert.deepEqual(await problems('from=10&to=10'), ['query:to']);
    assert.deepEqual(await problems('order=time'), ['query:order']);
    assert.deepEqual(await problems('from=99999999999'), ['query:from']);
    const page = await get(`/v1/plans/${planId}/assignments?limit=3`);
    assert.deepEqual(await problems(`order=start&cursor=${page.body.nextCursor}`), ['query:cursor']);
    const byStart = await get(`/v1/plans/${planId}/assignments?limit=3&order=start`);
    assert.match(byStart.body.nextCursor, /^\d+:\d+$/);
    assert.deepEqual(await problems(`cursor=${byStart.body.nextCursor}`), ['query:cursor']);
    assert.deepEqual(await problems('node=no-such-node&from=0'), ['query:node']);
  });

  it('the summary is the plan without its assignments and placement, with their count', async () => {
    const full = (await get(`/v1/plans/${planId}`)).body;
    const r = await get(`/v1/plans/${planId}/summary`);
    assert.equal(r.status, 200);
    assert.equal(r.body.assignmentCount, full.assignments.length);
    assert.ok(!('assignments' in r.body) && !('placement' in r.body));
    const { assignments: _a, placement: _p, ...rest } = full;
    assert.deepEqual({ ...r.body, assignmentCount: undefined }, { ...rest, assignmentCount: undefined });
    assert.ok(JSON.stringify(r.body).length < JSON.stringify(full).length / 50);
    const other = await svc.tenant('other', ['customer']);
    const hidden = await fetch(`${svc.baseUrl}/v1/plans/${planId}/summary`, { headers: { authorization: `Bearer ${other.keys.customer}` } });
    assert.equal(hidden.status, 404, 'another tenant does not see it');
  });

  it('its charts are aggregated to at most MAX_CELLS cells and render', async () => {
    for (const chart of ['gantt', 'utilisation']) {
      const spec = await get(`/v1/plans/${planId}/charts/${chart}.json`);
      assert.equal(spec.status, 200);
      assert.ok(spec.body.data.values.length <= MAX_CELLS, `${chart}: ${spec.body.data.values.length} cells`);
      const svg = await fetch(`${svc.baseUrl}/v1/plans/${planId}/charts/${chart}.svg`, { headers: { authorization: `Bearer ${customer}` } });
      assert.equal(svg.status, 200);
      assert.match(await svg.text(), /^<svg /);
    }
  });

  it('the worker stored its page\'s charts with it (8,000 tasks: over the default FALLOW_CHART_PRERENDER_MIN_TASKS), byte for byte what the API renders', async () => {
    const stored = await svc.sql<{ chart: string; body: string }>(`SELECT chart, body FROM plan_charts WHERE plan_id = $1 AND format = 'svg' ORDER BY chart`, [planId]);
    assert.deepEqual(stored.map((r) => r.chart), ['gantt', 'utilisation']);
    // What the API renders when nothing is stored: from the plan (without its placement) and the instance as Postgres gives them.
    const [{ plan, instance }] = await svc.sql<{ plan: string; instance: string }>(
      `SELECT (p.document - 'placement')::text AS plan, s.instance::text AS instance FROM plans p JOIN solves s ON s.id = p.solve_id WHERE p.id = $1`,
      [planId],
    );
    for (const r of stored) {
      const served = await fetch(`${svc.baseUrl}/v1/plans/${planId}/charts/${r.chart}.svg`, { headers: { authorization: `Bearer ${customer}` } });
      assert.equal(served.headers.get('x-chart-source'), 'stored');
      assert.equal(await served.text(), r.body);
      const rendered = await makeChart({ kind: 'plan', format: 'svg', chart: r.chart as 'gantt' | 'utilisation', instance: { json: instance }, plan: { json: plan } });
      assert.ok(rendered === r.body, `${r.chart}: the stored SVG (${r.body.length} characters) differs from the rendering (${rendered.length})`);
    }
  });
});
