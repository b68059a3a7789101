/**
 * The online entry point, the twin of solve.ts: replay a plan (with a QoS controller) or run an online policy
 * (policies/index.ts, by name) against the regular customers' *actual* utilisation in the simulator
 * (simulate/), and get the realised metrics (simulate/run-report.ts). `simulate` makes the plan-or-policy choice.
 * `simulateReplanning` replays a plan closed-loop, re-planned by solve() as the run goes (simulate/closed-loop.ts).
 */
import path from 'node:path';
import type { SolveOptions } from './contracts/strategy';
import { ValidationError } from './model/errors';
import { loadInstance, Model } from './model/model';
import { InstanceDoc, Issue, PlanDoc } from './model/types';
import { evaluatePlan } from './evaluate/evaluate';
import { fc } from './evaluate/posum-score';
import { getPolicy, lookupPolicy } from './policies';
import { portfolioParams, PortfolioParams } from './policies/posum/params';
import { Decision, PortfolioPolicy } from './policies/posum/posum-policy';
import type { LookAheadPeer } from './policies/posum/look-ahead-peer';
import { runInThread, ThreadRun } from './threads/run-in-thread';
import { ProvisioningName, ProvisioningPolicy } from './policies/posum/provisioning';
import { portfolioRequestIssues } from './policies/posum/request';
import { getQos } from './qos';
import { lookupStrategy } from './strategies';
import type { RunReport } from './simulate/run-report';
import { PlanDriver } from './simulate/plan-driver';
import { RuntimeTruth, Simulator } from './simulate/simulator';
import { ActualUsage, UsageDoc } from './simulate/usage';
import { PLAN_REPLAY_QOS, POLICY_RUN_QOS } from './simulate/defaults';
import type { SimOptions } from './simulate/driver';
import { nodeOutages, Outage, validateOutages } from './simulate/outages';
import { ClosedLoopResult, Replanner, ReplanLoopOptions, runClosedLoop } from './simulate/closed-loop';
import { solve } from './solve';

/**
 * What a run reports: the kernel's (RunReport) and, for a policy, F_c of its score, the provisioning policy and
 * what the policy adds itself (PolicyRun.report: POSUM's decisions). It names POSUM's decisions, so it lives
 * with the entry points, not in the kernel.
 */
export type SimReport = RunReport & {
  /** Policies: F_c (Eq. 5) of the score against (0, 0, 0) with the run's alpha, beta, gamma. */
  fc?: number;
  /** Policies: the provisioning policy that leased nodes (posum: its members'), null for none. */
  provisioning?: string | null;
  /** POSUM: every decision (time, each member's score and distance to the ideal point, the choice). */
  decisions?: Decision[];
  /**
   * POSUM with `lookAheadThreads` 2: how many decisions the second thread simulated half of, and whether this thread
   * gave it up (it failed or fell silent; the rest were simulated here, the decisions the same either way).
   */
  lookAheadThreads?: { threads: number; sharedDecisions: number; gaveUp: boolean };
};

export interface SimulateOptions {
  /** The actual utilisation (shape of `usage`); default the instance's own usage (a perfect forecast). */
  actual?: UsageDoc;
  /** 'salamander' (default for plans), 'cuckoo' (default for policies), 'cuckoo-salamander-reading' or 'none' (QOS_NAMES). */
  qos?: string;
  /** Seconds between the QoS controller's checks, in (0, slotSeconds]: default 0.1; the slot length gives the per-slot controller (SimOptions). */
  qosPeriodSeconds?: number;
  seed?: number;
  /** Give up after this many window lengths of simulated time (default 10). */
  maxWindows?: number;
  /** Share of a stage's predecessor tasks that must end before it may launch and start fetching (Hadoop's slow start); default 1, the strict barrier. */
  reduceSlowstart?: number;
  /** What tasks really take, when not what the instance says (true per-stage seconds, lognormal noise). */
  runtimeTruth?: RuntimeTruth;
  /** A provisioning policy leasing the instance's `lease` nodes (POSUM's plus-x, minus-x, dlx, maxbsd); policies only. */
  provision?: ProvisioningName;
  /** POSUM's parameters: delta, the periods, the look-ahead, alpha/beta/gamma (policy posum and its members). */
  posum?: Partial<PortfolioParams>;
  /**
   * Nodes lost for a while, part of the actual-usage input (simulate/outages.ts, docs/FORMAT.md Node outages):
   * what runs there is killed and relaunched, nothing starts there meanwhile. Checked (ValidationError naming
   * `outages[i].field`).
   */
  outages?: Outage[];
  /**
   * Plans only (static and closed-loop replays): start a ready task before its planned start when its planned node
   * has a free task slot and room for it now (PlanDriverOptions.earlyStart). Default false: the plan's starts.
   */
  earlyStart?: boolean;
  /**
   * Policy posum with its replayed look-ahead (the default): threads that share each decision's look-ahead, 1 (the
   * default) or 2. With 2, a second thread runs the same run and simulates half of every decision's members
   * (policies/posum/look-ahead-peer.ts): the same decisions and report, sooner where a second core is free (1.1-1.6x
   * on a shared 2-vCPU machine, bench/POSUM.md).
   */
  lookAheadThreads?: number;
}

