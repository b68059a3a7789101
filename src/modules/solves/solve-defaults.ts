import { DEFAULT_TIME_BUDGET_MS } from '../../engine/budget/budget';
import type { PredictorChoice } from '../../engine/predict';
import type { Objective, TransfersOption } from '../../engine/contracts/strategy';

/**
 * What a solve request's omitted fields become: SolvesService applies these and CreateSolveDto's decorators
 * document them (their `default`s), so the document and the service cannot disagree.
 */
export const SOLVE_DEFAULTS = {
  strategy: 'auto',
  objective: 'tasks-then-makespan' as Objective,
  timeBudgetMs: DEFAULT_TIME_BUDGET_MS,
  seed: 1,
  shuffleAware: false,
  transfers: 'priced' as TransfersOption,
  predictor: 'auto' as PredictorChoice,
} as const;
