/**
 * One chart to make, as plain data (so it can cross to a thread), and making it: the Vega-Lite spec from the
 * stored documents, then, for `svg`, that spec rendered. The answer is the response body as text (the SVG, or
 * the spec as JSON), so the caller can keep and send it without touching the documents again.
 */
import { compile } from '../engine/model/model';
import type { InstanceDoc, PlanDoc } from '../engine/model/types';
import { ChartFormat, PlanChart, planChartSpec } from './charts';
import { ChartInputError } from './plan-data';
import { renderSvg } from './render';
import { RevenueChartInput, revenueSpec } from './revenue';
import { ScheduleChartInput, scheduleSpec } from './schedule';
import { plannedEnds, ReportForChart, simulationSpec } from './simulation';
import type { ChartSpec } from './spec';

/**
 * A document as the database gave it, JSON text not yet parsed: the API hands the chart thread the text of a large
 * plan and instance (17 MB at 100,000 tasks), so that neither parsing it nor copying it as objects holds its event
 * loop; the thread parses it.
 */
export interface JsonText {
  json: string;
}
/** A document, parsed or as text. */
export type Doc<T> = T | JsonText;

function parsed<T>(d: Doc<T>): T {
  return typeof (d as JsonText).json === 'string' ? (JSON.parse((d as JsonText).json) as T) : (d as T);
}

export type ChartJob = { format: ChartFormat } & (
  | { kind: 'plan'; chart: PlanChart; instance: Doc<InstanceDoc>; plan: Doc<PlanDoc> }
  | { kind: 'simulation'; report: ReportForChart; planned: { instance: Doc<InstanceDoc>; plan: Doc<PlanDoc> } | null; title: string }
  | { kind: 'revenue'; input: RevenueChartInput }
  | { kind: 'schedule'; input: ScheduleChartInput }
);

/** A stored plan that does not fit its stored instance: the service's fault, not the caller's. */
export class StoredChartError extends Error {}

export function chartSpecOf(job: ChartJob): ChartSpec {
  try {
    if (job.kind === 'plan') return planChartSpec(job.chart, compile(parsed(job.instance)), parsed(job.plan));
    if (job.kind === 'revenue') return revenueSpec(job.input);
    if (job.kind === 'schedule') return scheduleSpec(job.input);
    const planned = job.planned ? plannedEnds(compile(parsed(job.planned.instance)), parsed(job.planned.plan)) : null;
    return simulationSpec(job.report, planned, job.title);
  } catch (e) {
    if (e instanceof ChartInputError) throw new StoredChartError(`a stored plan does not fit its solve's instance: ${e.message}`);
    throw e;
  }
}

export async function makeChart(job: ChartJob): Promise<string> {
  return body(chartSpecOf(job), job.format);
}

/**
 * Several charts of one plan from one reading of its documents: the worker pre-renders a large plan's charts
 * (src/modules/charts/stored-plan-charts.ts), and parsing its 17 MB and compiling its instance once rather than
 * once a chart spares the shared cores a good part of the work.
 */
export interface PlanChartsJob {
  kind: 'plan-charts';
  charts: { chart: PlanChart; format: ChartFormat }[];
  instance: Doc<InstanceDoc>;
  plan: Doc<PlanDoc>;
}

/** Each chart's body, in the order asked, and how long its spec and rendering took on this thread (the documents' reading, shared, not counted). */
export async function makePlanCharts(job: PlanChartsJob): Promise<{ body: string; ms: number }[]> {
  let read: { model: ReturnType<typeof compile>; plan: PlanDoc };
  try {
    read = { model: compile(parsed(job.instance)), plan: parsed(job.plan) };
  } catch (e) {
    if (e instanceof ChartInputError) throw new StoredChartError(`a stored plan does not fit its solve's instance: ${e.message}`);
    throw e;
  }
  const out: { body: string; ms: number }[] = [];
  for (const { chart, format } of job.charts) {
    const t0 = Date.now();
    out.push({ body: await body(planChartSpec(chart, read.model, read.plan), format), ms: Date.now() - t0 });
  }
  return out;
}

function body(spec: ChartSpec, format: ChartFormat): Promise<string> | string {
  return format === 'json' ? JSON.stringify(spec) : renderSvg(spec);
}
