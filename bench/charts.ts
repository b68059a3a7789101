/**
 * Chart benchmark (npm run bench:charts): how long the charts of a 10,000-task plan on 100 nodes and 1,000 slots
 * (harness/load-speed.ts largeInstance) take, the issue's target being under 2 s.
 *
 *   offline  in this process, after one warm-up: the Vega-Lite spec from the plan (src/charts) and its rendering
 *            to SVG (vega), per chart, --reps times; and the first render of a fresh process, which loads vega;
 *   service  through the API and a worker against the real Postgres and Redis: --plans plans of the instance
 *            solved (rffd, 1 s, seeds 1..N), and for each GET /v1/plans/{id}/charts/{gantt,utilisation}.svg the
 *            first time (loads the plan and its instance, builds, renders) and again (the cached SVG).
 *
 * Writes bench/CHARTS.md (machine, date, median and spread of each). Timing targets live here, never in tests.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PLAN_CHARTS, PlanChart, planChartSpec } from '../src/charts/charts';
import { renderSvg } from '../src/charts/render';
import { loadInstance } from '../src/engine/model/model';
import { solve } from '../src/engine/solve';
import { largeInstance } from '../harness/load-speed';
import { startService } from '../harness/service';
import { solvedPlan } from './charts/solved-plan';
import { command, EntryArgs, runEntry } from './lib/cli';
import { generatedLine } from './lib/markdown';
import { machineInfo } from './lib/machine';
import { benchFile } from './lib/paths';
import { summarize, Summary } from './lib/stats';

const TASKS = 10_000;
const NODES = 100;
const SLOTS = 1_000;

interface Row {
  what: string;
  summary: Summary;
  note: string;
}

const ms = (t0: number) => performance.now() - t0;

async function offline(reps: number, log: (m: string) => void): Promise<Row[]> {
  const model = loadInstance(largeInstance(TASKS, NODES, SLOTS, 1));
  const plan = await solve(model, { strategy: 'rffd', timeBudgetMs: 1000, seed: 1 });
  log(`offline: plan of ${plan.assignments.length} tasks, makespan ${plan.objective.makespanSlots}`);
  const rows: Row[] = [];
  for (const chart of PLAN_CHARTS) {
    await renderSvg(planChartSpec(chart, model, plan)); // warm-up: vega loaded, code paths compiled
    const spec: number[] = [];
    const render: number[] = [];
    const total: number[] = [];
    let size = 0;
    for (let i = 0; i < reps; i++) {
      let t0 = performance.now();
      const s = planChartSpec(chart, model, plan);
      spec.push(ms(t0));
      t0 = performance.now();
      size = (await renderSvg(s)).length;
      render.push(ms(t0));
      total.push(spec[i] + render[i]);
    }
    const marks = ((planChartSpec(chart, model, plan).data as { values: unknown[] }).values ?? []).length;
    rows.push({ what: `${chart}: spec`, summary: summarize(spec), note: `${marks} data rows` });
    rows.push({ what: `${chart}: render to SVG`, summary: summarize(render), note: `${Math.round(size / 1024)} KiB of SVG` });
    rows.push({ what: `${chart}: spec + render`, summary: summarize(total), note: '' });
    log(`offline ${chart}: median ${summarize(total).median} ms`);
  }
  return rows;
}

/** The first render in a fresh process (loading vega and vega-lite is part of it): a child per run. */
function coldStarts(reps: number, dir: string): Row {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const out = execFileSync(process.execPath, ['-e', COLD_SCRIPT], { cwd: dir, encoding: 'utf8' });
    times.push(Number(out.trim()));
  }
  return { what: 'gantt: first render in a fresh process (vega loaded)', summary: summarize(times), note: 'spec + render' };
}

const COLD_SCRIPT = `
const { largeInstance } = require('./harness/load-speed');
const { loadInstance } = require('./src/engine/model/model');
const { solve } = require('./src/engine/solve');
const { ganttSpec } = require('./src/charts/gantt');
const { renderSvg } = require('./src/charts/render');
(async () => {
  const model = loadInstance(largeInstance(${TASKS}, ${NODES}, ${SLOTS}, 1));
  const plan = await solve(model, { strategy: 'rffd', timeBudgetMs: 300, seed: 1 });
  const t0 = performance.now();
  await renderSvg(ganttSpec(model, plan));
  console.log(performance.now() - t0);
})();`;

