/**
 * `fallow plot`: the charts the API serves, drawn offline from files (src/charts), as SVG or as the Vega-Lite spec.
 *   fallow plot INSTANCE.json PLAN.json [--chart gantt|utilisation] [--out FILE] [--json]
 *   fallow plot INSTANCE.json [PLAN.json] --report REPORT.json [--out FILE] [--json]   (a `fallow simulate` report: planned vs realised)
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PLAN_CHARTS, PlanChart, planChartSpec } from './charts/charts';
import { ChartInputError } from './charts/plan-data';
import { renderSvg } from './charts/render';
import { plannedEnds, ReportForChart, simulationSpec } from './charts/simulation';
import { ChartSpec } from './charts/spec';
import { ValidationError } from './engine/model/errors';
import { loadInstance } from './engine/model/model';
import { PlanDoc } from './engine/model/types';
import { InputError, readJson } from './simulate-cli';

export const PLOT_USAGE = `  fallow plot INSTANCE.json PLAN.json [--chart ${PLAN_CHARTS.join('|')}] [--out FILE.svg] [--json]
  fallow plot INSTANCE.json [PLAN.json] --report REPORT.json [--out FILE.svg] [--json]
    draws a plan's chart, or a \`fallow simulate\` report's planned vs realised job ends, as SVG (--json: the Vega-Lite spec)`;

/** Exit codes: 0 chart written, 2 bad input (the message names the file, flag or field). */
export async function plotCommand(args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (e) {
    const issues = e instanceof ValidationError || e instanceof ChartInputError ? e.issues : null;
    const what = e instanceof ValidationError ? `${e.what} is not valid` : 'the plan does not fit the instance';
    if (issues) process.stderr.write(`fallow: ${what}:\n${issues.map((i) => `  ${i.path}: ${i.message}\n`).join('')}`);
    else if (e instanceof InputError) process.stderr.write(`fallow: ${e.message}\n`);
    else throw e;
    return 2;
  }
}

async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { chart: { type: 'string' }, report: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean', default: false } } });
  } catch (e) {
    return usage((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length < 1 || positionals.length > 2) return usage('give INSTANCE.json and PLAN.json (or INSTANCE.json and --report REPORT.json)');
  if (values.report !== undefined && values.chart !== undefined && values.chart !== 'planned-vs-realised')
    return usage(`--chart ${values.chart} is a plan chart; with --report the chart is planned-vs-realised`);
  const model = loadInstance(readJson(positionals[0]));
  const plan = positionals[1] === undefined ? null : readPlan(positionals[1]);
  let spec: ChartSpec;
  if (values.report !== undefined) {
    const report = readReport(values.report);
    spec = simulationSpec(report, plan ? plannedEnds(model, plan) : null, plan ? `${plan.strategy} plan of ${model.name}` : model.name);
  } else {
    if (!plan) return usage('a plan chart needs PLAN.json');
    const chart = (values.chart ?? 'gantt') as PlanChart;
    if (!PLAN_CHARTS.includes(chart)) return usage(`--chart must be one of ${PLAN_CHARTS.join(', ')}, got "${values.chart}"`);
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

function usage(message: string): number {
  process.stderr.write(`fallow: ${message}\nusage:\n${PLOT_USAGE}\n`);
  return 2;
}

