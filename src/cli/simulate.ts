/**
 * `fallow simulate`: replays a plan, or runs an online policy, against the regular customers' actual
 * utilisation and prints the realised metrics as one JSON report (src/engine/simulate).
 *   fallow simulate INSTANCE.json PLAN.json [--actual USAGE.json] [--qos NAME] [--qos-period S] [--seed N] [--reduce-slowstart F]
 *   fallow simulate INSTANCE.json --policy NAME|posum [--provision NAME] [--delta D] [--alpha A --beta B --gamma G] [--actual USAGE.json] [--qos ...] [--seed N] ...
 *   fallow simulate INSTANCE.json PLAN.json --outages OUTAGES.json --replan-every 30 [--replan-on kill,node] [--replan-budget-ms 1000] [--early-start] ...
 */
import { MIN_QOS_PERIOD_SECONDS } from '../engine/simulate/simulator';
import { CommandSpec, parseCommand, UsageError } from './args';
import { readJson } from './input';
import { loadInstance } from '../engine/model/model';
import { PlanDoc } from '../engine/model/types';
import { policyNames } from '../engine/policies';
import { PROVISIONING_NAMES, ProvisioningName } from '../engine/policies/posum/provisioning';
import { PORTFOLIO_DEFAULTS, PortfolioParams, REBUILD_LOOK_AHEAD_SECONDS } from '../engine/policies/posum/params';
import { portfolioFromRequest, PortfolioRequest } from '../engine/policies/posum/request';
import { QOS_NAMES } from '../engine/qos';
import { checkPlanFits, ReplanOptions, runRequestIssues, validateActualUsage, validateOutages, validateRuntimeTruth } from '../engine/simulation';
import { Objective, OBJECTIVES } from '../engine/contracts/strategy';
import { lookupStrategy, strategyNames } from '../engine/strategies';
import { runCliWork } from './progress';

const POLICIES = policyNames();
const P = PORTFOLIO_DEFAULTS;

export const SIMULATE = {
  name: 'simulate',
  synopsis: ['INSTANCE.json PLAN.json [--actual USAGE.json] [options]', 'INSTANCE.json --policy NAME [--actual USAGE.json] [options]'],
  summary: "Replay a plan, or run an online policy, against the regular customers' actual utilisation; prints one JSON report.",
  options: {
    actual: { type: 'string', value: 'USAGE.json', help: "actual utilisation, shaped as an instance's usage (default: the instance's own usage)" },
    qos: { type: 'string', value: 'NAME', help: `QoS controller: ${QOS_NAMES.join(' | ')} (default salamander for a plan, cuckoo for a policy)` },
    'qos-period': { type: 'string', value: 'S', help: 'seconds between the QoS checks of a node, at most the slot length (default 0.1; the slot length: once per slot)' },
    policy: { type: 'string', value: 'NAME', help: `an online policy instead of a plan: ${POLICIES.join(' | ')}` },
    seed: { type: 'string', default: '1', value: 'N', help: 'seed of the simulation' },
    'reduce-slowstart': { type: 'string', default: '1', value: 'F', help: "a stage after others may launch once F of each earlier stage's tasks ended (Hadoop's slow start, in (0, 1])" },
    'true-seconds': { type: 'string', value: 'FILE', help: 'what tasks really take, {job: {stage: seconds per task at speed 1}}, where it differs from the instance' },
    'runtime-sigma': { type: 'string', value: 'S', help: "multiply each task's runtime by a lognormal factor of mean 1 and log-scale spread S (drawn from --seed)" },
    provision: { type: 'string', value: 'NAME', help: `POSUM provisioning with an allocation policy: ${PROVISIONING_NAMES.join(' | ')}` },
    delta: { type: 'string', value: 'D', help: `POSUM: share between deadline and batch jobs, in [0, 1] (default ${P.allocation.delta})` },
    alpha: { type: 'string', value: 'A', help: `POSUM: weight of the score's deadline violations (default ${P.weights.alpha})` },
    beta: { type: 'string', value: 'B', help: `POSUM: weight of the score's bounded slowdown (default ${P.weights.beta})` },
    gamma: { type: 'string', value: 'G', help: `POSUM: weight of the score's cost (default ${P.weights.gamma})` },
    period: { type: 'string', value: 'S', help: `POSUM: seconds between decisions (default ${P.periodSeconds})` },
    'look-ahead': { type: 'string', value: 'S', help: `POSUM: seconds each decision's simulations look ahead (default ${P.lookAheadSeconds}, in practice until the submitted work is done; ${REBUILD_LOOK_AHEAD_SECONDS} with --look-ahead-mode rebuild)` },
    'periodic-only': { type: 'boolean', help: "POSUM: decide every --period only, as the paper (default: also when a job is submitted)" },
    x: { type: 'string', value: 'N', help: `POSUM: nodes plus-x leases and minus-x releases per period (default ${P.provisioning.x})` },
    'max-slowdown': { type: 'string', value: 'F', help: `POSUM: maxbsd's ceiling on the bounded slowdown (default ${P.provisioning.maxBoundedSlowdown})` },
    'ls-member': { type: 'boolean', help: "POSUM: Fallow's ls as a 17th member" },
    quiet: { type: 'boolean', help: 'no progress on stderr' },
    'echo-arrivals': { type: 'boolean', help: "POSUM: the look-ahead also expects the last look-ahead's arrivals to repeat (default with --look-ahead-mode rebuild; otherwise the queue alone, as the paper)" },
    'look-ahead-mode': { type: 'string', value: 'MODE', help: 'POSUM: replay (default: the workload so far again from time 0, reaching the live state exactly) | rebuild (the present as a new instance; the default with --ls-member)' },
    threads: { type: 'string', value: 'N', help: "POSUM (replayed look-ahead): threads sharing each decision's look-ahead, 1 (default) or 2; the same decisions, sooner where a second core is free" },
    outages: { type: 'string', value: 'FILE', help: 'nodes lost for a while: [{"node", "fromSeconds", "toSeconds"?, "returnKnown"?}] (docs/FORMAT.md, Node outages)' },
    'early-start': { type: 'boolean', help: 'a plan only: start a ready task before its planned start where its planned node has a free task slot and room now (default: at the plan\'s starts)' },
    'replan-every': { type: 'string', value: 'MIN', help: 'a plan only: re-plan it as it runs, every MIN minutes (and on --replan-on events)' },
    'replan-on': { type: 'string', value: 'EVENTS', help: 'a plan only: re-plan on kill, node (lost or back), both (default) or none: kill,node | kill | node | none' },
    'replan-budget-ms': { type: 'string', value: 'N', help: 'each re-plan\'s solve budget (default 1000)' },
    'replan-strategy': { type: 'string', value: 'NAME', help: 'each re-plan\'s strategy (default ls)' },
    'replan-objective': { type: 'string', value: 'O', help: 'each re-plan\'s objective: tasks-then-makespan (default) | revenue' },
  },
  notes: [
    'The report: makespan, job execution times, POSUM score, relaunched and remote tasks, bytes moved, deadline misses, revenue, each job (README.md).',
    'Re-planning (any --replan-* flag): the report adds replan.replans, each re-plan with its time, trigger, moved tasks and solve ms.',
  ],
} satisfies CommandSpec;

