#!/usr/bin/env node
/**
 * Offline command line: solves and checks `fallow.instance/v1` files with no database or Redis.
 *   fallow solve INSTANCE.json [--strategy auto] [--objective tasks-then-makespan|revenue] [--budget-ms 5000] [--seed 1] [--iterations N] [--out FILE]
 *   fallow check INSTANCE.json PLAN.json [--json]
 *   (the benchmark is not part of the CLI: `npm run bench -- [options]` in the repository, see bench/README.md)
 *   fallow forecast HISTORY.csv ... / fallow forecast-eval TRACES ...   (usage forecasts, see forecast-cli.ts)
 *   fallow simulate INSTANCE.json [PLAN.json | --policy NAME] [--actual USAGE.json] ...   (see simulate-cli.ts)
 *   fallow predict-eval [--alibaba FILE] [--swim FILE] [--json]   (runtime predictors' accuracy, see predict-eval-cli.ts)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { evaluatePlan } from './engine/evaluate/evaluate';
import { ValidationError } from './engine/model/errors';
import { loadInstance } from './engine/model/model';
import { solve } from './engine/solve';
import { FORECAST_USAGE, forecastMain } from './forecast-cli';
import { SIMULATE_USAGE, simulateCommand } from './simulate-cli';
import { PREDICT_EVAL_USAGE, predictEvalCommand } from './predict-eval-cli';
import { PLOT_USAGE, plotCommand } from './plot-cli';
import { strategyNames } from './engine/strategies';
import { Objective, OBJECTIVES } from './engine/strategies/strategy';

const USAGE = `usage:
  fallow solve INSTANCE.json [--strategy NAME] [--objective ${OBJECTIVES.join('|')}] [--budget-ms MS] [--seed N] [--iterations N] [--out FILE] [--quiet]
  fallow check INSTANCE.json PLAN.json [--json]
${FORECAST_USAGE}
${SIMULATE_USAGE}
${PREDICT_EVAL_USAGE}
${PLOT_USAGE}
strategies: ${strategyNames().join(', ')}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'solve') return solveCommand(rest);
  if (command === 'check') return checkCommand(rest);
  if (command === 'forecast' || command === 'forecast-eval') return forecastMain(command, rest);
  if (command === 'simulate') return simulateCommand(rest);
  if (command === 'predict-eval') return predictEvalCommand(rest);
  if (command === 'plot') return plotCommand(rest);
  if (command === 'bench') {
    // The benchmark is its own entry point (bench/run.ts); src/ never imports bench/.
    process.stderr.write('fallow: the benchmark is not part of the CLI; run it from the repository with `npm run bench -- ...`\n');
    return 2;
  }
  process.stderr.write(USAGE + '\n');
  return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
}

async function solveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      strategy: { type: 'string', default: 'auto' },
      objective: { type: 'string', default: 'tasks-then-makespan' },
      'budget-ms': { type: 'string', default: '5000' },
      seed: { type: 'string', default: '1' },
      iterations: { type: 'string' },
      out: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) return usage('solve needs exactly one INSTANCE.json');
  const budget = Number(values['budget-ms']);
  const seed = Number(values.seed);
  const iterations = values.iterations === undefined ? undefined : Number(values.iterations);
  const objective = values.objective as Objective;
  if (!OBJECTIVES.includes(objective)) return usage(`--objective must be one of ${OBJECTIVES.join(', ')}, got "${values.objective}"`);
  if (!(budget > 0)) return usage(`--budget-ms must be a positive number, got "${values['budget-ms']}"`);
  if (!Number.isInteger(seed)) return usage(`--seed must be an integer, got "${values.seed}"`);
  if (iterations !== undefined && !(Number.isInteger(iterations) && iterations > 0))
    return usage(`--iterations must be a positive integer, got "${values.iterations}"`);
  const model = loadInstance(readJson(positionals[0]));
  const plan = await solve(model, {
    strategy: values.strategy,
    objective,
    timeBudgetMs: budget,
    seed,
    maxIterations: iterations,
    onProgress: values.quiet
      ? undefined
      : (p) =>
          process.stderr.write(
            `[${p.strategy}] ${p.elapsedMs} ms  iterations ${p.iterations}  tasks ${p.scheduledTasks}  makespan ${p.makespanSlots}\n`,
          ),
  });
  const text = JSON.stringify(plan, null, 1) + '\n';
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
  if (!values.quiet)
    process.stderr.write(
      `scheduled ${plan.objective.scheduledTasks}/${model.nTasks} tasks, makespan ${plan.objective.makespanSlots}, ` +
        `bound ${plan.bound?.makespanSlots}, gap ${((plan.gap ?? 0) * 100).toFixed(2)}%${plan.optimal ? ' (optimal)' : ''}` +
        (plan.objective.revenue === undefined ? '' : `, revenue ${plan.objective.revenue} (bound ${plan.bound?.revenue})`) +
        '\n',
    );
  return 0;
}

function checkCommand(args: string[]): number {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  if (positionals.length !== 2) return usage('check needs INSTANCE.json and PLAN.json');
  const model = loadInstance(readJson(positionals[0]));
  const result = evaluatePlan(model, readJson(positionals[1]));
  if (values.json) {
    process.stdout.write(JSON.stringify({ ok: result.ok, violations: result.violations, kpis: result.kpis }, null, 1) + '\n');
  } else {
    const k = result.kpis;
    process.stdout.write(
      `${result.ok ? 'FEASIBLE' : 'INFEASIBLE'} scheduledTasks=${k.scheduledTasks}/${k.totalTasks} makespanSlots=${k.makespanSlots} ` +
        `rejectedJobs=${k.rejectedJobs} revenue=${k.revenue} onTimeJobs=${k.onTimeJobs} ` +
        `PRU=${k.pru.toFixed(4)} JCR=${k.jcr.toFixed(4)}` +
        (k.remoteTasks === null ? '' : ` remoteTasks=${k.remoteTasks}`) +
        '\n',
    );
    for (const v of result.violations.slice(0, 50)) process.stdout.write(`  - ${v}\n`);
    if (result.violationCount > 50) process.stdout.write(`  ... ${result.violationCount} violations in all\n`);
  }
  return result.ok ? 0 : 1;
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
}

class CliError extends Error {}

function usage(message: string): number {
  process.stderr.write(`fallow: ${message}\n${USAGE}\n`);
  return 2;
}

/**
 * process.exit() drops whatever a pipe has not taken yet (a plan piped into `jq` was cut at 128 KiB), so
 * exit only once stdout and stderr have flushed everything written before.
 */
function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(
  (code) => exitAfterFlush(code),
  (e) => {
    if (e instanceof ValidationError) {
      process.stderr.write(`fallow: ${e.what} is not valid:\n`);
      for (const i of e.issues) process.stderr.write(`  ${i.path}: ${i.message}\n`);
    } else if (e instanceof CliError) process.stderr.write(`fallow: ${e.message}\n`);
    else process.stderr.write(`fallow: ${(e as Error).stack ?? e}\n`);
    exitAfterFlush(2);
  },
);
