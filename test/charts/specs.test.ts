/**
 * The chart builders (src/charts) on small plans checkable by hand and on the 10,000-task plan: one bar per task
 * on its own lane while lanes are thick enough, the aggregated cells when they are not (the dominant job and the
 * busy share of a cell recomputed by brute force), the capacity left and used per node and metric, planned vs
 * realised rows, revenue in major units, and SVG out of the renderer with one mark per bar.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chartFiles, parseChartFile, PLAN_CHARTS } from '../../src/charts/charts';
import { ganttSpec, MAX_BUCKETS, MAX_DETAIL_BARS } from '../../src/charts/gantt';
import { cellGrid, MAX_CELLS, nodeRows } from '../../src/charts/node-rows';
import { ChartInputError, lastSlot, planBars } from '../../src/charts/plan-data';
import { renderSvg } from '../../src/charts/render';
import { minorDigits, revenueSpec } from '../../src/charts/revenue';
import { MAX_JOB_ROWS, plannedEnds, ReportForChart, simulationSpec } from '../../src/charts/simulation';
import { VEGA_LITE_SCHEMA } from '../../src/charts/spec';
import { planUse, utilisationSpec } from '../../src/charts/utilisation';
import { loadInstance, Model } from '../../src/engine/model/model';
import { AssignmentDoc, InstanceDoc } from '../../src/engine/model/types';
import { largeInstance } from '../../harness/load-speed';
import { at, planOf } from '../support/fixtures';
import { flat, node } from '../support/sim-fixtures';

type Json = any;

// Two nodes, slots of 50 s; map tasks take 2 slots on a (speed 1) and 1 on b (speed 2); j2 never fits.
const SMALL: InstanceDoc = {
  format: 'fallow.instance/v1',
  name: 'charts-hand',
  horizon: { slots: 10, slotSeconds: 50 },
  metrics: ['cpu', 'ram'],
  nodes: [node('a', { speed: 1 }), node('b', { speed: 2 })],
  usage: { a: { cpu: flat(0.25, 10), ram: flat(0.5, 10) } },
  jobs: [
    { id: 'j1', stages: [{ id: 'map', tasks: 3, demand: { cpu: 1, ram: 2 }, work: 100 }, { id: 'reduce', tasks: 1, after: ['map'], demand: { cpu: 2, ram: 1 }, durationSeconds: 50 }] },
    { id: 'j2', stages: [{ id: 'map', tasks: 1, demand: { cpu: 9, ram: 1 }, durationSeconds: 50 }] },
  ],
};
const SMALL_PLAN = planOf(SMALL, [at('j1/map/0@a:0'), at('j1/map/1@a:0'), at('j1/map/2@b:1'), at('j1/reduce/0@a:2')], ['j2']);

/**
 * Tasks spread over nodes by hand (the charts do not check feasibility): task i on node i % nodes, starting at
 * start(i). By default 10,000 tasks on 100 nodes, starts spread over 800 slots.
 */
function largePlan(tasks = 10_000, nodes = 100, slots = 1_000, seed = 1, start = (i: number) => (8 * Math.floor(i / 100) + (i % 100)) % 800): { model: Model; plan: ReturnType<typeof planOf> } {
  const doc = largeInstance(tasks, nodes, slots, seed);
  const model = loadInstance(doc);
  const assignments: AssignmentDoc[] = [];
  let i = 0;
  for (const job of doc.jobs)
    for (const stage of job.stages)
      for (let task = 0; task < stage.tasks; task++, i++) assignments.push({ job: job.id, stage: stage.id, task, node: doc.nodes[i % nodes].id, start: start(i) });
  return { model, plan: { ...planOf(doc, []), assignments, objective: { scheduledTasks: assignments.length, makespanSlots: 0 } } };
}

