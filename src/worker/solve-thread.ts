/**
 * Worker-thread entry: runs one engine solve off the worker process's main thread, so the event loop that
 * renews BullMQ job locks, reports progress and hears cancellations is never starved by the search.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { evaluatePlan } from '../engine/evaluate/evaluate';
import { explainRejections } from '../engine/evaluate/rejections';
import { loadInstance, stageKey } from '../engine/model/model';
import { solve } from '../engine/solve';
import { SolveThreadInput, SolveThreadMessage } from './solve-thread-protocol';

const input = workerData as SolveThreadInput;
const post = (m: SolveThreadMessage) => parentPort!.postMessage(m);

async function main(): Promise<void> {
  const model = loadInstance(input.instance);
  const plan = await solve(model, {
    strategy: input.strategy,
    objective: input.objective,
    timeBudgetMs: input.timeBudgetMs,
    seed: input.seed,
    stopFlag: new Int32Array(input.stopBuffer),
    onProgress: (progress) => post({ type: 'progress', progress }),
  });
  const evaluation = evaluatePlan(model, plan);
  const ends = plan.assignments.map((a) => a.start + model.stages[model.stageIndex.get(stageKey(a.job, a.stage))!].dur[model.nodeIndex.get(a.node)!]);
  // Per-job outcomes stay in the stored KPIs: accounting bills from them without re-evaluating the plan.
  const kpis = evaluation.kpis as unknown as Record<string, unknown>;
  post({ type: 'done', plan, kpis, rejections: explainRejections(model, plan), ends });
}

main().catch((e: Error) => post({ type: 'error', message: e.message, stack: e.stack }));
