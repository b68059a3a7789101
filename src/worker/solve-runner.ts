import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { InstanceDoc } from '../engine/model/types';
import { Objective, Progress } from '../engine/strategies/strategy';
import { SolveThreadMessage } from './solve-thread-protocol';

export type SolveOutcome = Extract<SolveThreadMessage, { type: 'done' }>;

export interface RunningSolve {
  /** Resolves with the plan (the best so far when stopped). */
  result: Promise<SolveOutcome>;
  /** Asks the search to stop now and return its best plan. */
  stop(): void;
  /** Kills the thread without a plan (shutdown when the process must go). */
  kill(): Promise<void>;
}

/**
 * Runs a solve in a worker thread. The budget is enforced twice: the engine stops itself at its deadline,
 * and the stop flag is raised at the budget in case a phase overran it.
 */
export function runSolveInThread(
  opts: { instance: InstanceDoc; strategy: string; objective: Objective; timeBudgetMs: number; seed: number },
  onProgress: (p: Progress) => void,
): RunningSolve {
  const stopBuffer = new SharedArrayBuffer(4);
  const flag = new Int32Array(stopBuffer);
  const stop = () => Atomics.store(flag, 0, 1);
  const worker = new Worker(join(__dirname, 'solve-thread.js'), { workerData: { ...opts, stopBuffer } });
  const watchdog = setTimeout(stop, opts.timeBudgetMs);
  const result = new Promise<SolveOutcome>((resolve, reject) => {
    worker.on('message', (m: SolveThreadMessage) => {
      if (m.type === 'progress') onProgress(m.progress);
      else if (m.type === 'done') resolve(m);
      else reject(Object.assign(new Error(m.message), { stack: m.stack }));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`solve thread exited with code ${code} before returning a plan`)));
  }).finally(() => {
    clearTimeout(watchdog);
    void worker.terminate();
  });
  return { result, stop, kill: async () => void (await worker.terminate()) };
}