describe('gantt', () => {
  const model = loadInstance(SMALL);

  test('a small plan: one bar per task, overlapping tasks of a node on their own lanes, the rejected job listed', () => {
    const spec: Json = ganttSpec(model, SMALL_PLAN);
    assert.equal(spec.$schema, VEGA_LITE_SCHEMA);
    const bars = spec.data.values.map((v: Json) => `${v.job}/${v.stage}/${v.task}@${v.node}:${v.start}-${v.end}#${v.lane}`);
    assert.deepEqual(bars, ['j1/map/0@a:0-2#0', 'j1/map/1@a:0-2#1', 'j1/map/2@b:1-2#0', 'j1/reduce/0@a:2-3#0']);
    assert.equal(spec.encoding.yOffset.field, 'lane');
    assert.deepEqual(spec.encoding.yOffset.scale.domain, [0, 1], 'two lanes: the most tasks at once on a node');
    assert.ok(spec.title.subtitle.includes('rejected jobs: j2'));
    assert.equal(spec.encoding.color.field, 'job');
    assert.notEqual(spec.encoding.color.legend, null, 'a legend for a few jobs');
  });

  test('renders to SVG with one rect mark per task', async () => {
    const svg = await renderSvg(ganttSpec(model, SMALL_PLAN));
    assert.match(svg, /^<svg /);
    const group = /<g class="mark-rect role-mark[^"]*"[^>]*>(.*?)<\/g>/s.exec(svg);
    assert.ok(group, 'a group of rect marks');
    assert.equal((group[1].match(/<path /g) ?? []).length, SMALL_PLAN.assignments.length);
  });

  test('an assignment that does not fit the instance is an error naming its path', () => {
    const bad = { ...SMALL_PLAN, assignments: [...SMALL_PLAN.assignments, at('j1/map/0@zz:0'), at('j1/mapp/0@a:0')] };
    assert.throws(() => ganttSpec(model, bad), (e: unknown) => {
      assert.ok(e instanceof ChartInputError);
      assert.deepEqual(e.issues.map((i) => i.path), ['assignments[4].node', 'assignments[5].stage']);
      return true;
    });
  });

  test('10,000 tasks on 100 nodes aggregate: each cell holds its dominant job and busy share, recomputed here by brute force', () => {
    const { model: big, plan } = largePlan();
    assert.ok(plan.assignments.length > MAX_DETAIL_BARS);
    const spec: Json = ganttSpec(big, plan);
    assert.match(spec.title.subtitle.join(' '), /aggregated \(\d+ slots per cell\)/);
    const cells: Json[] = spec.data.values;
    const L = cells[0].x1 - cells[0].x0;
    assert.ok(Math.ceil(800 / L) <= MAX_BUCKETS);
    assert.ok(cells.length <= 100 * MAX_BUCKETS && cells.length > 1000, `${cells.length} cells`);
    const { bars, lanes } = planBars(big, plan);
    for (const cell of [cells[0], cells[Math.floor(cells.length / 2)], cells[cells.length - 1]]) {
      const k = big.nodeIndex.get(cell.row)!;
      const perJob = new Map<string, number>();
      let load = 0;
      for (const b of bars.filter((x) => x.k === k)) {
        const overlap = Math.min(b.end, cell.x1) - Math.max(b.start, cell.x0);
        if (overlap > 0) (perJob.set(b.job, (perJob.get(b.job) ?? 0) + overlap), (load += overlap));
      }
      const most = Math.max(...perJob.values());
      assert.ok(perJob.get(cell.job) === most, `${cell.row} [${cell.x0}, ${cell.x1}): ${cell.job} holds ${perJob.get(cell.job)}, the most is ${most}`);
      assert.ok(Math.abs(cell.busy - Math.min(1, load / ((cell.x1 - cell.x0) * lanes[k]))) < 1e-3);
    }
    assert.equal(spec.encoding.color.legend, null, '100 jobs: no legend taller than the chart');
  });

  test('5,000 nodes share rows: a row is never thinner than the chart can draw', () => {
    const ids = Array.from({ length: 5000 }, (_, k) => `n${k}`);
    const rows = nodeRows(ids);
    assert.ok(rows.labels.length <= 300);
    assert.equal(rows.labels[0], `n0-n${rows.perRow - 1}`);
    assert.equal(rows.rowOf[4999], rows.labels.length - 1);
    assert.deepEqual(nodeRows(['a', 'b']).labels, ['a', 'b']);
  });
});

