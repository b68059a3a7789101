/**
 * Worker-thread entry of a plan simulation: replaying a plan of 100,000 tasks takes about a second of CPU
 * (more in a relaunch storm, up to 10 window lengths), which on the worker's main thread would stop it
 * renewing its BullMQ locks and hearing solve cancellations.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ValidationError } from '../engine/model/errors';
import { loadInstance } from '../engine/model/model';
import { InstanceDoc, PlanDoc } from '../engine/model/types';
import { simulatePlan, SimReport, UsageDoc } from '../engine/simulate';

export interface SimulationInput {
  instance: InstanceDoc;
  plan: PlanDoc;
  /** null: the instance's own usage (a perfect forecast). */
  actual: UsageDoc | null;
  qos: string;
  seed: number;
}

export type SimulationThreadMessage =
  | { type: 'done'; report: SimReport }
  /** `input`: the plan or the usage cannot be simulated (a deterministic outcome, not a crash). */
  | { type: 'error'; message: string; input: boolean; stack?: string };

export function computeSimulation(input: SimulationInput): SimReport {
  return simulatePlan(loadInstance(input.instance), input.plan, { actual: input.actual ?? undefined, qos: input.qos, seed: input.seed });
}

if (parentPort && workerData) {
  const post = (m: SimulationThreadMessage) => parentPort!.postMessage(m);
  try {
    post({ type: 'done', report: computeSimulation(workerData as SimulationInput) });
  } catch (e) {
    const input = e instanceof ValidationError;
    const message = input ? `${e.what} is not valid: ${e.issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join('; ')}` : (e as Error).message;
    post({ type: 'error', message, input, stack: (e as Error).stack });
  }
}
