/**
 * `fallow solve` and `fallow check`: a `fallow.instance/v1` file in, a `fallow.plan/v1` out, and the
 * evaluator's verdict on a plan (docs/FORMAT.md), with no database or Redis.
 */
import { writeFileSync } from 'node:fs';
import { CommandSpec, parseCommand, UsageError } from './args';
import { readJson } from './input';
import { evaluatePlan } from '../engine/evaluate/evaluate';
import { loadInstance } from '../engine/model/model';
import type { SolveOutcome } from '../engine/solve';
import { InstanceDoc, TRANSFERS_PRICED } from '../engine/model/types';
import { CLI_WORK_THREAD, runWithProgress } from './progress';
import type { CliWork } from './work.thread';
import { hardStopAfterMs } from '../work/solve-limits';
import { DEFAULT_TIME_BUDGET_MS } from '../engine/budget/budget';
import { strategyNames } from '../engine/strategies';
import { Objective, OBJECTIVES, TRANSFERS_OPTIONS, TransfersOption } from '../engine/contracts/strategy';
import { FcWeights, resolveScoreWeights } from '../engine/evaluate/posum-score';
import { previousOf } from '../engine/replan/previous';

/** A re-plan's default budget (issue 39: a running plan is re-planned within 2 s). */
const REPLAN_TIME_BUDGET_MS = 2000;

export const SOLVE = {
  name: 'solve',
  synopsis: ['INSTANCE.json [options] > plan.json'],
  summary: 'Solve an instance (fallow.instance/v1, docs/FORMAT.md) within a time budget; the plan goes to stdout, progress to stderr.',
  options: {
    strategy: { type: 'string', default: 'auto', value: 'NAME', help: `one of ${strategyNames().join(', ')}` },
    objective: { type: 'string', default: 'tasks-then-makespan', value: 'NAME', help: OBJECTIVES.join(' | ') },
    'budget-ms': { type: 'string', value: 'MS', help: `time budget in milliseconds (default ${DEFAULT_TIME_BUDGET_MS}; with --previous ${REPLAN_TIME_BUDGET_MS})` },
    seed: { type: 'string', default: '1', value: 'N', help: 'seed of the random stream' },
    iterations: { type: 'string', value: 'N', help: 'stop after N iterations (the same plan for the same seed)' },
    alpha: { type: 'string', value: 'A', help: "strategy portfolio: weight of V_D in POSUM's Eq. 5 (default 1)" },
    beta: { type: 'string', value: 'B', help: 'strategy portfolio: weight of S_B (default 1)' },
    gamma: { type: 'string', value: 'G', help: 'strategy portfolio: weight of C (default 1)' },
    transfers: {
      type: 'string',
      default: 'priced',
      value: 'HOW',
      help: `${TRANSFERS_OPTIONS.join(' | ')}: the plan prices each task's fetch over the network (docs/FORMAT.md) or counts compute alone; matters only when data can move (a rate, and blocks or outputMB to move)`,
    },
    'shuffle-aware': { type: 'boolean', help: "then place each reduce where its share of the map output arrives first over the nodes' links (bandwidthMbps); with --transfers ignored (a priced plan has none to move)" },
    previous: {
      type: 'string',
      value: 'PLAN',
      help: "re-plan: the plan being replaced (fallow.plan/v1), kept where the objective does not get worse; the instance's frozen tasks stay (docs/FORMAT.md, Frozen assignments)",
    },
    out: { type: 'string', value: 'FILE', help: 'write the plan to FILE instead of stdout' },
    quiet: { type: 'boolean', help: 'no progress or summary on stderr' },
  },
} satisfies CommandSpec;

/** --alpha/--beta/--gamma: POSUM's weights for strategy portfolio (checked like the API's); undefined for the others. */
function scoreWeightsOf(values: { strategy: string; alpha?: string; beta?: string; gamma?: string }): FcWeights | undefined {
  const num = (v?: string) => (v === undefined ? undefined : Number(v));
  const { weights, issues } = resolveScoreWeights(values.strategy, { alpha: num(values.alpha), beta: num(values.beta), gamma: num(values.gamma) });
  if (issues.length) throw new UsageError(issues.map((i) => `--${i.path} ${i.message}`).join('; '));
  return weights ?? undefined;
}

export const CHECK = {
  name: 'check',
  synopsis: ['INSTANCE.json PLAN.json [--json]'],
  summary: "Check a plan against its instance with Fallow's evaluator: feasibility, the plan's reported figures, PRU, JCR, revenue.",
  options: { json: { type: 'boolean', help: 'print {ok, transfersPriced, violations, kpis} as JSON' } },
  notes: [
    'Exit 0 when the plan is feasible and reports itself truly, 1 when not (the violations are listed).',
    'transfersPriced: whether the plan says "transfers": "priced" (each task then holds its node through its fetchSlots and its compute), as check-plan.py reports it.',
  ],
} satisfies CommandSpec;

