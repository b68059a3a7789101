/**
 * Worker-thread entry of a forecast build: training a GBT on a week of 100 nodes takes seconds of CPU, which
 * on the worker's main thread would stop it renewing its BullMQ locks (and hearing solve cancellations).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ForecastInputError } from '../engine/forecast';
import { BuildInput, BuildOutput, computeBuild } from './forecast-build-compute';

export type BuildThreadMessage =
  | { type: 'done'; output: BuildOutput }
  /** `input`: the history or the request cannot make this forecast (a user error, not a crash). */
  | { type: 'error'; message: string; input: boolean; stack?: string };

if (parentPort) {
  const post = (m: BuildThreadMessage) => parentPort!.postMessage(m);
  try {
    post({ type: 'done', output: computeBuild(workerData as BuildInput) });
  } catch (e) {
    post({ type: 'error', message: (e as Error).message, input: e instanceof ForecastInputError, stack: (e as Error).stack });
  }
}
