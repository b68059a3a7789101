/**
 * Worker-thread entry: runs one engine solve off the worker process's main thread, so the event loop that
 * renews BullMQ job locks, reports progress and hears cancellations is never starved by the search.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadInstance } from '../engine/model/model';
import { solveWithOutcome } from '../engine/solve';
import { SolveThreadInput, SolveThreadMessage } from './solve-thread-protocol';

const input = workerData as SolveThreadInput;
const post = (m: SolveThreadMessage) => parentPort!.postMessage(m);

async function main(): Promise<void> {
  const model = loadInstance(input.instance);
  const { plan, kpis, rejections, ends } = await solveWithOutcome(model, {
    strategy: input.strategy,
    objective: input.objective,
    timeBudgetMs: input.timeBudgetMs,
    seed: input.seed,
    stopFlag: new Int32Array(input.stopBuffer),
    onProgress: (progress) => post({ type: 'progress', progress }),
  });
  // The engine's own evaluation of the plan, not a second one. Per-job outcomes stay in the stored KPIs:
  // accounting bills from them without re-evaluating the plan.
  post({ type: 'done', plan, kpis, rejections, ends });
}

main().catch((e: Error) => post({ type: 'error', message: e.message, stack: e.stack }));
