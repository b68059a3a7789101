/**
 * Thread entry of a solve: the search runs off the worker process's main thread, so the event loop that
 * renews BullMQ job locks, writes progress and hears cancellations is never starved by it.
 */
import { loadInstance } from '../../engine/model/model';
import { InstanceDoc } from '../../engine/model/types';
import { solveWithOutcome, SolveOutcome } from '../../engine/solve';
import type { FcWeights } from '../../engine/posum/score';
import type { BudgetRequest } from '../../engine/budget/budget';
import { Objective, Progress } from '../../engine/contracts/strategy';
import { serveThread } from '../../engine/threads/thread-entry';

/**
 * The solve's request. Its budget comes as the request's fields (BudgetRequest: timeBudgetMs and, from
 * the CLI's --iterations, maxIterations), not as a started Budget: the engine starts the budget's clock
 * when the search starts, in this thread, and its stop request is this thread's stop flag.
 */
export interface SolveThreadInput extends Omit<BudgetRequest, 'stop'> {
  instance: InstanceDoc;
  strategy: string;
  objective: Objective;
  timeBudgetMs: number;
  seed: number;
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
    stop,
    onProgress: emit,
  }),
);