describe('charts of 1,000 nodes (issue 40)', () => {
  /** 6,000 tasks by hand on 1,000 nodes over 300 slots. */
  const wide = () => largePlan(6_000, 1_000, 400, 3, (i) => (7 * i) % 300);

  test('the grid of rows and time buckets is held to MAX_CELLS cells, neither side cut below its minimum first', () => {
    const ids = Array.from({ length: 999 }, (_, k) => `n${k}`);
    const g = cellGrid(ids, 158, MAX_BUCKETS);
    assert.ok(g.rows.labels.length * g.buckets <= MAX_CELLS, `${g.rows.labels.length} x ${g.buckets}`);
    assert.ok(g.rows.labels.length >= 50 && g.buckets >= 40, `${g.rows.labels.length} rows, ${g.buckets} buckets`);
    assert.equal(g.buckets, Math.ceil(158 / g.bucketSlots));
    assert.equal(g.rows.rowOf[998], g.rows.labels.length - 1, 'every node has a row');
    // Within the budget nothing is coarsened: 100 nodes x 100 slots keep a row per node and a bucket per slot.
    const small = cellGrid(ids.slice(0, 100), 100, MAX_BUCKETS);
    assert.deepEqual([small.rows.perRow, small.bucketSlots], [1, 1]);
    // 5,000 nodes over a week of 5-minute slots: still within the budget.
    const huge = cellGrid(Array.from({ length: 5000 }, (_, k) => `n${k}`), 2016, MAX_BUCKETS);
    assert.ok(huge.rows.labels.length * huge.buckets <= MAX_CELLS);
  });

  test('the Gantt and the utilisation of 1,000 nodes draw at most MAX_CELLS cells in rows of several nodes', () => {
    const { model, plan } = wide();
    const gantt: Json = ganttSpec(model, plan);
    const cells: Json[] = gantt.data.values;
    assert.ok(cells.length <= MAX_CELLS, `${cells.length} cells`);
    const rows = new Set(cells.map((c) => c.row));
    assert.ok(rows.size >= 50, `${rows.size} rows`);
    assert.ok([...rows].filter((r) => !/^h\d+-h\d+$/.test(r)).length <= 1, 'rows name their first and last node (the last row may hold one)');
    const util: Json = utilisationSpec(model, plan);
    assert.ok(util.data.values.length <= MAX_CELLS, `${util.data.values.length} utilisation cells`);
    assert.deepEqual(util.hconcat.map((h: Json) => h.title.text), model.metrics);
  });
});

