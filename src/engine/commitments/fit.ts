import { evaluatePlan, Overload } from '../evaluate/evaluate';
import { loadInstance, Model } from '../model/model';
import type { InstanceDoc, PlanDoc } from '../model/types';

export type { Overload } from '../evaluate/evaluate';

/** Whether a plan still fits an instance (what is free now, `reserved` included) and, when not, where. */
export interface Fit {
  fits: boolean;
  /** Node, metric (or tasks) and slot where the plan asks for more than is free, first ones first. */
  overloads: Overload[];
  /** The evaluator's messages: what else breaks (a node gone, a task now past the window). */
  violations: string[];
  model: Model;
}

/**
 * Checks a plan against the instance as it is now, with the evaluator (the source of truth on every plan).
 * Only feasibility counts: a plan whose objective no longer matches (a node's speed changed) still fits if
 * every task it places has room.
 */
export function planFits(instance: InstanceDoc, plan: PlanDoc): Fit {
  const model = loadInstance(instance);
  const e = evaluatePlan(model, plan);
  return { fits: e.feasible, overloads: e.overloads, violations: e.violations, model };
}
