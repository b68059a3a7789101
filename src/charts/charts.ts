/**
 * The charts by name, and the file names they are served as: `<chart>.svg` (rendered here) or `<chart>.json`
 * (the Vega-Lite spec, for clients that render it themselves). Used by the API routes and `fallow plot`.
 */
import type { Model } from '../engine/model/model';
import type { PlanDoc } from '../engine/model/types';
import { ganttSpec } from './gantt';
import { ChartSpec } from './spec';
import { utilisationSpec } from './utilisation';

export const PLAN_CHARTS = ['gantt', 'utilisation'] as const;
export type PlanChart = (typeof PLAN_CHARTS)[number];
export const SIMULATION_CHARTS = ['planned-vs-realised'] as const;
/** A cluster's schedule: free, reserved and regular load per metric over time (schedule.ts). */
export const SCHEDULE_CHARTS = ['capacity'] as const;
export const CHART_FORMATS = ['svg', 'json'] as const;
export type ChartFormat = (typeof CHART_FORMATS)[number];

export const SVG_TYPE = 'image/svg+xml';

/** Every file name of the charts given: gantt.svg, gantt.json, ... */
export function chartFiles(charts: readonly string[]): string[] {
  return charts.flatMap((c) => CHART_FORMATS.map((f) => `${c}.${f}`));
}

/** "gantt.svg" -> { chart: 'gantt', format: 'svg' }; null when the name is not one of `charts` in a known format. */
export function parseChartFile<C extends string>(file: string, charts: readonly C[]): { chart: C; format: ChartFormat } | null {
  const dot = file.lastIndexOf('.');
  const chart = file.slice(0, dot) as C;
  const format = file.slice(dot + 1) as ChartFormat;
  return dot > 0 && charts.includes(chart) && CHART_FORMATS.includes(format) ? { chart, format } : null;
}

export function planChartSpec(chart: PlanChart, model: Model, plan: PlanDoc): ChartSpec {
  return chart === 'gantt' ? ganttSpec(model, plan) : utilisationSpec(model, plan);
}
