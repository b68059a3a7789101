/**
 * The simulator's entry points: replay a plan (with a QoS controller) or run an online policy against the
 * regular customers' *actual* utilisation, and get the realised metrics (metrics.ts).
 */
import { ValidationError } from '../model/errors';
import { Model } from '../model/model';
import { PlanDoc } from '../model/types';
import { evaluatePlan } from '../evaluate/evaluate';
import { makePolicy } from '../policies';
import { getQos } from '../qos';
import { SimReport } from './metrics';
import { PlanDriver } from './plan-driver';
import { RuntimeTruth, Simulator } from './simulator';
import { lookAheadSettings, PORTFOLIO_DEFAULTS, PortfolioParams, PortfolioPolicy } from '../posum/portfolio';
import { fc } from '../posum/score';
import { POSUM_ALLOCATIONS, PosumAllocation, PosumAllocationPolicy } from '../policies/posum-allocation';
import { ProvisioningName, ProvisioningPolicy } from '../policies/provisioning';
import { ActualUsage, UsageDoc } from './usage';
import { PLAN_REPLAY_QOS, POLICY_RUN_QOS } from './defaults';

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
}

/** POSUM's parameters with the defaults filled in. */
export function portfolioParams(p: Partial<PortfolioParams> = {}): PortfolioParams {
  return {
    ...PORTFOLIO_DEFAULTS,
    ...p,
    ...lookAheadSettings(p),
    weights: { ...PORTFOLIO_DEFAULTS.weights, ...p.weights },
    allocation: { ...PORTFOLIO_DEFAULTS.allocation, ...p.allocation },
    provisioning: { ...PORTFOLIO_DEFAULTS.provisioning, ...p.provisioning },
  };
}

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
  const driver = new PlanDriver(model, plan);
  return new Simulator(model, new ActualUsage(model, options.actual ?? model.doc.usage), driver, {
    qos: getQos(options.qos ?? PLAN_REPLAY_QOS),
    qosPeriodSeconds: options.qosPeriodSeconds,
    seed: options.seed,
    maxWindows: options.maxWindows,
    reduceSlowstart: options.reduceSlowstart,
    runtimeTruth: options.runtimeTruth,
  }).run();
}

/**
 * Runs an online policy (POLICY_NAMES, or `posum`: the portfolio of src/engine/posum) against the actual
 * utilisation; with `provision`, a provisioning policy leases the instance's `lease` nodes meanwhile. The
 * report carries F_c of its score against (0, 0, 0) with the weights given, and POSUM's decision trail.
 */
export function simulatePolicy(model: Model, policy: string, options: SimulateOptions = {}): SimReport {
  const params = portfolioParams(options.posum);
  const portfolio = policy === 'posum' ? new PortfolioPolicy(model, params) : null;
  const driver = portfolio ?? (POSUM_ALLOCATIONS.includes(policy as never) ? new PosumAllocationPolicy(model, policy as PosumAllocation, params.allocation) : makePolicy(policy, model));
  const provisioner = portfolio ?? (options.provision ? new ProvisioningPolicy(model, options.provision, params.provisioning) : undefined);
  const report = new Simulator(model, new ActualUsage(model, options.actual ?? model.doc.usage), driver, {
    qos: getQos(options.qos ?? POLICY_RUN_QOS),
    qosPeriodSeconds: options.qosPeriodSeconds,
    seed: options.seed,
    maxWindows: options.maxWindows,
    reduceSlowstart: options.reduceSlowstart,
    runtimeTruth: options.runtimeTruth,
    provisioner,
  }).run();
  return {
    ...report,
    provisioning: portfolio ? 'posum' : (options.provision ?? null),
    fc: Math.round(fc(report.score, { vd: 0, sb: 0, c: 0 }, params.weights) * 1e4) / 1e4,
    ...(portfolio ? { decisions: portfolio.trail } : {}),
  };
}

export type { JobRun, SimReport } from './metrics';
export type { RuntimeTruth } from './simulator';
export { validateActualUsage } from './usage';
export type { UsageDoc } from './usage';
export { validateRuntimeTruth } from './truth';
