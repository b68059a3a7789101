import path from 'node:path';
import { runInThread, ThreadError, ThreadRun } from '../../threads/run-in-thread';
import { StopFlag, stopFlagBuffer } from '../../budget/stop-flag';
import { MilpProblem } from './model-builder';
import { HighsOutcome, WorkerEvent, WorkerInput } from './protocol';

export interface RunOptions {
  /** HiGHS options (snake_case), including time_limit in seconds. */
  options: Record<string, number | string | boolean>;
  start: Float64Array | null;
  /** Absolute ms: ask HiGHS to stop (it then reports its best solution and bound). */
  softStopAt: number;
  /** Absolute ms: terminate the thread outright if HiGHS has not returned by then. */
  hardStopAt: number;
  signal?: AbortSignal;
  /** Raised by the solver thread itself the moment HiGHS proves optimality (see WorkerInput). */
  stopWhenOptimal?: StopFlag;
  onIncumbent?: (colValue: Float64Array, objective: number) => void;
}

export interface RunOutcome extends HighsOutcome {
  /** The thread had to be terminated: only the last reported incumbent (if any) is known. */
  killed: boolean;
  wallMs: number;
}

/**
 * How long an aborted solve may take to stop by itself before its thread is terminated. Short: a
 * stopped solve should come back at once, and the streamed incumbent and bound survive a termination.
 */
const ABORT_GRACE_MS = 100;

/** Compiled next to this file (dist/src/engine/strategies/exact/highs-worker.js). */
export const WORKER_FILE = path.join(__dirname, 'highs-worker.js');

/**
 * Solves the MILP on a fresh worker thread (runInThread) and always resolves (never rejects for solver trouble:
 * errors come back as status "error" so the strategy can fall back to its incumbent). The worker is
 * terminated at the end in every case, releasing the WASM instance.
 */
export function runHighs(problem: MilpProblem, opt: RunOptions): Promise<RunOutcome> {
  const began = Date.now();
  const failed = (status: string): RunOutcome => ({
    modelStatus: -1,
    status,
    colValue: null,
    objective: null,
    dualBound: null,
    gap: null,
    nodes: 0,
    solverSeconds: 0,
    killed: false,
    wallMs: Date.now() - began,
  });
  const input: WorkerInput = { problem, options: opt.options, start: opt.start, ...(opt.stopWhenOptimal && { stopWhenOptimal: stopFlagBuffer(opt.stopWhenOptimal) }) };
  let last: { colValue: Float64Array; objective: number } | null = null;
  let bound: { dualBound: number; nodes: number } | null = null;
  let run: ThreadRun<HighsOutcome>;
  try {
    run = runInThread<WorkerInput, WorkerEvent, HighsOutcome>(WORKER_FILE, input, {
      // The arrays are moved, not copied: the strategy keeps only the column layout.
      transferList: [problem.colCost, problem.colLower, problem.colUpper, problem.integrality, problem.rowLower,
        problem.rowUpper, problem.starts, problem.indices, problem.values, ...(opt.start ? [opt.start] : [])].map((a) => a.buffer as ArrayBuffer),
      // Soft stop: HiGHS reads the stop flag between steps and then reports its best solution and bound.
      softStopAt: opt.softStopAt,
      hardStopAt: opt.hardStopAt,
      // HiGHS only looks at the flag between steps; an abort should not wait for the budget to end.
      signal: opt.signal,
      abortGraceMs: ABORT_GRACE_MS,
      onEvent: (m) => {
        if (m.type === 'incumbent') {
          last = m;
          if (m.dualBound !== null && (!bound || m.dualBound > bound.dualBound)) bound = { dualBound: m.dualBound, nodes: bound?.nodes ?? 0 };
          opt.onIncumbent?.(m.colValue, m.objective);
        } else if (!bound || m.dualBound > bound.dualBound) bound = { dualBound: m.dualBound, nodes: m.nodes };
      },
    });
  } catch (e) {
    return Promise.resolve(failed(`error: ${(e as Error).message}`));
  }
  return run.result.then(
    (result): RunOutcome => ({ ...result, killed: false, wallMs: Date.now() - began }),
    (e: unknown): RunOutcome => {
      if (!(e instanceof ThreadError)) return failed(`error: ${String(e)}`);
      if (e.reason === 'missing') return failed(`error: solver thread script missing (${WORKER_FILE})`);
      if (e.reason !== 'killed') return failed(`error: ${e.message.split('\n')[0]}`);
      // Terminated (hard stop, or an abort's grace ran out): only what the thread streamed is known.
      const o = failed('killed');
      o.killed = true;
      if (last) Object.assign(o, { colValue: last.colValue, objective: last.objective });
      if (bound) Object.assign(o, bound);
      return o;
    },
  );
}