/** The settings every run shares, from the options (the outages checked against the model). */
function simOptions(model: Model, options: SimulateOptions, qos: string): SimOptions {
  return {
    qos: getQos(options.qos ?? qos),
    qosPeriodSeconds: options.qosPeriodSeconds,
    seed: options.seed,
    maxWindows: options.maxWindows,
    reduceSlowstart: options.reduceSlowstart,
    runtimeTruth: options.runtimeTruth,
    ...(options.outages !== undefined ? { outages: nodeOutages(model, validateOutages(model, options.outages)) } : {}),
  };
}

/** POSUM's parameters with the defaults filled in (policies/posum/params.ts: the one place that fills them). */
export { portfolioParams };

/** A ValidationError (its first 20 violations) unless the plan passes the evaluator against the instance. */
export function checkPlanFits(model: Model, plan: PlanDoc): void {
  const check = evaluatePlan(model, plan);
  if (!check.ok)
    throw new ValidationError(
      'plan',
      check.violations.slice(0, 20).map((v) => ({ path: 'plan', message: v })),
    );
}

/** Replays a plan; the plan must pass the evaluator against the instance (it was made for it). */
export function simulatePlan(model: Model, plan: PlanDoc, options: SimulateOptions = {}): SimReport {
  checkPlanFits(model, plan);
  const driver = new PlanDriver(model, plan, { earlyStart: options.earlyStart });
  return new Simulator(model, new ActualUsage(model, options.actual ?? model.doc.usage), driver, simOptions(model, options, PLAN_REPLAY_QOS)).run();
}

/** How a closed-loop replay re-plans: when (ReplanLoopOptions), and with what (a replanner, or solve() with these settings). */
export interface ReplanOptions extends ReplanLoopOptions {
  /** Makes each new plan; default solveReplanner() with the settings below. */
  replanner?: Replanner;
  /** The default replanner's solve: strategy (default ls), budget (timeBudgetMs or maxIterations), seed and objective. */
  strategy?: string;
  timeBudgetMs?: number;
  maxIterations?: number;
  seed?: number;
  objective?: SolveOptions['objective'];
}

/** A closed-loop replay's report: the run's metrics and every re-plan (when, why, what moved, how long it took). */
export type ReplanReport = SimReport & { replan: Omit<ClosedLoopResult, 'report'> };

/**
 * The default replanner: the engine's solve() on the state's instance (its started tasks frozen), with the plan
 * the run followed as `previous` (the engine keeps tasks where they were unless moving them pays; the plan's
 * stats.replan counts the moves).
 */
export function solveReplanner(o: Pick<ReplanOptions, 'strategy' | 'timeBudgetMs' | 'maxIterations' | 'seed' | 'objective'> = {}): Replanner {
  return (state) => {
    const options: SolveOptions = {
      strategy: o.strategy ?? 'ls',
      ...(o.maxIterations !== undefined ? { maxIterations: o.maxIterations } : {}),
      ...(o.timeBudgetMs !== undefined || o.maxIterations === undefined ? { timeBudgetMs: o.timeBudgetMs ?? 1000 } : {}),
      seed: o.seed ?? 1,
      ...(o.objective !== undefined ? { objective: o.objective } : {}),
      previous: state.previous,
    };
    return solve(loadInstance(state.instance), options);
  };
}

/**
 * Replays a plan closed-loop (issue 39): at each kill, node lost or back, and every `replan.everySeconds`, the
 * run's state goes to the replanner and the replay follows the new plan (simulate/closed-loop.ts). The plan must
 * pass the evaluator against the instance, as for simulatePlan.
 */
export async function simulateReplanning(model: Model, plan: PlanDoc, options: SimulateOptions & { replan: ReplanOptions }): Promise<ReplanReport> {
  checkPlanFits(model, plan);
  const { replan } = options;
  const replanner = replan.replanner ?? solveReplanner(replan);
  const { report, ...rest } = await runClosedLoop(model, new ActualUsage(model, options.actual ?? model.doc.usage), plan, simOptions(model, options, PLAN_REPLAY_QOS), replan, replanner, { earlyStart: options.earlyStart });
  return { ...report, replan: rest };
}

/**
 * Runs an online policy (policyNames(): the baselines, POSUM's allocation policies, and `posum`, its
 * portfolio) against the actual utilisation; with `provision`, a provisioning policy leases the instance's
 * `lease` nodes meanwhile (unless the policy provisions itself, as posum does). The report carries F_c of its
 * score against (0, 0, 0) with the weights given, and the policy's own trail (posum: its decisions).
 */
