import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { flagBuffer } from '../strategy';
import { MilpProblem } from './model-builder';
import { HighsOutcome, WorkerInput, WorkerMessage } from './protocol';

export interface RunOptions {
  /** HiGHS options (snake_case), including time_limit in seconds. */
  options: Record<string, number | string | boolean>;
  start: Float64Array | null;
  /** Absolute ms: ask HiGHS to stop (it then reports its best solution and bound). */
  softStopAt: number;
  /** Absolute ms: terminate the thread outright if HiGHS has not returned by then. */
  hardStopAt: number;
  signal?: AbortSignal;
  /** Set to 1 by the solver thread itself the moment HiGHS proves optimality (see WorkerInput). */
  provenFlag?: Int32Array;
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
 * Solves the MILP on a fresh worker thread and always resolves (never rejects for solver trouble:
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
  if (!existsSync(WORKER_FILE)) return Promise.resolve(failed(`error: solver thread script missing (${WORKER_FILE})`));
  const stopFlag = new SharedArrayBuffer(4);
  const stop = new Int32Array(stopFlag);
  const provenFlag = flagBuffer(opt.provenFlag);
  const input: WorkerInput = { problem, options: opt.options, start: opt.start, stopFlag, provenFlag };
  return new Promise<RunOutcome>((resolve) => {
    let last: { colValue: Float64Array; objective: number } | null = null;
    let bound: { dualBound: number; nodes: number } | null = null;
    let settled = false;
    // The arrays are moved, not copied: the strategy keeps only the column layout.
    const transferList = [problem.colCost, problem.colLower, problem.colUpper, problem.integrality, problem.rowLower,
      problem.rowUpper, problem.starts, problem.indices, problem.values, ...(opt.start ? [opt.start] : [])].map((a) => a.buffer as ArrayBuffer);
    const worker = new Worker(WORKER_FILE, { workerData: input, transferList });
    const finish = (o: RunOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(soft);
      clearTimeout(hard);
      opt.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(o);
    };
    const requestStop = () => Atomics.store(stop, 0, 1);
    const kill = () => {
      const o = failed('killed');
      o.killed = true;
      if (last) Object.assign(o, { colValue: last.colValue, objective: last.objective });
      if (bound) Object.assign(o, bound);
      finish(o);
    };
    let hard = setTimeout(kill, Math.max(0, opt.hardStopAt - Date.now()));
    const onAbort = () => {
      requestStop();
      // HiGHS only looks at the flag between steps; an abort should not wait for the budget to end.
      clearTimeout(hard);
      hard = setTimeout(kill, Math.min(ABORT_GRACE_MS, Math.max(0, opt.hardStopAt - Date.now())));
    };
    const soft = setTimeout(requestStop, Math.max(0, opt.softStopAt - Date.now()));
    opt.signal?.addEventListener('abort', onAbort);
    if (opt.signal?.aborted) onAbort();
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'incumbent') {
        last = m;
        if (m.dualBound !== null && (!bound || m.dualBound > bound.dualBound)) bound = { dualBound: m.dualBound, nodes: bound?.nodes ?? 0 };
        opt.onIncumbent?.(m.colValue, m.objective);
      } else if (m.type === 'bound') {
        if (!bound || m.dualBound > bound.dualBound) bound = { dualBound: m.dualBound, nodes: m.nodes };
      } else if (m.type === 'done') finish({ ...m.result, killed: false, wallMs: Date.now() - began });
      else finish(failed(`error: ${m.message.split('\n')[0]}`));
    });
    worker.on('error', (e) => finish(failed(`error: ${e.message}`)));
    worker.on('exit', (code) => finish(failed(`error: solver thread exited with code ${code}`)));
  });
}
