/**
 * Not a test: the worker thread of stop.test.ts. Solves workerData.instance with a stop flag in shared
 * memory, as a service would off its main thread, and posts the plan back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadInstance } from '../../src/engine/model/model';
import { InstanceDoc } from '../../src/engine/model/types';
import { solve } from '../../src/engine/solve';

export interface StopWorkerInput {
  instance: InstanceDoc;
  strategy: string;
  timeBudgetMs: number;
  stopBuffer: SharedArrayBuffer;
}

if (parentPort) {
  const input = workerData as StopWorkerInput;
  solve(loadInstance(input.instance), {
    strategy: input.strategy,
    timeBudgetMs: input.timeBudgetMs,
    stop: new Int32Array(input.stopBuffer),
  }).then(
    (plan) => parentPort!.postMessage({ type: 'done', plan }),
    (e: Error) => parentPort!.postMessage({ type: 'error', message: e.stack ?? e.message }),
  );
}
