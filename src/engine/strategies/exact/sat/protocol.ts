import { SatProblem } from './encoding';

/** What the SAT thread receives (its input through runInThread; it then works alone until it is done or terminated). */
export interface SatRequest {
  problem: SatProblem;
  /** Absolute ms (Date.now()) after which no query is started and the running one times out. */
  until: number;
  /** Z3's own memory ceiling in MB, well below the WebAssembly heap's 2 GiB, past which Emscripten aborts the thread. */
  memoryMb: number;
  /** Makespan of the caller's best schedule: an unsat answer one below it proves that schedule optimal. */
  knownMakespan: number;
  /** A stop flag (Int32[0]) raised the moment the best schedule known is proven optimal: a racing strategy's (auto's ls). */
  stopWhenOptimal?: SharedArrayBuffer;
  /**
   * Z3's conflict limit for each query (sat.max_conflicts; none when absent). Set under an iteration
   * limit, so that where the search stops depends on the work done, not on how much CPU it got.
   */
  maxConflicts?: number;
}

/** What the SAT thread reports while it searches (run-in-thread events). */
export type SatEvent =
  /** Z3 is loaded and the formula for the starting horizon is built. */
  | { type: 'ready'; ms: number; variables: number; rows: number }
  /** A schedule with makespan `makespan` <= the horizon asked for; the search goes on below it. */
  | { type: 'sat'; starts: number[]; makespan: number; ms: number };

/** How the SAT search ended (the thread's answer; an error is the helper's). */
export type SatAnswer =
  /** No schedule ends by `horizon`: the makespan is at least horizon + 1. The search is done. */
  | { type: 'unsat'; horizon: number; ms: number }
  /** The query hit its time or memory limit. The search is done. */
  | { type: 'unknown'; reason: string; ms: number };
