/**
 * A simulation, the one entry the worker's simulation thread (worker/kinds/simulation.thread.ts) and `fallow
 * simulate` (cli/work.thread.ts) share: a plan replayed on the instance it was made for, or an online policy
 * run on the instance (exactly one of `plan` and `policy`), against the actual utilisation and the rest of
 * `options`; the realised metrics out. The choice between a plan and a policy is the engine's simulate().
 */
import { loadInstance } from '../engine/model/model';
import type { InstanceDoc, PlanDoc } from '../engine/model/types';
import { simulate, SimulateOptions, SimReport } from '../engine/simulation';

export interface SimulationRun {
  instance: InstanceDoc;
  /** The plan to replay (when `policy` is null). */
  plan: PlanDoc | null;
  /** The online policy to run, or null to replay `plan`. */
  policy: string | null;
  options: SimulateOptions;
}

export function runSimulation({ instance, plan, policy, options }: SimulationRun): SimReport {
  return simulate(loadInstance(instance), { plan, policy }, options);
}
