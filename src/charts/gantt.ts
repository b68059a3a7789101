/**
 * The Gantt chart of a plan: one row per node, tasks as bars coloured by job, the rejected jobs listed under
 * the title. Small plans get one bar per task, each on its own lane of the node (tasks run side by side on a
 * node); when lanes would be thinner than a pixel, or there are too many bars to render quickly, the chart
 * aggregates: one cell per node and time bucket, coloured by the job holding most task-time in it, as opaque
 * as the share of the node's lanes busy.
 */
import type { Model } from '../engine/model/model';
import type { PlanDoc } from '../engine/model/types';
import { cellGrid, MAX_CELLS, MAX_CHART_HEIGHT } from './node-rows';
import { Bar, lastSlot, planBars } from './plan-data';
import { chart, ChartSpec, JOB_SCHEME, listLine, MAX_LEGEND_JOBS, PLOT_WIDTH, round } from './spec';

/** Above this many tasks one bar each costs more render time than it adds: aggregate (bench/CHARTS.md). */
export const MAX_DETAIL_BARS = 3000;
/** Most time buckets of the aggregated chart (a cell is then at least PLOT_WIDTH / 150 = 6 px wide). */
export const MAX_BUCKETS = 150;
/** Tallest lane of the detailed chart. */
const MAX_LANE_PX = 14;

export interface GanttOptions {
  /** Force the aggregated or the detailed form (default: chosen by size). */
  mode?: 'auto' | 'detail' | 'aggregate';
}

export function ganttSpec(model: Model, plan: PlanDoc, options: GanttOptions = {}): ChartSpec {
  const { bars, lanes } = planBars(model, plan);
  const maxLanes = Math.max(1, ...lanes);
  const lanePx = MAX_CHART_HEIGHT / (model.K * maxLanes);
  const aggregate = options.mode === 'aggregate' || (options.mode !== 'detail' && (lanePx < 1 || bars.length > MAX_DETAIL_BARS));
  const jobs = new Set(bars.map((b) => b.job));
  const slotNote = `slot (${model.slotSeconds} s each)`;
  const title = {
    text: `Gantt per node: ${plan.strategy} plan of ${model.name}`,
    subtitle: [
      `${bars.length} tasks of ${jobs.size} jobs on ${model.K} nodes; makespan ${plan.objective?.makespanSlots ?? lastSlot(bars)} slots` +
        (aggregate ? '' : '; colour: job'),
      listLine('rejected jobs', plan.rejected ?? []),
    ],
  };
  const color = {
    field: 'job',
    type: 'nominal',
    scale: { scheme: JOB_SCHEME },
    legend: jobs.size <= MAX_LEGEND_JOBS ? { title: 'job', orient: 'right' } : null,
  };
  if (!aggregate) {
    const height = Math.max(60, Math.round(model.K * maxLanes * Math.min(MAX_LANE_PX, Math.floor(lanePx))));
    return chart({
      title,
      width: PLOT_WIDTH,
      height,
      data: { values: bars.map((b) => ({ node: b.node, job: b.job, stage: b.stage, task: b.task, start: b.start, end: b.end, lane: b.lane })) },
      mark: { type: 'rect', stroke: 'white', strokeWidth: 0.5 },
      encoding: {
        x: { field: 'start', type: 'quantitative', title: slotNote, scale: { domain: [0, lastSlot(bars)], nice: false } },
        x2: { field: 'end' },
        y: { field: 'node', type: 'nominal', sort: model.nodeIds, title: 'node', scale: { domain: model.nodeIds } },
        yOffset: { field: 'lane', type: 'ordinal', scale: { domain: Array.from({ length: maxLanes }, (_, i) => i) } },
        color,
      },
    });
  }
  return aggregatedGantt(model, bars, lanes, { title, color, slotNote });
}

/** One cell per row (node, or group of nodes) and time bucket with any task-time in it; at most MAX_CELLS cells. */
function aggregatedGantt(model: Model, bars: Bar[], lanes: Int32Array, parts: { title: { text: string; subtitle: string[] }; color: Record<string, unknown>; slotNote: string }): ChartSpec {
  const end = lastSlot(bars);
  const { rows, bucketSlots: L, buckets: B } = cellGrid(model.nodeIds, end, MAX_BUCKETS, MAX_CELLS);
  const R = rows.labels.length;
  const rowLanes = new Float64Array(R);
  lanes.forEach((n, k) => (rowLanes[rows.rowOf[k]] += Math.max(1, n)));
  const load = new Float64Array(R * B);
  const byJob = new Map<number, Map<string, number>>();
  for (const b of bars) {
    const r = rows.rowOf[b.k];
    for (let q = Math.floor(b.start / L); q * L < b.end; q++) {
      const overlap = Math.min(b.end, (q + 1) * L) - Math.max(b.start, q * L);
      const cell = r * B + q;
      load[cell] += overlap;
      let jobs = byJob.get(cell);
      if (!jobs) byJob.set(cell, (jobs = new Map()));
      jobs.set(b.job, (jobs.get(b.job) ?? 0) + overlap);
    }
  }
  const values: { row: string; x0: number; x1: number; job: string; busy: number }[] = [];
  for (const [cell, jobs] of byJob) {
    const r = Math.floor(cell / B);
    const q = cell % B;
    let job = '';
    let most = -1;
    for (const [j, t] of jobs) if (t > most || (t === most && j < job)) (job = j, (most = t));
    const x0 = q * L;
    const x1 = Math.min(end, x0 + L);
    values.push({ row: rows.labels[r], x0, x1, job, busy: round(Math.min(1, load[cell] / ((x1 - x0) * rowLanes[r])), 3) });
  }
  const rowPx = Math.max(1, Math.min(12, Math.floor(MAX_CHART_HEIGHT / R)));
  const grouping = rows.perRow > 1 ? `${rows.perRow} nodes per row, ` : '';
  return chart({
    title: {
      text: parts.title.text,
      subtitle: [
        ...parts.title.subtitle,
        `aggregated (${grouping}${L} slot${L > 1 ? 's' : ''} per cell): colour is the job with most task-time in the cell, opacity the share of the node's lanes busy`,
      ],
    },
    width: PLOT_WIDTH,
    height: R * rowPx,
    data: { values },
    mark: { type: 'rect' },
    encoding: {
      x: { field: 'x0', type: 'quantitative', title: parts.slotNote, scale: { domain: [0, end], nice: false } },
      x2: { field: 'x1' },
      y: { field: 'row', type: 'nominal', sort: rows.labels, title: rows.perRow > 1 ? 'nodes' : 'node', scale: { domain: rows.labels }, axis: R > 60 ? { labelOverlap: 'greedy', labelFontSize: 8 } : {} },
      color: parts.color,
      opacity: { field: 'busy', type: 'quantitative', scale: { domain: [0, 1], range: [0.15, 1] }, legend: { title: 'lanes busy' } },
    },
  });
}
