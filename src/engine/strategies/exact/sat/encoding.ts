import { Model, NO_TASK_LIMIT } from '../../../model/model';
import { stageTails } from '../../../schedule/tails';
import { propagationApplies } from '../propagate';
import { Windows } from '../windows';

/**
 * The decision problem "every activity runs and the makespan is at most C" for RCPSP-shaped models
 * (one node, one task per stage: where propagate.ts applies), as plain data for the SAT solver's
 * process (z3-child.ts builds the formula from it). Integer data only: pseudo-Boolean rows need
 * integer coefficients, so fractional demands are scaled by a power of ten.
 */
export interface SatProblem {
  /** Activities = stages; all finish by `horizon`. */
  horizon: number;
  dur: number[];
  /** Allowed start slots of each activity, increasing (the propagated windows of the MILP). */
  starts: number[][];
  preds: number[][];
  /** dur + the longest chain of successors' durations: start <= C - tail for a makespan of C. */
  tail: number[];
  /** One per resource (metrics, then the task limit when there is one): integer demand and capacity per slot. */
  rows: { demand: number[]; cap: number[] }[];
}

/** Largest power of ten tried to make fractional demands integral (6 decimals). */
const MAX_DECIMALS = 6;
const INT_TOL = 1e-9;

/**
 * The problem on the given windows (already narrowed by propagation for `w.horizon`), or null when
 * the model is not of the RCPSP shape, some window is empty, or its numbers are not integral at up
 * to MAX_DECIMALS decimals.
 */
export function encodeSatProblem(model: Model, w: Windows): SatProblem | null {
  if (!propagationApplies(model) || w.jobFeasible.some((f) => f === 0)) return null;
  const { M, T } = model;
  const H = w.horizon;
  const n = model.stages.length;
  const starts = model.stages.map((_, g) => Array.from(w.slots[g][0]));
  if (starts.some((s) => s.length === 0)) return null;
  const dur = model.stages.map((s) => s.dur[0]);
  const rows: SatProblem['rows'] = [];
  for (let m = 0; m < M; m++) {
    const demand = model.stages.map((s) => s.demand[m]);
    const cap = Array.from({ length: H }, (_, t) => model.avail[0][m * T + t]);
    const scale = integralScale([...demand, ...cap]);
    if (scale === null) return null;
    // Capacities round down after scaling: a sum of integral demands fits exactly when it fits the floor.
    rows.push({ demand: demand.map((q) => Math.round(q * scale)), cap: cap.map((c) => Math.floor(c * scale + INT_TOL * scale)) });
  }
  if (model.maxTasks[0] !== NO_TASK_LIMIT) rows.push({ demand: new Array<number>(n).fill(1), cap: Array.from({ length: H }, (_, t) => model.taskLimit[0][t]) });
  return { horizon: H, dur, starts, preds: model.stages.map((s) => [...s.preds]), tail: withTails(model, dur), rows };
}

/** The smallest power of ten (up to 10^6) that makes every value an integer, or null. */
function integralScale(values: number[]): number | null {
  for (let d = 0, scale = 1; d <= MAX_DECIMALS; d++, scale *= 10) {
    if (values.every((v) => Math.abs(v * scale - Math.round(v * scale)) <= INT_TOL * Math.max(1, scale))) return scale;
  }
  return null;
}

/** dur[g] plus the longest chain of successors (stageTails: shortest durations, which on one node are the durations). */
function withTails(model: Model, dur: number[]): number[] {
  const after = stageTails(model);
  return dur.map((d, g) => d + after[g]);
}
