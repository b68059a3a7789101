/**
 * The re-planning experiment (issue 39, part 5): on generated ephemeral instances with node losses and forecast
 * misses (bench/replan/scenario.ts), a plan replayed as it was made (static), the same plan re-planned as the run
 * goes (every N minutes, on kills, on nodes lost or back: src/engine/simulate/closed-loop.ts), and the online
 * policies Hadoop, Cuckoo and POSUM; realised makespan, deadline misses, relaunched tasks, revenue, and the tasks
 * each re-plan moved. Writes bench/results/replan-<date>.json and the generated section of bench/REPLAN.md.
 *
 *   npm run bench:replan -- [--seeds 20] [--first-seed 3901] [--nodes 6] [--jobs 40] [--objectives revenue,tasks-then-makespan]
 *        [--plan-iterations 1000,30000] [--replan-iterations 300,5000] [--every-minutes 30] [--min-gap-seconds 300] [--losses 2]
 *        [--no-early-start] [--oracle] [--policies hadoop,cuckoo,posum] [--no-misses]
 *   npm run bench:replan -- --report bench/results/replan-<date>.json     re-render the section only
 *
 * Every load is generated (the instances' forecast by harness/ephemeral-instance.ts, the actual load from it):
 * no file of ../shared is read.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Objective, OBJECTIVES } from '../src/engine/contracts/strategy';
import { command, EntryArgs, runEntry, UsageError } from './lib/cli';
import { machineInfo } from './lib/machine';
import { generatedLine, writeResultsSection } from './lib/markdown';
import { benchFile, repoRoot } from './lib/paths';
import { resultsFile, writeJson } from './lib/results';
import { renderReport, ReplanResults } from './replan/report';
import { RunSettings, runScenario, ScenarioResult } from './replan/run';
import { scenario, ScenarioOptions } from './replan/scenario';

const COMMAND = command({
  name: 'bench:replan',
  usage: 'usage: npm run bench:replan -- [options]     (writes bench/results/replan-<date>.json and bench/REPLAN.md)',
  options: {
    seeds: { kind: 'integer', min: 1, default: 20, arg: 'N', help: 'generated scenarios (default 20)' },
    'first-seed': { kind: 'integer', min: 1, default: 3901, arg: 'N', help: 'their seeds are N, N+1, ... (default 3901)' },
    nodes: { kind: 'integer', min: 2, default: 6, arg: 'N', help: 'nodes per instance (default 6)' },
    jobs: { kind: 'integer', min: 1, default: 40, arg: 'N', help: 'jobs per instance (default 40)' },
    'max-maps': { kind: 'integer', min: 4, default: 48, arg: 'N', help: 'most maps of a job (default 48)' },
    refine: { kind: 'integer', min: 1, default: 10, arg: 'F', help: "the generator's 300-s slots cut into F (default 10: 30-s slots)" },
    'slack-min': { kind: 'number', above: 0, default: 2, arg: 'X', help: "a job's deadline: release + a draw in [min, max] x its critical path (default 2)" },
    'slack-max': { kind: 'number', above: 0, default: 8, arg: 'X', help: '(default 8)' },
    losses: { kind: 'integer', min: 0, default: 2, arg: 'N', help: 'nodes lost per scenario (default 2)' },
    'loss-window-hours': { kind: 'number', above: 0, default: 3, arg: 'H', help: 'losses fall in the first H/2 hours (default 3)' },
    'lost-for-good': { kind: 'number', min: 0, default: 0.3, arg: 'P', help: 'share of losses for good (default 0.3)' },
    strategy: { kind: 'string', default: 'ls', arg: 'S', help: 'the plans\' strategy (default ls)' },
    objectives: { kind: 'string', default: 'revenue,tasks-then-makespan', arg: 'O,O', help: "the plans' objectives, each a static and a re-planned run: revenue, tasks-then-makespan (default both)" },
    'plan-iterations': { kind: 'string', default: '1000,30000', arg: 'N,N', help: "the first plan's ls iterations, per objective in --objectives' order (default 1000,30000)" },
    'replan-iterations': { kind: 'string', default: '300,5000', arg: 'N,N', help: "each re-plan's ls iterations, likewise (default 300,5000)" },
    'time-cap-ms': { kind: 'number', above: 0, default: 60000, arg: 'N', help: 'no solve runs longer than this (default 60000; the iterations stop them first)' },
    'every-minutes': { kind: 'number', above: 0, default: 30, arg: 'M', help: 'periodic re-plans (default 30)' },
    'min-gap-seconds': { kind: 'number', min: 0, default: 300, arg: 'S', help: 'least time between two re-plans (default 300)' },
    'no-early-start': { kind: 'flag', help: "the re-planned (and oracle) runs keep the plans' starts, and no static+early run (the experiment as first run)" },
    oracle: { kind: 'flag', help: 'also the plan made knowing the actual load and the losses (oracle:*): what a plan can do at best' },
    policies: { kind: 'string', default: 'hadoop,cuckoo,posum', arg: 'P,P', help: 'the online policies (default hadoop,cuckoo,posum; none: no policy)' },
    'no-misses': { kind: 'flag', help: 'the actual load is the forecast: the node losses alone (an ablation)' },
    report: { kind: 'string', arg: 'FILE', help: 'only re-render bench/REPLAN.md from a results file' },
    'no-write': { kind: 'flag', help: 'print the report, write neither the results file nor bench/REPLAN.md (a quick look)' },
  },
});

async function main({ values, argv }: EntryArgs<typeof COMMAND.options>): Promise<number> {
  if (values.report) {
    const res = JSON.parse(readFileSync(values.report, 'utf8')) as ReplanResults;
    writeReport(res, path.relative(repoRoot(), path.resolve(values.report)));
    return 0;
  }
  const objectives = values.objectives.split(',').map((o) => o.trim());
  const bad = objectives.filter((o) => !(OBJECTIVES as readonly string[]).includes(o));
  if (bad.length > 0 || objectives.length === 0) throw new UsageError(`--objectives must list some of ${OBJECTIVES.join(', ')}, got "${values.objectives}"`);
  const counts = (flag: 'plan-iterations' | 'replan-iterations') => {
    const xs = values[flag].split(',').map((x) => Number(x.trim()));
    if (xs.length !== objectives.length || xs.some((x) => !(Number.isInteger(x) && x > 0))) throw new UsageError(`--${flag} must give a positive integer per objective (${objectives.length}), got "${values[flag]}"`);
    return xs;
  };
  const planIterations = counts('plan-iterations');
  const replanIterations = counts('replan-iterations');
  const settings: RunSettings = {
    strategy: values.strategy,
    objectives: objectives as Objective[],
    iterations: Object.fromEntries(objectives.map((o, n) => [o, { plan: planIterations[n], replan: replanIterations[n] }])),
    timeCapMs: values['time-cap-ms'],
    oracle: values.oracle,
    policies: values.policies === 'none' ? [] : values.policies.split(',').map((p) => p.trim()),
    everySeconds: values['every-minutes'] * 60,
    minGapSeconds: values['min-gap-seconds'],
    seed: 1,
    earlyStart: !values['no-early-start'],
  };
  const shape: Omit<ScenarioOptions, 'seed'> = {
    nodes: values.nodes,
    jobs: values.jobs,
    maxMaps: values['max-maps'],
    refine: values.refine,
    deadlineSlack: [values['slack-min'], values['slack-max']],
    losses: values.losses,
    lossWindowSeconds: values['loss-window-hours'] * 3600,
    lostForGood: values['lost-for-good'],
    ...(values['no-misses'] ? { noMisses: true } : {}),
  };
  const seeds = Array.from({ length: values.seeds }, (_, i) => values['first-seed'] + i);
  const started = Date.now();
  const scenarios: ScenarioResult[] = [];
  const log = (line: string) => process.stderr.write(line + '\n');
  for (const seed of seeds) {
    const sc = scenario({ ...shape, seed });
    log(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${sc.doc.name}: lost ${sc.outages.map((o) => `${o.node} ${o.fromSeconds}-${o.toSeconds ?? 'end'} s`).join(', ')}; ${sc.injected.bursts} bursts`);
    scenarios.push(await runScenario(sc, seed, settings, log));
  }
  const date = new Date().toISOString();
  const res: ReplanResults = {
    format: 'fallow.bench.replan/v1',
    date,
    command: argv.length > 0 ? `npm run bench:replan -- ${argv.join(' ')}` : 'npm run bench:replan',
    machine: machineInfo(),
    settings,
    scenario: shape,
    seeds,
    traces: 'No trace of ../shared/data is read: the forecast is the generator\'s diurnal load and the actual load is drawn from it.',
    elapsedSeconds: (Date.now() - started) / 1000,
    scenarios,
  };
  if (values['no-write']) {
    process.stdout.write(renderReport(res, `(not written) ${res.command}`) + '\n');
    return 0;
  }
  const out = writeJson(resultsFile(`replan-${date.slice(0, 10)}.json`), res);
  writeReport(res, path.relative(repoRoot(), out));
  log(`wrote ${out} and bench/REPLAN.md`);
  return 0;
}

function writeReport(res: ReplanResults, resultsPath: string): void {
  const generated = `Generated by ${generatedLine(res.command, 'bench/replan.ts', res.machine, new Date(res.date))} Results: \`${resultsPath}\`.`;
  writeResultsSection(benchFile('REPLAN.md'), renderReport(res, generated), 'results');
}

if (require.main === module) runEntry(COMMAND, main);
