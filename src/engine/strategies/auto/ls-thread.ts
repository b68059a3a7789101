import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Schedule } from '../../schedule/schedule';
import { flagBuffer, newStopFlag, StrategyContext, StrategyResult } from '../strategy';
import { LsThreadInput, LsThreadMessage } from './ls-thread-protocol';

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
 * missing or did not answer in time (the caller then keeps its own stream's plan). It listens to the
 * caller's stop flags and signal. Call it before starting the synchronous search on this thread: the thread runs
 * while that search keeps this one busy, and its answer is read when that search returns.
 */
export function startLsThread(ctx: StrategyContext, seed: number): LsThread {
  const abort = newStopFlag();
  const stop = () => Atomics.store(abort, 0, 1);
  if (!existsSync(LS_WORKER_FILE)) return { result: Promise.resolve(`thread script missing (${LS_WORKER_FILE})`), stop };
  const stopFlags = [abort, ...(ctx.stopFlags ?? [])].map(flagBuffer).filter((b): b is SharedArrayBuffer => b !== undefined);
  const input: LsThreadInput = {
    doc: ctx.model.doc,
    seed,
    objective: ctx.objective,
    revenueUpper: ctx.revenueUpper,
    deadline: ctx.deadline,
    maxIterations: ctx.maxIterations,
    lowerBound: ctx.lowerBound,
    stopFlags,
  };
  const result = new Promise<StrategyResult | string>((resolve) => {
    let settled = false;
    const worker = new Worker(LS_WORKER_FILE, { workerData: input });
    const finish = (r: StrategyResult | string) => {
      if (settled) return;
      settled = true;
      clearTimeout(hard);
      ctx.signal?.removeEventListener('abort', stop);
      void worker.terminate();
      resolve(r);
    };
    // Under an iteration limit the thread ends by iterations, not by the clock: no hard stop then.
    const hard = Number.isFinite(ctx.maxIterations) ? undefined : setTimeout(() => finish('no answer by the deadline'), Math.max(0, ctx.deadline - Date.now()) + GRACE_MS);
    ctx.signal?.addEventListener('abort', stop);
    if (ctx.signal?.aborted) stop();
    worker.on('message', (m: LsThreadMessage) => {
      if (m.type === 'error') return finish(`error: ${m.message.split('\n')[0]}`);
      const s = new Schedule(ctx.model);
      s.node.set(m.node);
      s.start.set(m.start);
      s.accepted.set(m.accepted);
      finish({ schedule: s, iterations: m.iterations, stats: m.stats });
    });
    worker.on('error', (e) => finish(`error: ${e.message}`));
    worker.on('exit', (code) => finish(`thread exited with code ${code}`));
  });
  return { result, stop };
}
