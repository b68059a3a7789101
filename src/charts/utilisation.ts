/**
 * Per node and metric, the capacity the forecast leaves (capacity minus the regular customers' forecast use,
 * after the safety margin: the model's available(k, m, t), Salamander Eq. 1) against what the plan's tasks use.
 * A few nodes: small multiples (a row per node, a column per metric), the capacity left as a grey area and the
 * plan's use drawn over it. Many nodes: one heatmap per metric, a row per node (or group of nodes) and a cell per
 * time bucket, coloured by the share of what the forecast leaves that the plan uses.
 */
import { Model, stageKey } from '../engine/model/model';
import type { PlanDoc } from '../engine/model/types';
import { cellGrid, MAX_CELLS, MAX_CHART_HEIGHT } from './node-rows';
import { Bar, lastSlot, planBars } from './plan-data';
import { bucketSlots, chart, ChartSpec, PLOT_WIDTH, round } from './spec';

/** Up to this many nodes, small multiples; above, heatmaps. */
export const MAX_SMALL_MULTIPLE_NODES = 12;
/** Most time buckets: each point or cell then stands for at least ceil(slots / 150) slots. */
export const MAX_BUCKETS = 150;

/**
 * The slots the chart spans: up to the plan's last busy slot, as the Gantt (so the two line up on the plan's
 * page, and a 15-slot plan on a 288-slot forecast is not 15 slivers); the whole horizon when the plan runs
 * nothing, where the capacity left over the window is what explains why.
 */
export function utilisationSpan(model: Model, bars: readonly Bar[]): number {
  return bars.length === 0 ? model.T : Math.min(model.T, lastSlot(bars));
}

/** used[k][m * T + t]: the demand of the plan's tasks running on node k at slot t. */
export function planUse(model: Model, plan: PlanDoc, bars = planBars(model, plan).bars): Float64Array[] {
  const { T, M } = model;
  const diff = Array.from({ length: model.K }, () => new Float64Array(M * (T + 1)));
  for (const b of bars) {
    const demand = model.stages[model.stageIndex.get(stageKey(b.job, b.stage))!].demand;
    const d = diff[b.k];
    for (let m = 0; m < M; m++) {
      d[m * (T + 1) + Math.min(T, b.start)] += demand[m];
      d[m * (T + 1) + Math.min(T, b.end)] -= demand[m];
    }
  }
  return diff.map((d) => {
    const used = new Float64Array(M * T);
    for (let m = 0; m < M; m++) {
      let run = 0;
      for (let t = 0; t < T; t++) used[m * T + t] = run += d[m * (T + 1) + t];
    }
    return used;
  });
}

