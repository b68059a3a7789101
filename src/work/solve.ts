/**
 * A solve, the one entry the worker's solve thread (worker/kinds/solve.thread.ts) and `fallow solve`
 * (cli/work.thread.ts) share: an instance document and the request's options in, the engine's outcome (plan,
 * KPIs, rejections, job ends) out. It runs in the thread that calls it, reports its progress through `emit`
 * and stops early once the caller raises `stop`. How long a caller waits for it: solve-limits.ts (kept apart
 * so that the callers' main threads, which only enforce the limits, do not load the engine).
 */
import { loadInstance } from '../engine/model/model';
import { InstanceDoc } from '../engine/model/types';
import { solveWithOutcome, SolveOutcome } from '../engine/solve';
import type { FcWeights } from '../engine/evaluate/posum-score';
import { Objective, Progress, TransfersOption } from '../engine/contracts/strategy';
import type { ThreadTools } from '../engine/threads/thread-entry';

export interface SolveInput {
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
  /** Price each task's fetch when the instance gives network fields (default), or plan compute alone (the CLI's --transfers). */
  transfers?: TransfersOption;
  /** Re-planning: the plan being replaced, a hint (SolveOptions.previous; the CLI's --previous, the service's stored plan). */
  previous?: unknown;
}

export function runSolve(input: SolveInput, { emit, stop }: ThreadTools<Progress>): Promise<SolveOutcome> {
  return solveWithOutcome(loadInstance(input.instance), {
    strategy: input.strategy,
    objective: input.objective,
    timeBudgetMs: input.timeBudgetMs,
    seed: input.seed,
    maxIterations: input.maxIterations,
    scoreWeights: input.scoreWeights,
    shuffleAware: input.shuffleAware,
    transfers: input.transfers,
    previous: input.previous,
    stop,
    onProgress: emit,
  });
}
