/**
 * Thread entry of a simulation (a plan replayed, or an online policy run): replaying a plan of 100,000 tasks takes about a second of CPU (more in
 * a relaunch storm), which on the worker's main thread would stop it renewing its BullMQ locks.
 */
import { ValidationError } from '../../engine/model/errors';
import { loadInstance } from '../../engine/model/model';
import { InstanceDoc, PlanDoc } from '../../engine/model/types';
import { simulatePlan, simulatePolicy, SimReport, UsageDoc } from '../../engine/simulation';
import type { ProvisioningName } from '../../engine/policies/posum/provisioning';
import type { PortfolioParams } from '../../engine/policies/posum/params';
import { serveThread } from '../../engine/threads/thread-entry';

export interface SimulationInput {
  instance: InstanceDoc;
  /** The plan to replay, or null to run `policy`. */
  plan: PlanDoc | null;
  policy: string | null;
  /** null: the instance's own usage (a perfect forecast). */
  actual: UsageDoc | null;
  qos: string;
  /** Absent: the simulator's default (100 ms). */
  qosPeriodSeconds?: number;
  seed: number;
  reduceSlowstart: number;
  trueSeconds: Record<string, Record<string, number>> | null;
  runtimeSigma: number;
  provision?: string | null;
  posum?: PortfolioParams | null;
}

export function computeSimulation(input: SimulationInput): SimReport {
  const model = loadInstance(input.instance);
  const options = { actual: input.actual ?? undefined, qos: input.qos, qosPeriodSeconds: input.qosPeriodSeconds, seed: input.seed, reduceSlowstart: input.reduceSlowstart,
    runtimeTruth: { trueSeconds: input.trueSeconds ?? undefined, runtimeSigma: input.runtimeSigma },
    provision: (input.provision ?? undefined) as ProvisioningName | undefined,
    posum: input.posum ?? undefined,
  };
  return input.plan ? simulatePlan(model, input.plan, options) : simulatePolicy(model, input.policy!, options);
}

serveThread<SimulationInput, never, SimReport>(computeSimulation, {
  // The plan or the usage cannot be simulated: a deterministic outcome the user reads, not a crash.
  isInputError: (e) => e instanceof ValidationError,
  describe: (e) => (e instanceof ValidationError ? `${e.what} is not valid: ${e.issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join('; ')}` : (e as Error).message),
});
