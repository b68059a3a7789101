import { MilpProblem } from './model-builder';

/** What the solver thread receives (its input through runInThread, which also gives it the stop flag). */
export interface WorkerInput {
  problem: MilpProblem;
  /** HiGHS options (snake_case names), applied before the solve. */
  options: Record<string, number | string | boolean>;
  /** A complete column vector to start from (the incumbent), or null. */
  start: Float64Array | null;
  /** A stop flag (Int32[0]) raised as soon as HiGHS has proved its solution optimal: a racing strategy's (auto's ls). */
  stopWhenOptimal?: SharedArrayBuffer;
}

/** What the solver thread reports during the search (run-in-thread events); its answer is a HighsOutcome. */
export type WorkerEvent =
  /** A new best solution found during the search, so a hard stop still leaves something to decode. */
  | { type: 'incumbent'; colValue: Float64Array; objective: number; dualBound: number | null }
  /** The proven bound rose (also what a terminated run keeps). */
  | { type: 'bound'; dualBound: number; nodes: number };

export interface HighsOutcome {
  /** highs.constants.modelStatus code (7 optimal, 8 infeasible, 13 time limit, 17 interrupted ...). */
  modelStatus: number;
  status: string;
  colValue: Float64Array | null;
  objective: number | null;
  /** Proven lower bound on the (minimised) objective, when HiGHS has one. */
  dualBound: number | null;
  gap: number | null;
  nodes: number;
  solverSeconds: number;
}

/** highs.constants.modelStatus of a proven optimum. */
export const OPTIMAL = 7;

export const STATUS_NAMES: Record<number, string> = {
  0: 'not-set',
  1: 'load-error',
  2: 'model-error',
  3: 'presolve-error',
  4: 'solve-error',
  5: 'postsolve-error',
  6: 'empty',
  7: 'optimal',
  8: 'infeasible',
  9: 'unbounded-or-infeasible',
  10: 'unbounded',
  11: 'objective-bound',
  12: 'objective-target',
  13: 'time-limit',
  14: 'iteration-limit',
  15: 'unknown',
  16: 'solution-limit',
  17: 'interrupted',
};
