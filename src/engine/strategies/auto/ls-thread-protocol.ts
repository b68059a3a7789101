import { InstanceDoc } from '../../model/types';
import type { BudgetDoc } from '../../budget/budget';
import { Objective } from '../../contracts/strategy';

/** What the second ls stream's thread receives (its input through runInThread). */
export interface LsThreadInput {
  /** The validated instance the caller's model was compiled from (compiled again in the thread). */
  doc: InstanceDoc;
  seed: number;
  objective: Objective;
  /** The revenue objective's upper bound, computed once by solve(). */
  revenueUpper?: number;
  /** The caller's budget: the same deadline, iteration limit and stop request (runInThread's own stop flag comes with it). */
  budget: BudgetDoc;
  lowerBound: number;
  /** The caller plans with compute alone (a solve's `transfers: "ignored"`; model.pricesTransfers false). */
  ignoreTransfers: boolean;
}

/** The thread's answer, once ls returns: the schedule's arrays. */
export interface LsThreadResult {
  node: Int32Array;
  start: Int32Array;
  accepted: Uint8Array;
  /** Each task's planned fetch, when transfers are priced (Schedule.fetch); null otherwise. */
  fetch: Int32Array | null;
  iterations: number;
  stats: Record<string, unknown>;
}