describe('utilisation', () => {
  const model = loadInstance(SMALL);

  test('per node and metric: the capacity the forecast leaves and the demand of the tasks running', () => {
    const used = planUse(model, SMALL_PLAN);
    // node a, cpu: map 0 and 1 in slots 0-1 (1 cpu each), reduce in slot 2 (2 cpu)
    assert.deepEqual([...used[0].slice(0, 4)], [2, 2, 2, 0]);
    assert.deepEqual([...used[1].slice(0, 3)], [0, 1, 0], 'node b, cpu: map 2 in slot 1');
    const spec: Json = utilisationSpec(model, SMALL_PLAN);
    const a0 = spec.data.values.find((v: Json) => v.node === 'a' && v.metric === 'cpu' && v.t === 0);
    assert.deepEqual([a0.available, a0.used], [3, 2], 'a has 4 cpu, the forecast takes a quarter');
    const bRam = spec.data.values.find((v: Json) => v.node === 'b' && v.metric === 'ram' && v.t === 1);
    assert.deepEqual([bRam.available, bRam.used], [16, 2]);
    assert.equal(spec.data.values.length, 2 * 2 * (3 + 1), 'a point per slot up to the plan\'s last busy slot (3) and one at its end, per node and metric');
    assert.deepEqual(spec.facet.row.sort, ['a', 'b']);
  });

  test("the time axis spans the plan's slots, not the forecast's: a 15-slot plan on a 288-slot horizon fills the width", () => {
    const day: InstanceDoc = { ...SMALL, horizon: { slots: 288, slotSeconds: 50 }, usage: { a: { cpu: flat(0.25, 288), ram: flat(0.5, 288) } } };
    const dayModel = loadInstance(day);
    const plan = planOf(day, [at('j1/map/0@a:0'), at('j1/map/1@b:6'), at('j1/map/2@b:12'), at('j1/reduce/0@b:14')], ['j2']);
    assert.equal(lastSlot(planBars(dayModel, plan).bars), 15, 'the plan ends at slot 15');
    const spec: Json = utilisationSpec(dayModel, plan);
    assert.deepEqual(spec.spec.layer[0].encoding.x.scale.domain, [0, 15]);
    assert.deepEqual(spec.spec.layer[1].encoding.x.scale.domain, [0, 15]);
    const ts = spec.data.values.filter((v: Json) => v.node === 'a' && v.metric === 'cpu').map((v: Json) => v.t);
    assert.deepEqual(ts, [...Array(16).keys()], 'a point per slot 0-14 and the end, none beyond');
    assert.match(spec.title.subtitle[0], /slots 0-15 of the 288-slot horizon/);
    // the heatmap of many nodes spans the same slots
    const { model: big, plan: bigPlan } = largePlan();
    const cut = { ...bigPlan, assignments: bigPlan.assignments.filter((a) => a.start < 100) };
    const heat: Json = utilisationSpec(big, cut);
    const bigEnd = lastSlot(planBars(big, cut).bars);
    assert.ok(bigEnd < big.T / 2, `${bigEnd} of ${big.T}`);
    for (const h of heat.hconcat) assert.deepEqual(h.encoding.x.scale.domain, [0, bigEnd]);
    assert.ok(heat.data.values.every((v: Json) => v.x1 <= bigEnd));
  });

  test('a plan that runs nothing spans the whole horizon (the capacity left is what the chart has to show)', () => {
    const spec: Json = utilisationSpec(model, planOf(SMALL, [], ['j1', 'j2']));
    assert.deepEqual(spec.spec.layer[0].encoding.x.scale.domain, [0, 10]);
  });

  test('100 nodes: one heatmap per metric, each cell the share of what is left that the plan uses', () => {
    const { model: big, plan } = largePlan();
    const spec: Json = utilisationSpec(big, plan);
    assert.deepEqual(spec.hconcat.map((h: Json) => h.title.text), ['cpu', 'ram']);
    assert.ok(spec.data.values.every((v: Json) => v.share > 0 && v.share <= 1));
    assert.ok(spec.data.values.length <= 2 * 100 * MAX_BUCKETS);
  });
});

