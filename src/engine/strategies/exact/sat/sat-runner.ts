import path from 'node:path';
import { runInThread, ThreadError, ThreadRun } from '../../../threads/run-in-thread';
import { StopFlag, stopFlagBuffer } from '../../../budget/stop-flag';
import { SatProblem } from './encoding';
import { SatAnswer, SatEvent, SatRequest } from './protocol';

export interface SatRunOptions {
  /** Absolute ms: the solver starts no query after it and its running query times out there. */
  until: number;
  /** Absolute ms: the thread is terminated if it has not finished by then (Z3's timeout overshoots a little). */
  hardStopAt: number;
  signal?: AbortSignal;
  /** Each schedule found, shorter every time (makespan <= the previous one - 1). */
  onSchedule?: (starts: number[], makespan: number) => void;
  memoryMb?: number;
  /** See SatRequest: the caller's best makespan, and the stop flag to raise once it is proven optimal. */
  knownMakespan: number;
  stopWhenOptimal?: StopFlag;
  /** See SatRequest: Z3's conflict limit per query (none when absent). */
  maxConflicts?: number;
}

export interface SatOutcome {
  /** unsat: `refuted` is proven infeasible; unknown: a limit was hit; killed / error: no verdict. */
  status: 'unsat' | 'unknown' | 'killed' | 'error';
  detail: string;
  /** The shortest schedule found (start per activity), if any. */
  best: { starts: number[]; makespan: number } | null;
  /** A makespan proven infeasible (every schedule ends after it), when status is unsat. */
  refuted: number | null;
  /** Time until Z3 was loaded and the formula built; the formula's size. */
  readyMs: number | null;
  variables: number;
  rows: number;
  wallMs: number;
}

/** Compiled next to this file (dist/src/engine/strategies/exact/sat/z3-worker.js). */
export const SAT_WORKER_FILE = path.join(__dirname, 'z3-worker.js');

/** Z3's own memory ceiling: it then answers unknown instead of reaching the WebAssembly heap's 2 GiB. */
const DEFAULT_MEMORY_MB = 1200;

/**
 * Runs the SAT search (z3-worker.ts) on a fresh worker thread (runInThread) and always resolves: a
 * missing script, a crash, a termination at the hard stop or an abort comes back as a status, keeping
 * every schedule reported before it. The thread is terminated at the end in every case, which frees
 * Z3's memory.
 */
export function runSat(problem: SatProblem, opt: SatRunOptions): Promise<SatOutcome> {
  const began = Date.now();
  const out: SatOutcome = { status: 'error', detail: '', best: null, refuted: null, readyMs: null, variables: 0, rows: 0, wallMs: 0 };
  const req: SatRequest = {
    problem,
    until: opt.until,
    memoryMb: opt.memoryMb ?? DEFAULT_MEMORY_MB,
    knownMakespan: opt.knownMakespan,
    ...(opt.stopWhenOptimal && { stopWhenOptimal: stopFlagBuffer(opt.stopWhenOptimal) }),
    ...(opt.maxConflicts !== undefined && { maxConflicts: opt.maxConflicts }),
  };
  const finish = (status: SatOutcome['status'], detail: string): SatOutcome => ({ ...out, status, detail, wallMs: Date.now() - began });
  // Why the thread was terminated: the hard stop, unless an abort came first.
  let killedBy = 'hard time limit';
  let run: ThreadRun<SatAnswer>;
  try {
    run = runInThread<SatRequest, SatEvent, SatAnswer>(SAT_WORKER_FILE, req, {
      hardStopAt: opt.hardStopAt,
      onEvent: (m) => {
        if (m.type === 'ready') Object.assign(out, { readyMs: m.ms, variables: m.variables, rows: m.rows });
        else {
          out.best = { starts: m.starts, makespan: m.makespan };
          opt.onSchedule?.(m.starts, m.makespan);
        }
      },
    });
  } catch (e) {
    return Promise.resolve(finish('error', (e as Error).message));
  }
  // An abort ends the search at once (no grace: Z3 does not read a stop flag), keeping what it found.
  const onAbort = () => {
    killedBy = 'aborted';
    run.kill();
  };
  opt.signal?.addEventListener('abort', onAbort);
  if (opt.signal?.aborted) onAbort();
  return run.result.then(
    (answer) => {
      if (answer.type === 'unknown') return finish('unknown', answer.reason);
      out.refuted = answer.horizon;
      return finish('unsat', `no schedule ends by ${answer.horizon}`);
    },
    (e: unknown) => {
      if (!(e instanceof ThreadError)) return finish('error', String(e));
      if (e.reason === 'missing') return finish('error', `SAT thread script missing (${SAT_WORKER_FILE})`);
      if (e.reason === 'killed') return finish('killed', killedBy);
      return finish('error', e.message.split('\n')[0]);
    },
  ).finally(() => opt.signal?.removeEventListener('abort', onAbort));
}