export async function solveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(SOLVE, args);
  if (positionals.length !== 1) throw new UsageError('solve needs exactly one INSTANCE.json');
  const budget = Number(values['budget-ms'] ?? (values.previous !== undefined ? REPLAN_TIME_BUDGET_MS : DEFAULT_TIME_BUDGET_MS));
  const seed = Number(values.seed);
  const iterations = values.iterations === undefined ? undefined : Number(values.iterations);
  const objective = values.objective as Objective;
  if (!OBJECTIVES.includes(objective)) throw new UsageError(`--objective must be one of ${OBJECTIVES.join(', ')}, got "${values.objective}"`);
  const transfers = values.transfers as TransfersOption;
  if (!TRANSFERS_OPTIONS.includes(transfers)) throw new UsageError(`--transfers must be one of ${TRANSFERS_OPTIONS.join(', ')}, got "${values.transfers}"`);
  if (!(budget > 0)) throw new UsageError(`--budget-ms must be a positive number, got "${values['budget-ms']}"`);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`);
  if (iterations !== undefined && !(Number.isInteger(iterations) && iterations > 0))
    throw new UsageError(`--iterations must be a positive integer, got "${values.iterations}"`);
  const doc = readJson(positionals[0]);
  const model = loadInstance(doc); // a bad instance is a usage error here, before the thread starts
  const previous = values.previous === undefined ? undefined : readJson(values.previous);
  if (previous !== undefined) previousOf(model, previous); // likewise a malformed previous plan
  if (!strategyNames().includes(values.strategy)) throw new UsageError(`--strategy must be one of ${strategyNames().join(', ')}, got "${values.strategy}"`);
  const scoreWeights = scoreWeightsOf(values);
  // The search runs on a thread so that this one can redraw the progress every quarter second and stop
  // the search on Ctrl-C, keeping the best plan so far.
  const { plan } = await runWithProgress<CliWork, SolveOutcome>({
    file: CLI_WORK_THREAD,
    input: { kind: 'solve', input: { instance: doc as InstanceDoc, strategy: values.strategy, objective, timeBudgetMs: budget, seed, maxIterations: iterations, scoreWeights, shuffleAware: values['shuffle-aware'], transfers, previous } },
    label: `solve ${values.strategy}`,
    budgetMs: budget,
    hardStopAfterMs: hardStopAfterMs(budget),
    quiet: values.quiet,
  });
  const text = JSON.stringify(plan, null, 1) + '\n';
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
  if (!values.quiet)
    process.stderr.write(
      `scheduled ${plan.objective.scheduledTasks}/${model.nTasks} tasks, makespan ${plan.objective.makespanSlots}, ` +
        `bound ${plan.bound?.makespanSlots}, gap ${((plan.gap ?? 0) * 100).toFixed(2)}%${plan.optimal ? ' (optimal)' : ''}` +
        (plan.objective.revenue === undefined ? '' : `, revenue ${plan.objective.revenue} (bound ${plan.bound?.revenue})`) +
        replanSummary(plan.stats?.replan) +
        '\n',
    );
  return 0;
}

export function checkCommand(args: string[]): number {
  const { values, positionals } = parseCommand(CHECK, args);
  if (positionals.length !== 2) throw new UsageError('check needs INSTANCE.json and PLAN.json');
  const model = loadInstance(readJson(positionals[0]));
  const plan = readJson(positionals[1]);
  const result = evaluatePlan(model, plan);
  // check-plan.py's transfersPriced: the plan says "transfers": "priced" (any other value prices nothing).
  const transfersPriced = typeof plan === 'object' && plan !== null && (plan as { transfers?: unknown }).transfers === TRANSFERS_PRICED;
  if (values.json) {
    process.stdout.write(JSON.stringify({ ok: result.ok, transfersPriced, violations: result.violations, kpis: result.kpis }, null, 1) + '\n');
  } else {
    const k = result.kpis;
    process.stdout.write(
      `${result.ok ? 'FEASIBLE' : 'INFEASIBLE'} scheduledTasks=${k.scheduledTasks}/${k.totalTasks} makespanSlots=${k.makespanSlots} ` +
        `rejectedJobs=${k.rejectedJobs} revenue=${k.revenue} onTimeJobs=${k.onTimeJobs} ` +
        `PRU=${k.pru.toFixed(4)} JCR=${k.jcr.toFixed(4)}` +
        (k.remoteTasks === null ? '' : ` remoteTasks=${k.remoteTasks}`) +
        ` transfersPriced=${transfersPriced}\n`,
    );
    for (const v of result.violations.slice(0, 50)) process.stdout.write(`  - ${v}\n`);
    if (result.violationCount > 50) process.stdout.write(`  ... ${result.violationCount} violations in all\n`);
  }
  return result.ok ? 0 : 1;
}

/** A re-plan's line end: what it kept and moved of the previous plan. */
function replanSummary(replan: unknown): string {
  if (!replan) return '';
  const r = replan as { nowSlot: number; frozenTasks: number; previous: boolean; movedTasks: number; keptTasks: number; newTasks: number; droppedTasks: number };
  return `; re-planned from slot ${r.nowSlot}, ${r.frozenTasks} frozen` + (r.previous ? `, ${r.movedTasks} moved, ${r.keptTasks} kept, ${r.newTasks} new, ${r.droppedTasks} dropped` : '');
}