export function utilisationSpec(model: Model, plan: PlanDoc): ChartSpec {
  const { bars } = planBars(model, plan);
  const used = planUse(model, plan, bars);
  const { T, M } = model;
  const S = utilisationSpan(model, bars);
  // Many nodes: one heatmap per metric, all of them together within MAX_CELLS cells (rows and buckets coarsened).
  const grid = model.K <= MAX_SMALL_MULTIPLE_NODES ? null : cellGrid(model.nodeIds, S, MAX_BUCKETS, Math.floor(MAX_CELLS / Math.max(1, M)));
  const L = grid ? grid.bucketSlots : bucketSlots(S, MAX_BUCKETS);
  const totals = model.metrics.map((metric, m) => {
    let u = 0;
    let a = 0;
    for (let k = 0; k < model.K; k++)
      for (let t = 0; t < S; t++) (u += used[k][m * T + t], (a += model.avail[k][m * T + t]));
    return `${metric}: the plan uses ${a > 0 ? Math.round((100 * u) / a) : 0}% of what the forecast leaves`;
  });
  const title = {
    text: `Capacity the forecast leaves vs what the plan uses: ${plan.strategy} plan of ${model.name}`,
    subtitle: [
      `${model.K} nodes, slots 0-${S} of the ${T}-slot horizon (${model.slotSeconds} s each)${L > 1 ? `, ${L} slots per point (means)` : ''}; over those slots ${totals.join('; ')}`,
    ],
  };
  /** Mean over the bucket starting at slot t0 of series s (available or used) of node k, metric m. */
  const mean = (s: Float64Array, m: number, t0: number) => {
    const t1 = Math.min(S, t0 + L);
    let sum = 0;
    for (let t = t0; t < t1; t++) sum += s[m * T + t];
    return sum / (t1 - t0);
  };
  if (model.K <= MAX_SMALL_MULTIPLE_NODES) {
    const values: { node: string; metric: string; t: number; available: number; used: number }[] = [];
    model.nodeIds.forEach((node, k) =>
      model.metrics.forEach((metric, m) => {
        for (let t0 = 0; t0 < S; t0 += L) values.push({ node, metric, t: t0, available: round(mean(model.avail[k], m, t0)), used: round(mean(used[k], m, t0)) });
        const last = values[values.length - 1]; // step-after areas need the window's end as a last point
        values.push({ ...last, t: S });
      }),
    );
    title.subtitle.push('grey: capacity the forecast leaves (after the safety margin); colour: what the plan\'s tasks use');
    const x = { field: 't', type: 'quantitative', title: `slot (${model.slotSeconds} s each)`, scale: { domain: [0, S], nice: false } };
    return chart({
      title,
      data: { values },
      facet: {
        row: { field: 'node', type: 'nominal', sort: model.nodeIds, header: { labelAngle: 0, labelAlign: 'left', title: null } },
        column: { field: 'metric', type: 'nominal', sort: model.metrics, header: { title: null, labelFontSize: 12 } },
      },
      spec: {
        width: Math.floor((PLOT_WIDTH - 40 * (M - 1)) / M),
        height: 56,
        layer: [
          { mark: { type: 'area', interpolate: 'step-after', color: '#cfd8dc' }, encoding: { x, y: { field: 'available', type: 'quantitative', title: null } } },
          {
            mark: { type: 'area', interpolate: 'step-after', opacity: 0.85 },
            encoding: { x, y: { field: 'used', type: 'quantitative' }, color: { field: 'metric', type: 'nominal', scale: { scheme: 'set1' }, legend: null } },
          },
        ],
      },
      resolve: { scale: { y: 'independent' } },
    });
  }
  const rows = grid!.rows;
  const R = rows.labels.length;
  const rowPx = Math.max(1, Math.min(12, Math.floor(MAX_CHART_HEIGHT / R)));
  const values: { metric: string; row: string; x0: number; x1: number; share: number }[] = [];
  model.metrics.forEach((metric, m) => {
    for (let r = 0; r < R; r++)
      for (let t0 = 0; t0 < S; t0 += L) {
        let u = 0;
        let a = 0;
        for (let k = r * rows.perRow; k < Math.min(model.K, (r + 1) * rows.perRow); k++) (u += mean(used[k], m, t0), (a += mean(model.avail[k], m, t0)));
        // Cells the plan leaves unused stay white: fewer marks to render, and white reads as "nothing used".
        if (u > 0) values.push({ metric, row: rows.labels[r], x0: t0, x1: Math.min(S, t0 + L), share: a > 0 ? round(Math.min(1, u / a), 3) : 1 });
      }
  });
  title.subtitle.push(
    `colour: share of the capacity the forecast leaves that the plan uses (white: unused${rows.perRow > 1 ? `; ${rows.perRow} nodes per row` : ''})`,
  );
  return chart({
    title,
    data: { values },
    hconcat: model.metrics.map((metric) => ({
      title: { text: metric, fontSize: 12 },
      transform: [{ filter: { field: 'metric', equal: metric } }],
      width: Math.floor((PLOT_WIDTH - 60 * (M - 1)) / M),
      height: R * rowPx,
      mark: { type: 'rect' },
      encoding: {
        x: { field: 'x0', type: 'quantitative', title: `slot (${model.slotSeconds} s each)`, scale: { domain: [0, S], nice: false } },
        x2: { field: 'x1' },
        y: { field: 'row', type: 'nominal', sort: rows.labels, scale: { domain: rows.labels }, title: rows.perRow > 1 ? 'nodes' : 'node', axis: R > 60 ? { labelOverlap: 'greedy', labelFontSize: 8 } : {} },
        color: { field: 'share', type: 'quantitative', scale: { scheme: 'oranges', domain: [0, 1] }, legend: { title: 'share used', format: '.0%' } },
      },
    })),
    resolve: { scale: { color: 'shared' } },
  });
}
