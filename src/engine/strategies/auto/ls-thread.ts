import path from 'node:path';
import { Schedule } from '../../schedule/schedule';
import { runInThread, ThreadError, ThreadRun } from '../../threads/run-in-thread';
import { StrategyContext, StrategyResult } from '../../contracts/strategy';
import { LsThreadInput, LsThreadResult } from './ls-thread-protocol';

/**
 * The thread entry, compiled one folder up (dist/src/engine/strategies/ls-thread-entry.js): it takes ls
 * from the registry, which this family must not import. Named by path only.
 */
export const LS_WORKER_FILE = path.join(__dirname, '..', 'ls-thread-entry.js');

/**
 * How long after the deadline the thread may take to answer before it is terminated: ls checks the
 * clock between moves, but a decode or a job insertion on 10,000 tasks can take some milliseconds.
 */
const GRACE_MS = 150;

export interface LsThread {
  /** The thread's result, or why there is none (see startLsThread). */
  result: Promise<StrategyResult | string>;
  /** Asks the thread to stop now and answer with its best so far. */
  stop(): void;
}

/**
 * Starts a second, independent ls search (seed `seed`) on a worker thread, on the same instance and
 * deadline as `ctx`, and resolves with its result, or with the reason when the thread failed, is
 * missing or did not answer in time (the caller then keeps its own stream's plan). It stops with the
 * caller's budget, which it gets a copy of. Call it before starting the synchronous search on this thread: the thread runs
 * while that search keeps this one busy, and its answer is read when that search returns.
 */
export function startLsThread(ctx: StrategyContext, seed: number): LsThread {
  // The caller's budget; the thread's own stop flag (stop() below) comes with runInThread.
  const input: LsThreadInput = {
    doc: ctx.model.doc,
    seed,
    objective: ctx.objective,
    revenueUpper: ctx.revenueUpper,
    budget: ctx.budget.toDoc(),
    lowerBound: ctx.lowerBound,
    // The thread compiles the instance again, which prices transfers whenever data moves: not when this model does not.
    ignoreTransfers: !ctx.model.pricesTransfers,
  };
  let run: ThreadRun<LsThreadResult>;
  try {
    run = runInThread<LsThreadInput, never, LsThreadResult>(LS_WORKER_FILE, input, {
      // Under an iteration limit the thread ends by iterations, not by the clock: no hard stop then.
      hardStopAt: Number.isFinite(ctx.budget.maxIterations) ? undefined : ctx.budget.deadline + GRACE_MS,
    });
  } catch (e) {
    return { result: Promise.resolve(`error: ${(e as Error).message}`), stop: () => undefined };
  }
  const result = run.result.then(
    (m): StrategyResult | string => {
      const s = new Schedule(ctx.model);
      s.node.set(m.node);
      s.start.set(m.start);
      s.accepted.set(m.accepted);
      s.fetch = m.fetch;
      return { schedule: s, iterations: m.iterations, stats: m.stats };
    },
    (e: unknown): string => {
      if (!(e instanceof ThreadError)) return `error: ${String(e)}`;
      if (e.reason === 'missing') return `thread script missing (${LS_WORKER_FILE})`;
      if (e.reason === 'killed') return 'no answer by the deadline';
      return `error: ${e.message.split('\n')[0]}`;
    },
  );
  return { result, stop: run.stop };
}