describe('planned vs realised', () => {
  const model = loadInstance(SMALL);
  const job = (id: string, endSeconds: number | null, extra: Json = {}) => ({ id, accepted: true, stagingSeconds: 0, endSeconds, executionSeconds: endSeconds, computeSeconds: endSeconds, deadlineSeconds: null, onTime: endSeconds !== null, revenue: 0, kills: 0, remoteTasks: 0, ...extra });
  const report = (jobs: Json[]): ReportForChart => ({ mode: 'plan', driver: 'plan:hand', qos: 'cuckoo', makespanSeconds: 400, relaunches: 3, remoteTasks: 1, stalledTasks: 0, jobs });

  test('each job\'s planned end (slots x slotSeconds) against its realised one, kills and remote reads noted', () => {
    assert.deepEqual([...plannedEnds(model, SMALL_PLAN)], [['j1', 150]]);
    const spec: Json = simulationSpec(report([job('j1', 210, { kills: 3, remoteTasks: 1 }), { ...job('j2', null), accepted: false }]), plannedEnds(model, SMALL_PLAN), 'hand');
    assert.deepEqual(spec.data.values.map((r: Json) => [r.job, r.planned, r.realised, r.status, r.note]), [['j1', 150, 210, 'on time', '3 kills, 1 remote read']]);
    assert.ok(spec.title.subtitle.includes('rejected jobs: j2'));
  });

  test('a policy run has no plan: only realised ends, an unfinished job drawn at the makespan', () => {
    const spec: Json = simulationSpec({ ...report([job('a', 120), job('b', null)]), mode: 'policy', driver: 'fair' }, null, 'policy fair');
    assert.match(spec.title.text, /^Realised job ends/);
    assert.deepEqual(spec.data.values.map((r: Json) => [r.job, r.planned, r.realised, r.status]), [['a', null, 120, 'on time'], ['b', null, 400, 'unfinished']]);
    assert.match(spec.title.subtitle[0], /^policy fair, QoS cuckoo/);
  });

  test('many jobs: the rows kept are the unfinished and those furthest from plan', () => {
    const jobs = Array.from({ length: 80 }, (_, i) => job(`j${i}`, i === 5 ? null : 100 + i * (i % 2 ? 10 : 1)));
    const planned = new Map(jobs.map((j) => [j.id, 100]));
    const rows: Json[] = (simulationSpec(report(jobs), planned, 'many') as Json).data.values;
    assert.equal(rows.length, MAX_JOB_ROWS);
    assert.ok(rows.some((r) => r.job === 'j5' && r.status === 'unfinished'));
    assert.ok(rows.some((r) => r.job === 'j79') && !rows.some((r) => r.job === 'j2'), 'odd jobs are late by 10x more');
    assert.deepEqual(rows.map((r) => r.order), rows.map((_, i) => i));
  });
});

describe('revenue', () => {
  test('amounts in major units of the currency, money going out below zero, the net as points', () => {
    assert.deepEqual([minorDigits('EUR'), minorDigits('JPY'), minorDigits('KWD')], [2, 0, 3]);
    const spec: Json = revenueSpec({
      title: 't',
      currency: 'EUR',
      period: 'day',
      components: [{ periodStart: '2030-01-02T00:00:00.000Z', series: 'revenue', amount: 1250 }, { periodStart: '2030-01-01T00:00:00.000Z', series: 'penalties', amount: -300 }],
      net: [{ periodStart: '2030-01-01T00:00:00.000Z', amount: -300 }],
    });
    assert.deepEqual(spec.layer[0].data.values, [{ period: '2030-01-02', series: 'revenue', amount: 12.5 }, { period: '2030-01-01', series: 'penalties', amount: -3 }]);
    assert.deepEqual(spec.layer[0].encoding.x.sort, ['2030-01-01', '2030-01-02']);
    assert.deepEqual(spec.layer[2].data.values, [{ period: '2030-01-01', series: 'net', amount: -3 }]);
  });
});

describe('chart files', () => {
  test('<chart>.svg and <chart>.json of the known charts only', () => {
    assert.deepEqual(chartFiles(PLAN_CHARTS), ['gantt.svg', 'gantt.json', 'utilisation.svg', 'utilisation.json']);
    assert.deepEqual(parseChartFile('utilisation.json', PLAN_CHARTS), { chart: 'utilisation', format: 'json' });
    for (const bad of ['gantt', 'gantt.png', 'pie.svg', '.svg', 'gantt.svg.json']) assert.equal(parseChartFile(bad, PLAN_CHARTS), null, bad);
  });
});