export function simulatePolicy(model: Model, policy: string, options: SimulateOptions = {}, peerBuffer?: SharedArrayBuffer): SimReport {
  const params = portfolioParams(options.posum);
  const run = getPolicy(policy).create({ model, posum: params, strategy: lookupStrategy });
  const provisioner = run.provisioner ?? (options.provision ? new ProvisioningPolicy(model, options.provision, params.provisioning) : undefined);
  const second = peerBuffer ? null : lookAheadThread(model, policy, options, run.driver);
  const peer = peerBuffer ? shareLookAheads(run.driver, 1, peerBuffer) : (second?.peer ?? null);
  let report: RunReport;
  try {
    report = new Simulator(model, new ActualUsage(model, options.actual ?? model.doc.usage), run.driver, { ...simOptions(model, options, POLICY_RUN_QOS), provisioner }).run();
  } finally {
    peer?.leave();
    second?.thread.kill();
  }
  return {
    ...(second ? { lookAheadThreads: { threads: 2, sharedDecisions: second.peer.shared, gaveUp: second.peer.isAlone } } : {}),
    ...report,
    provisioning: run.provisioner ? run.provisioner.name : (options.provision ?? null),
    fc: Math.round(fc(report.score, { vd: 0, sb: 0, c: 0 }, params.weights) * 1e4) / 1e4,
    ...run.report?.(),
  };
}

/** What the second thread of a run that shares POSUM's look-aheads is given: the same run, and the two sides' memory (it is side 1). */
export interface LookAheadThreadInput {
  doc: InstanceDoc;
  policy: string;
  options: SimulateOptions;
  buffer: SharedArrayBuffer;
}

/** That thread's entry, compiled next to this file. */
const LOOK_AHEAD_THREAD = path.join(__dirname, 'look-ahead-thread.js');

/**
 * With `lookAheadThreads` 2 and POSUM's replayed look-ahead, the second thread started on the same run
 * (look-ahead-thread.ts) and this thread's side (0) of the two that share the look-aheads; null otherwise. The
 * caller ends the thread with its run (it has left by then, or been given up: LookAheadPeer).
 */
function lookAheadThread(model: Model, policy: string, options: SimulateOptions, driver: unknown): { peer: LookAheadPeer; thread: ThreadRun<null> } | null {
  const threads = options.lookAheadThreads ?? 1;
  if (threads !== 1 && threads !== 2) throw new Error(`lookAheadThreads must be 1 or 2, got ${threads}`);
  if (threads === 1 || !(driver instanceof PortfolioPolicy) || !driver.sharesLookAheads) return null;
  const buffer = new SharedArrayBuffer(driver.lookAheadBytes);
  const input: LookAheadThreadInput = { doc: model.doc, policy, options: { ...options, lookAheadThreads: 1 }, buffer };
  const thread = runInThread<LookAheadThreadInput, never, null>(LOOK_AHEAD_THREAD, input);
  // A thread that fails leaves (its side of simulatePolicy) or falls silent: this side then goes on alone.
  thread.result.catch(() => undefined);
  return { peer: shareLookAheads(driver, 0, buffer), thread };
}

function shareLookAheads(driver: unknown, side: 0 | 1, buffer: SharedArrayBuffer): LookAheadPeer {
  if (!(driver instanceof PortfolioPolicy)) throw new Error('only POSUM shares its look-aheads');
  return driver.shareLookAheads(side, buffer);
}

/**
 * Every bad field of a run's request (the API's JSON fields, the CLI's flags as fields), all at once: the
 * policy's own parameters check (Policy.issues) where it has one, else the options every run takes (the
 * provisioning policy, the score's weights and POSUM's parameters, which every policy run accepts and a plan
 * replay reads the weights of). An unknown policy name is the caller's to report (it knows the field).
 */
export function runRequestIssues(policy: string | null | undefined, request: object): Issue[] {
  const fields = request as Readonly<Record<string, unknown>>;
  const own = policy != null ? lookupPolicy(policy)?.issues : undefined;
  return own ? own(fields) : portfolioRequestIssues(fields);
}

/**
 * What to simulate: an online policy by name, or else the plan to replay. The policy decides: a plan that is
 * `null` (a plan file holding null) is still a plan, refused by the plan's check, never a policy run.
 */
export interface SimulationSubject {
  policy?: string | null;
  plan?: PlanDoc | null;
}

/** The one plan-or-policy choice, for every caller (the CLI and the worker, through src/work/simulate.ts). */
export function simulate(model: Model, subject: SimulationSubject, options: SimulateOptions = {}): SimReport {
  return subject.policy != null ? simulatePolicy(model, subject.policy, options) : simulatePlan(model, subject.plan as PlanDoc, options);
}

export type { JobRun, RunReport } from './simulate/run-report';
export type { RuntimeTruth } from './simulate/simulator';
export { validateActualUsage } from './simulate/usage';
export { validateOutages } from './simulate/outages';
export type { Outage } from './simulate/outages';
export type { ClosedLoopResult, Replanner, ReplanLoopOptions, ReplanRecord } from './simulate/closed-loop';
export type { LostNode, ReplanState, ReplanTrigger } from './simulate/replan-state';
export type { UsageDoc } from './simulate/usage';
export { validateRuntimeTruth } from './simulate/truth';
