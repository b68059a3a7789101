import type { PredictorChoice } from '../../engine/predict';
import type { Objective } from '../../engine/strategies/strategy';

/**
 * What a solve request's omitted fields become: SolvesService applies these and CreateSolveDto's decorators
 * document them (their `default`s), so the document and the service cannot disagree.
 */
export const SOLVE_DEFAULTS = {
  strategy: 'auto',
  objective: 'tasks-then-makespan' as Objective,
  timeBudgetMs: 5000,
  seed: 1,
  shuffleAware: false,
  predictor: 'auto' as PredictorChoice,
} as const;
