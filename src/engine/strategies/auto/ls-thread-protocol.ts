import { InstanceDoc } from '../../model/types';
import { Objective } from '../strategy';

/** What the second ls stream's thread receives (its input through runInThread). */
export interface LsThreadInput {
  /** The validated instance the caller's model was compiled from (compiled again in the thread). */
  doc: InstanceDoc;
  seed: number;
  objective: Objective;
  /** The revenue objective's upper bound, computed once by solve(). */
  revenueUpper?: number;
  /** Absolute ms (Date.now() is the same clock in every thread of the process). */
  deadline: number;
  maxIterations: number;
  lowerBound: number;
  /** Int32[0] != 0 in any of them stops the search (the caller's stop flags; runInThread's own stop flag comes with them). */
  stopFlags: SharedArrayBuffer[];
}

/** The thread's answer, once ls returns: the schedule's arrays. */
export interface LsThreadResult {
  node: Int32Array;
  start: Int32Array;
  accepted: Uint8Array;
  iterations: number;
  stats: Record<string, unknown>;
}