async function service(plans: number, log: (m: string) => void): Promise<Row[]> {
  const svc = await startService({ bodyLimit: '50mb' });
  try {
    svc.startWorker();
    const t = await svc.tenant('bench-charts', ['customer']);
    const key = t.keys.customer;
    const client = svc.client(key);
    const instance = largeInstance(TASKS, NODES, SLOTS, 1);
    const first: Record<PlanChart, number[]> = { gantt: [], utilisation: [] };
    const cached: Record<PlanChart, number[]> = { gantt: [], utilisation: [] };
    for (let seed = 1; seed <= plans; seed++) {
      const planId = await solvedPlan(client, instance, seed);
      for (const chart of PLAN_CHARTS)
        for (const into of [first, cached]) {
          const t0 = performance.now();
          const res = await fetch(`${svc.baseUrl}/v1/plans/${planId}/charts/${chart}.svg`, { headers: { authorization: `Bearer ${key}` } });
          const body = await res.text();
          into[chart].push(ms(t0));
          if (res.status !== 200 || !body.startsWith('<svg')) throw new Error(`${chart}: ${res.status} ${body.slice(0, 200)}`);
        }
      log(`service plan ${seed}: gantt ${Math.round(first.gantt[seed - 1])} ms, utilisation ${Math.round(first.utilisation[seed - 1])} ms`);
    }
    return PLAN_CHARTS.flatMap((chart) => [
      { what: `GET ${chart}.svg, first request`, summary: summarize(first[chart]), note: 'plan + instance from Postgres, spec, render' },
      { what: `GET ${chart}.svg, again`, summary: summarize(cached[chart]), note: 'the cached SVG' },
    ]);
  } finally {
    await svc.close();
  }
}

function table(rows: Row[]): string {
  const f = (x: number | null) => (x === null ? '-' : x.toFixed(0));
  return [
    '| what | n | median ms | min | p90 | max | |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.what} | ${r.summary.n} | **${f(r.summary.median)}** | ${f(r.summary.min)} | ${f(r.summary.p90)} | ${f(r.summary.max)} | ${r.note} |`),
  ].join('\n');
}

const COMMAND = command({
  name: 'bench:charts',
  usage: 'usage: npm run bench:charts -- [options]     (writes bench/CHARTS.md)',
  options: {
    reps: { kind: 'integer', min: 1, default: 10, arg: 'N', help: 'offline renders per chart, after a warm-up (default 10)' },
    plans: { kind: 'integer', min: 1, default: 5, arg: 'N', help: 'plans drawn through the service (default 5)' },
    cold: { kind: 'integer', min: 1, default: 3, arg: 'N', help: "fresh processes' first renders (default 3)" },
    'no-service': { kind: 'flag', help: 'offline only: no Postgres, Redis or API' },
  },
});

async function main({ values }: EntryArgs<typeof COMMAND.options>): Promise<number> {
  const log = (m: string) => process.stderr.write(m + '\n');
  const dist = path.resolve(__dirname, '..');
  const off = await offline(values.reps, log);
  const cold = coldStarts(values.cold, dist);
  const svc = values['no-service'] ? [] : await service(values.plans, log);
  const m = machineInfo();
  const md = `# Charts: render times of a ${TASKS.toLocaleString('en')}-task plan

${generatedLine('npm run bench:charts', 'bench/charts.ts', m)}

The plan: \`rffd\` on \`largeInstance(${TASKS}, ${NODES}, ${SLOTS})\` of harness/load-speed.ts (${TASKS.toLocaleString('en')} tasks of 100 jobs on ${NODES}
nodes, ${SLOTS.toLocaleString('en')} slots). Both of its charts are aggregated: the Gantt per node and bucket of slots (one cell per node
and bucket with task-time in it, colour the job with most task-time, opacity the share of the node's lanes busy), the
utilisation as one heatmap per metric. Target: under 2 s per chart.

## Offline (src/charts, as \`fallow plot\` and the API run it), ${values.reps} runs after a warm-up

${table([...off, cold])}

${svc.length ? `## Through the service (GET with a customer key; the API in the benchmark's process, Postgres and Redis local), ${values.plans} plans

${table(svc)}
` : ''}
Spread: min, p90 and max of the runs. The API makes charts on its chart threads (FALLOW_CHART_THREADS), not on its
event loop (bench/CHARTS-LOAD.md); a made chart of a plan is kept, so a page reload does not render again.
`;
  const file = benchFile('CHARTS.md');
  writeFileSync(file, md);
  log(`wrote ${file}`);
  return 0;
}

if (require.main === module) runEntry(COMMAND, main);