export async function simulateCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(SIMULATE, args);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`);
  const reduceSlowstart = Number(values['reduce-slowstart']);
  if (!(reduceSlowstart > 0 && reduceSlowstart <= 1)) throw new UsageError(`--reduce-slowstart must be a number in (0, 1], got "${values['reduce-slowstart']}"`);
  if (values.qos !== undefined && !QOS_NAMES.includes(values.qos)) throw new UsageError(`--qos must be one of ${QOS_NAMES.join(', ')}, got "${values.qos}"`);
  const qosPeriodSeconds = values['qos-period'] === undefined ? undefined : Number(values['qos-period']);
  if (qosPeriodSeconds !== undefined && !(qosPeriodSeconds >= MIN_QOS_PERIOD_SECONDS)) throw new UsageError(`--qos-period must be a number of seconds >= ${MIN_QOS_PERIOD_SECONDS}, got "${values['qos-period']}"`);
  if (values.policy !== undefined && !POLICIES.includes(values.policy)) throw new UsageError(`--policy must be one of ${POLICIES.join(', ')}, got "${values.policy}"`);
  if (values.provision !== undefined && values.policy === undefined) throw new UsageError('--provision goes with --policy (a plan leases no nodes)');
  if (values['early-start'] && values.policy !== undefined) throw new UsageError('--early-start changes how a plan is followed: it does not go with --policy');
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && threads !== 1 && threads !== 2) throw new UsageError(`--threads must be 1 or 2, got "${values.threads}"`);
  if (threads !== undefined && values.policy !== 'posum') throw new UsageError('--threads shares POSUM\'s look-aheads: it goes with --policy posum');
  const posum = posumOptions(values, values.policy);
  if (threads === 2 && posum.lookAheadMode !== 'replay') throw new UsageError('--threads 2 shares the replayed look-ahead: it does not go with --look-ahead-mode rebuild or --ls-member');
  if (values.policy === undefined && positionals.length !== 2) throw new UsageError('simulate needs INSTANCE.json and PLAN.json, or INSTANCE.json --policy NAME');
  if (values.policy !== undefined && positionals.length !== 1) throw new UsageError('simulate --policy takes INSTANCE.json only (no plan)');

  const model = loadInstance(readJson(positionals[0]));
  if (qosPeriodSeconds !== undefined && qosPeriodSeconds > model.slotSeconds) throw new UsageError(`--qos-period must be at most the slot length, ${model.slotSeconds} s, got "${values['qos-period']}"`);
  let actual;
  if (values.actual !== undefined) actual = validateActualUsage(model.doc, readJson(values.actual));
  else process.stderr.write("fallow simulate: no --actual given: simulating with the instance's own usage as the actual utilisation (a perfect forecast)\n");
  const sigma = values['runtime-sigma'] === undefined ? undefined : Number(values['runtime-sigma']);
  const runtimeTruth = validateRuntimeTruth(model, values['true-seconds'] === undefined ? undefined : readJson(values['true-seconds']), sigma);
  const outages = values.outages === undefined ? undefined : validateOutages(model, readJson(values.outages));
  const options = { actual, qos: values.qos, qosPeriodSeconds, seed, reduceSlowstart, runtimeTruth, provision: values.provision as ProvisioningName | undefined, posum, ...(outages ? { outages } : {}), ...(values['early-start'] ? { earlyStart: true } : {}), ...(threads ? { lookAheadThreads: threads } : {}) };
  const replan = replanOptions(values, seed);
  if (replan && values.policy !== undefined) throw new UsageError('--replan-* re-plans a plan: it does not go with --policy');
  // The plan is checked here (a plan that does not fit its instance is the user's mistake, named by path).
  const plan = values.policy === undefined ? (readJson(positionals[1]) as PlanDoc) : null;
  if (plan) checkPlanFits(model, plan);
  const report = await runCliWork('simulate', { kind: 'simulate', run: { instance: model.doc, plan, policy: values.policy ?? null, options, ...(replan ? { replan } : {}) } }, values.quiet);
  process.stdout.write(JSON.stringify(report, null, 1) + '\n');
  return 0;
}

/** The --replan-* flags as a closed loop's settings, null when none is given; a UsageError names a bad one. */
function replanOptions(v: Record<string, string | boolean | undefined>, seed: number): Omit<ReplanOptions, 'replanner'> | null {
  const given = ['replan-every', 'replan-on', 'replan-budget-ms', 'replan-strategy', 'replan-objective'].filter((f) => v[f] !== undefined);
  if (given.length === 0) return null;
  const every = v['replan-every'] === undefined ? undefined : Number(v['replan-every']);
  if (every !== undefined && !(every > 0)) throw new UsageError(`--replan-every must be a number of minutes > 0, got "${v['replan-every']}"`);
  const on = String(v['replan-on'] ?? 'kill,node');
  const events = on === 'none' ? [] : on.split(',');
  if (events.some((e) => e !== 'kill' && e !== 'node')) throw new UsageError(`--replan-on must be kill,node, kill, node or none, got "${on}"`);
  const budget = Number(v['replan-budget-ms'] ?? 1000);
  if (!(budget > 0)) throw new UsageError(`--replan-budget-ms must be a number > 0, got "${v['replan-budget-ms']}"`);
  const strategy = String(v['replan-strategy'] ?? 'ls');
  if (!lookupStrategy(strategy)) throw new UsageError(`--replan-strategy must be one of ${strategyNames().join(', ')}, got "${strategy}"`);
  const objective = String(v['replan-objective'] ?? 'tasks-then-makespan');
  if (!(OBJECTIVES as readonly string[]).includes(objective)) throw new UsageError(`--replan-objective must be one of ${OBJECTIVES.join(', ')}, got "${objective}"`);
  return {
    ...(every !== undefined ? { everySeconds: every * 60 } : {}),
    onKill: events.includes('kill'),
    onNodeLost: events.includes('node'),
    timeBudgetMs: budget,
    strategy,
    objective: objective as Objective,
    seed,
  };
}

/** The flag each field of a POSUM request comes from (engine/policies/posum/request.ts names fields). */
const POSUM_FLAGS: Record<string, string> = {
  provision: 'provision',
  delta: 'delta',
  alpha: 'alpha',
  beta: 'beta',
  gamma: 'gamma',
  periodSeconds: 'period',
  lookAheadSeconds: 'look-ahead',
  x: 'x',
  maxBoundedSlowdown: 'max-slowdown',
  lookAheadMode: 'look-ahead-mode',
};

/** POSUM's flags as parameters; a UsageError names the first bad one. */
function posumOptions(v: Record<string, string | boolean | undefined>, policy: string | undefined): PortfolioParams {
  const request: PortfolioRequest = {
    ...(v['ls-member'] ? { lsMember: true } : {}),
    ...(v['echo-arrivals'] ? { echoArrivals: true } : {}),
    ...(v['periodic-only'] ? { decideOnArrival: false } : {}),
  };
  for (const [field, flag] of Object.entries(POSUM_FLAGS)) {
    const raw = v[flag];
    if (raw !== undefined) (request as Record<string, unknown>)[field] = field === 'provision' || field === 'lookAheadMode' ? raw : Number(raw);
  }
  const [bad] = runRequestIssues(policy, request);
  if (bad) throw new UsageError(`--${POSUM_FLAGS[bad.path]} ${bad.message.replace(/, got .*$/, '')}, got "${v[POSUM_FLAGS[bad.path]]}"`);
  return portfolioFromRequest(request);
}
