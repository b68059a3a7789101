/**
 * Thread entry of a simulation (a plan replayed, or an online policy run): replaying a plan of 100,000 tasks takes about a second of CPU (more in
 * a relaunch storm), which on the worker's main thread would stop it renewing its BullMQ locks. The simulation
 * itself is src/work/simulate.ts, the same as `fallow simulate`'s; this file holds what the worker sends it.
 */
import { ValidationError } from '../../engine/model/errors';
import { InstanceDoc, PlanDoc } from '../../engine/model/types';
import type { SimReport, UsageDoc } from '../../engine/simulation';
import type { ProvisioningName } from '../../engine/policies/posum/provisioning';
import type { PortfolioParams } from '../../engine/policies/posum/params';
import { serveThread } from '../../engine/threads/thread-entry';
import { runSimulation, SimulationRun } from '../../work/simulate';

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

/** The stored simulation's fields as the simulator's options (a null field: the simulator's default). */
export function simulationRun(input: SimulationInput): SimulationRun {
  const options = { actual: input.actual ?? undefined, qos: input.qos, qosPeriodSeconds: input.qosPeriodSeconds, seed: input.seed, reduceSlowstart: input.reduceSlowstart,
    runtimeTruth: { trueSeconds: input.trueSeconds ?? undefined, runtimeSigma: input.runtimeSigma },
    provision: (input.provision ?? undefined) as ProvisioningName | undefined,
    posum: input.posum ?? undefined,
  };
  return { instance: input.instance, plan: input.plan, policy: input.policy, options };
}

serveThread<SimulationInput, never, SimReport>((input) => runSimulation(simulationRun(input)), {
  // The plan or the usage cannot be simulated: a deterministic outcome the user reads, not a crash.
  isInputError: (e) => e instanceof ValidationError,
  describe: (e) => (e instanceof ValidationError ? `${e.what} is not valid: ${e.issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join('; ')}` : (e as Error).message),
});
