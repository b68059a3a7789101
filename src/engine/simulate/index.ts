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
import { ActualUsage, UsageDoc } from './usage';

export interface SimulateOptions {
  /** The actual utilisation (shape of `usage`); default the instance's own usage (a perfect forecast). */
  actual?: UsageDoc;
  /** 'salamander' (default for plans), 'cuckoo' (default for policies) or 'none'. */
  qos?: string;
  seed?: number;
  /** Give up after this many window lengths of simulated time (default 10). */
  maxWindows?: number;
  /** Share of a stage's predecessor tasks that must end before it may launch and start fetching (Hadoop's slow start); default 1, the strict barrier. */
  reduceSlowstart?: number;
  /** What tasks really take, when not what the instance says (true per-stage seconds, lognormal noise). */
  runtimeTruth?: RuntimeTruth;
}

/** Replays a plan; the plan must pass the evaluator against the instance (it was made for it). */
export function simulatePlan(model: Model, plan: PlanDoc, options: SimulateOptions = {}): SimReport {
  const check = evaluatePlan(model, plan);
  if (!check.ok)
    throw new ValidationError(
      'plan',
      check.violations.slice(0, 20).map((v) => ({ path: 'plan', message: v })),
    );
  const driver = new PlanDriver(model, plan);
  return new Simulator(model, new ActualUsage(model, options.actual ?? model.doc.usage), driver, {
    qos: getQos(options.qos ?? 'salamander'),
    seed: options.seed,
    maxWindows: options.maxWindows,
    reduceSlowstart: options.reduceSlowstart,
    runtimeTruth: options.runtimeTruth,
  }).run();
}

/** Runs an online policy ('hadoop' or 'cuckoo'). */
export function simulatePolicy(model: Model, policy: string, options: SimulateOptions = {}): SimReport {
  const driver = makePolicy(policy, model);
  return new Simulator(model, new ActualUsage(model, options.actual ?? model.doc.usage), driver, {
    qos: getQos(options.qos ?? 'cuckoo'),
    seed: options.seed,
    maxWindows: options.maxWindows,
    reduceSlowstart: options.reduceSlowstart,
    runtimeTruth: options.runtimeTruth,
  }).run();
}

export type { JobRun, SimReport } from './metrics';
export type { RuntimeTruth } from './simulator';
export { validateActualUsage } from './usage';
export type { UsageDoc } from './usage';
export { validateRuntimeTruth } from './truth';
