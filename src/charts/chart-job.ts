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

export type ChartJob = { format: ChartFormat } & (
  | { kind: 'plan'; chart: PlanChart; instance: InstanceDoc; plan: PlanDoc }
  | { kind: 'simulation'; report: ReportForChart; planned: { instance: InstanceDoc; plan: PlanDoc } | null; title: string }
  | { kind: 'revenue'; input: RevenueChartInput }
  | { kind: 'schedule'; input: ScheduleChartInput }
);

/** A stored plan that does not fit its stored instance: the service's fault, not the caller's. */
export class StoredChartError extends Error {}

export function chartSpecOf(job: ChartJob): ChartSpec {
  try {
    if (job.kind === 'plan') return planChartSpec(job.chart, compile(job.instance), job.plan);
    if (job.kind === 'revenue') return revenueSpec(job.input);
    if (job.kind === 'schedule') return scheduleSpec(job.input);
    const planned = job.planned ? plannedEnds(compile(job.planned.instance), job.planned.plan) : null;
    return simulationSpec(job.report, planned, job.title);
  } catch (e) {
    if (e instanceof ChartInputError) throw new StoredChartError(`a stored plan does not fit its solve's instance: ${e.message}`);
    throw e;
  }
}

export async function makeChart(job: ChartJob): Promise<string> {
  const spec = chartSpecOf(job);
  return job.format === 'json' ? JSON.stringify(spec) : renderSvg(spec);
}
