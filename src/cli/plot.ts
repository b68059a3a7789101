/**
 * `fallow plot`: the charts the API serves, drawn offline from files (src/charts), as SVG or as the Vega-Lite spec.
 */
import { writeFileSync } from 'node:fs';
import { CommandSpec, parseCommand, UsageError } from './args';
import { InputError, readJson } from './input';
import { PLAN_CHARTS, PlanChart, planChartSpec } from '../charts/charts';
import { ChartInputError } from '../charts/plan-data';
import { renderSvg } from '../charts/render';
import { plannedEnds, ReportForChart, simulationSpec } from '../charts/simulation';
import { ChartSpec } from '../charts/spec';
import { ValidationError } from '../engine/model/errors';
import { loadInstance } from '../engine/model/model';
import { PlanDoc } from '../engine/model/types';

export const PLOT = {
  name: 'plot',
  synopsis: ['INSTANCE.json PLAN.json [--chart NAME] [--out FILE.svg] [--json]', 'INSTANCE.json [PLAN.json] --report REPORT.json [--out FILE.svg] [--json]'],
  summary: "Draw a plan's chart, or a `fallow simulate` report's planned vs realised job ends, as SVG (--json: the Vega-Lite spec).",
  options: {
    chart: { type: 'string', value: 'NAME', help: `a plan chart: ${PLAN_CHARTS.join(' | ')} (default gantt)` },
    report: { type: 'string', value: 'REPORT.json', help: 'a `fallow simulate` report: the planned-vs-realised chart' },
    out: { type: 'string', value: 'FILE', help: 'write the chart to FILE instead of stdout' },
    json: { type: 'boolean', help: 'print the Vega-Lite spec instead of the SVG' },
  },
} satisfies CommandSpec;

/** A plan that does not fit its instance is the user's input, named like an invalid document (exit 2). */
export async function plotCommand(args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (e) {
    if (e instanceof ChartInputError) throw new ValidationError('the plan (against the instance)', e.issues);
    throw e;
  }
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(PLOT, args);
  if (positionals.length < 1 || positionals.length > 2) throw new UsageError('plot needs INSTANCE.json and PLAN.json (or INSTANCE.json and --report REPORT.json)');
  if (values.report !== undefined && values.chart !== undefined && values.chart !== 'planned-vs-realised')
    throw new UsageError(`--chart ${values.chart} is a plan chart; with --report the chart is planned-vs-realised`);
  const model = loadInstance(readJson(positionals[0]));
  const plan = positionals[1] === undefined ? null : readPlan(positionals[1]);
  let spec: ChartSpec;
  if (values.report !== undefined) {
    const report = readReport(values.report);
    spec = simulationSpec(report, plan ? plannedEnds(model, plan) : null, plan ? `${plan.strategy} plan of ${model.name}` : model.name);
  } else {
    if (!plan) throw new UsageError('a plan chart needs PLAN.json');
    const chart = (values.chart ?? 'gantt') as PlanChart;
    if (!PLAN_CHARTS.includes(chart)) throw new UsageError(`--chart must be one of ${PLAN_CHARTS.join(', ')}, got "${values.chart}"`);
    spec = planChartSpec(chart, model, plan);
  }
  const text = values.json ? JSON.stringify(spec, null, 2) + '\n' : await renderSvg(spec);
  if (values.out !== undefined) writeFileSync(values.out, text);
  else process.stdout.write(text);
  return 0;
}

function readPlan(path: string): PlanDoc {
  const plan = readJson(path) as PlanDoc;
  if (typeof plan !== 'object' || plan === null || !Array.isArray(plan.assignments)) throw new InputError(`${path}: assignments must be an array (a fallow.plan/v1 document)`);
  return plan;
}

function readReport(path: string): ReportForChart {
  const report = readJson(path) as ReportForChart;
  if (typeof report !== 'object' || report === null || !Array.isArray(report.jobs)) throw new InputError(`${path}: jobs must be an array (a report of \`fallow simulate\`)`);
  return report;
}
