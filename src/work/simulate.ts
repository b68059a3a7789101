/**
 * A simulation, the one entry the worker's simulation thread (worker/kinds/simulation.thread.ts) and `fallow
 * simulate` (cli/work.thread.ts) share: a plan replayed on the instance it was made for, or an online policy
 * run on the instance (exactly one of `plan` and `policy`), against the actual utilisation and the rest of
 * `options`; the realised metrics out. The choice between a plan and a policy is the engine's simulate(). With
 * `replan`, the plan is replayed closed-loop and re-planned by solve() as it runs (simulateReplanning).
 */
import { loadInstance } from '../engine/model/model';
import type { InstanceDoc, PlanDoc } from '../engine/model/types';
import { ReplanOptions, simulate, SimulateOptions, SimReport, simulateReplanning } from '../engine/simulation';

export interface SimulationRun {
  instance: InstanceDoc;
  /** The plan to replay (when `policy` is null). */
  plan: PlanDoc | null;
  /** The online policy to run, or null to replay `plan`. */
  policy: string | null;
  options: SimulateOptions;
  /** Re-plan the plan as it runs, with solve() and these settings (a replanner function cannot cross threads). */
  replan?: Omit<ReplanOptions, 'replanner'>;
}

export function runSimulation({ instance, plan, policy, options, replan }: SimulationRun): SimReport | Promise<SimReport> {
  if (replan && policy == null) return simulateReplanning(loadInstance(instance), plan as PlanDoc, { ...options, replan });
  return simulate(loadInstance(instance), { plan, policy }, options);
}
