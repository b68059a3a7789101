/**
 * A cluster's schedule as a chart (GET /v1/clusters/{id}/schedule/charts/capacity.svg): per metric, summed
 * over the nodes, the capacity over time stacked as the regular customers' forecast load, what committed plans
 * reserve and what is still free, with the capacity as a dashed line (a stack above it is overbooked: the
 * cluster shrank after the commits, or the forecast grew); task slots likewise when nodes have maxTasks.
 * Anonymous by construction: it is drawn from the totals only.
 */
import type { MetricLine, TaskLine } from '../engine/commitments/schedule';
import { chart, ChartSpec, PLOT_WIDTH, round } from './spec';

export interface ScheduleChartInput {
  title: string;
  /** Wall-clock time of slot 0 (ms since the epoch). */
  startsAtMs: number;
  slotSeconds: number;
  slots: number;
  /** The forecast's id and the window slots it covers; null without a forecast. */
  forecast: { id: string; slots: number } | null;
  metrics: string[];
  totals: Record<string, MetricLine>;
  taskTotals: TaskLine | null;
}

/** The stacked series, bottom to top, and their colours. */
export const SCHEDULE_SERIES = ['regular load', 'reserved', 'free'] as const;
const SERIES_COLOURS = ['#b0bec5', '#f28e2b', '#59a14f'];
/** The panel of task slots (no metric may be called so: it has a space). */
export const TASK_PANEL = 'task slots';

/** One point of the chart: `amount` of `series` in `panel` from time `at` (ISO) on, with that panel's capacity. */
export interface SchedulePoint {
  panel: string;
  at: string;
  series: (typeof SCHEDULE_SERIES)[number];
  rank: number;
  amount: number;
  capacity: number;
}

export function scheduleSpec(input: ScheduleChartInput): ChartSpec {
  const { startsAtMs, slotSeconds, slots } = input;
  const timeOf = (t: number) => new Date(startsAtMs + t * slotSeconds * 1000).toISOString();
  const values: SchedulePoint[] = [];
  const panel = (name: string, capacity: number, series: Partial<Record<SchedulePoint['series'], number[]>>) => {
    for (const [rank, s] of SCHEDULE_SERIES.entries()) {
      const amounts = series[s];
      if (!amounts) continue;
      // step-after areas need the window's end as a last point, holding the last slot's value
      for (let t = 0; t <= slots; t++) values.push({ panel: name, at: timeOf(t), series: s, rank, amount: round(amounts[Math.min(t, slots - 1)], 6), capacity: round(capacity, 6) });
    }
  };
  for (const m of input.metrics) {
    const line = input.totals[m];
    panel(m, line.capacity, { 'regular load': line.regular, reserved: line.reserved, free: line.free });
  }
  if (input.taskTotals) panel(TASK_PANEL, input.taskTotals.maxTasks, { reserved: input.taskTotals.reserved, free: input.taskTotals.free });
  const panels = [...input.metrics, ...(input.taskTotals ? [TASK_PANEL] : [])];
  const f = input.forecast;
  const subtitle = [
    `${slots} slots of ${slotSeconds} s from ${timeOf(0)} to ${timeOf(slots)} (UTC), summed over the nodes; dashed: capacity`,
    !f
      ? 'no forecast of the cluster\'s current version covers the start: regular load counted as 0'
      : f.slots < slots
        ? `regular load from forecast ${f.id}, which ends at ${timeOf(f.slots)}: counted as 0 after it`
        : `regular load from forecast ${f.id}`,
  ];
  // A utc scale labels its axis in UTC, whatever the server's time zone.
  const x = { field: 'at', type: 'temporal', title: 'UTC', scale: { type: 'utc', domain: [startsAtMs, startsAtMs + slots * slotSeconds * 1000], nice: false }, axis: { format: '%d %b %H:%M', labelOverlap: true } };
  return chart({
    title: { text: input.title, subtitle },
    data: { values },
    facet: { row: { field: 'panel', type: 'nominal', sort: panels, header: { title: null, labelAngle: 0, labelAlign: 'left', labelFontSize: 12 } } },
    spec: {
      width: PLOT_WIDTH,
      height: 110,
      layer: [
        {
          mark: { type: 'area', interpolate: 'step-after' },
          encoding: {
            x,
            y: { field: 'amount', type: 'quantitative', stack: 'zero', title: null },
            color: { field: 'series', type: 'nominal', scale: { domain: [...SCHEDULE_SERIES], range: SERIES_COLOURS }, legend: { title: null, orient: 'top' } },
            order: { field: 'rank', type: 'quantitative' },
          },
        },
        {
          transform: [{ filter: { field: 'series', equal: 'free' } }],
          mark: { type: 'line', interpolate: 'step-after', color: 'black', strokeDash: [4, 3], strokeWidth: 1 },
          encoding: { x, y: { field: 'capacity', type: 'quantitative' } },
        },
      ],
    },
    resolve: { scale: { y: 'independent' } },
  });
}
