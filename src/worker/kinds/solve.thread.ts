/**
 * Thread entry of a solve: the search runs off the worker process's main thread, so the event loop that
 * renews BullMQ job locks, writes progress and hears cancellations is never starved by it.
 */
import { loadInstance } from '../../engine/model/model';
import { InstanceDoc } from '../../engine/model/types';
import { solveWithOutcome, SolveOutcome } from '../../engine/solve';
import type { FcWeights } from '../../engine/evaluate/posum-score';
import { Objective, Progress } from '../../engine/strategies/strategy';
import { serveThread } from '../../engine/threads/thread-entry';

export interface SolveThreadInput {
  instance: InstanceDoc;
  strategy: string;
  objective: Objective;
  timeBudgetMs: number;
  seed: number;
  /** Stop after this many iterations (the CLI's --iterations: the same plan for the same seed). */
  maxIterations?: number;
  /** The portfolio strategy's alpha, beta, gamma (the request's, else the tenant's default). */
  scoreWeights?: FcWeights;
  /** Place the reduces again over the links once the search is done (the CLI's --shuffle-aware). */
  shuffleAware?: boolean;
}

serveThread<SolveThreadInput, Progress, SolveOutcome>((input, { emit, stop }) =>
  solveWithOutcome(loadInstance(input.instance), {
    strategy: input.strategy,
    objective: input.objective,
    timeBudgetMs: input.timeBudgetMs,
    seed: input.seed,
    maxIterations: input.maxIterations,
    scoreWeights: input.scoreWeights,
    shuffleAware: input.shuffleAware,
    stopFlag: stop,
    onProgress: emit,
  }),
);
