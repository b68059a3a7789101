/**
 * The strategy contract: what a strategy is given (StrategyContext, its Budget) and answers
 * (StrategyResult), and what a solve is asked (SolveOptions). It sits below the strategy families and the
 * shared engine folders that run a search (job-sets/, revenue/), so that none of them imports strategies/.
 */
import type { Budget, BudgetRequest } from '../budget/budget';
import { Model } from '../model/model';
import { PlacementDoc } from '../model/types';
import { Random } from '../random';
import type { FcWeights } from '../evaluate/posum-score';
import { Schedule } from '../schedule/schedule';

export interface Progress {
  strategy: string;
  elapsedMs: number;
  iterations: number;
  /** Best so far (0 and 0 in the `searching` report sent before the strategy found anything). */
  scheduledTasks: number;
  makespanSlots: number;
  /** `searching` until the strategy returns, `finishing` (bounds, placement, the evaluator) after, `done` last. */
  phase?: 'searching' | 'finishing' | 'done';
  /** A lower bound on the makespan of every job (known before the search starts). */
  boundSlots?: number;
  /** (makespan - bound) / bound when every task is scheduled, else null: the gap to the bound so far. */
  gap?: number | null;
}

/**
 * What a solve optimises. `tasks-then-makespan` (Salamander Eq. 2-3, the default): more scheduled tasks
 * first, then a smaller makespan. `revenue` (two-stage paper Eq. 3): the largest total revenue, with
 * more scheduled tasks and then a smaller makespan only as tie-breakers.
 */
export type Objective = 'tasks-then-makespan' | 'revenue';
export const OBJECTIVES: readonly Objective[] = ['tasks-then-makespan', 'revenue'];

export type TransfersOption = 'priced' | 'ignored';
export const TRANSFERS_OPTIONS: readonly TransfersOption[] = ['priced', 'ignored'];

export interface SolveOptions extends BudgetRequest {
  strategy?: string;
  /** Default 'tasks-then-makespan'. Strategies without a revenue mode (rffd, ga, the list schedulers) ignore it. */
  objective?: Objective;
  /**
   * `ls` under maxIterations, when not every job fits: run this many independent episodes, each with its
   * own random stream and an equal share of the iterations, and keep the best, as a time budget of that
   * many episodes does (ls/restarts.ts). Default 1 (one search). Without an iteration limit the time left
   * decides the number of episodes and this is ignored.
   */
  episodes?: number;
  seed?: number;
  onProgress?: (p: Progress) => void;
  /** POSUM's alpha, beta, gamma (Eq. 5) for the `portfolio` strategy's choice among its members; default 1/1/1. */
  scoreWeights?: FcWeights;
  /** Place the reduces again over the nodes' links once the strategy is done (placement/shuffle-aware.ts); a priced plan needs none. */
  shuffleAware?: boolean;
  /**
   * `priced` (the default): when data moves (a rate, `network` or `bandwidthMbps`, and `blocks` to read or
   * `outputMB` to shuffle: model.ts movesData), the plan prices each task's fetch (FORMAT.md, Transfers priced
   * in plans). `ignored`: durations are compute alone, as before the network was priced; the plan's stats say
   * `transfers: "ignored"`.
   */
  transfers?: TransfersOption;
  /**
   * Re-planning: the plan being replaced (a `fallow.plan/v1` document, checked: ValidationError naming
   * `previous.…`). The new plan keeps each task where this one had it unless moving it improves the objective
   * (disruption is the last term), and its stats say how many moved (`stats.replan`). With the instance's
   * `frozen`, the started tasks are kept whatever this says.
   */
  previous?: unknown;
}

/** What a strategy sees: the model, its random generator and its budget. */
export interface StrategyContext {
  model: Model;
  objective: Objective;
  rng: Random;
  /** When to stop: the deadline, the iteration limit and the stop request (see Budget). */
  budget: Budget;
  /** SolveOptions.episodes: ls's episodes under an iteration limit (absent: one). */
  episodes?: number;
  /**
   * The budget of a strategy racing this one (auto's ls against exact): a strategy that proves its result
   * optimal requests its stop as soon as it knows, possibly from another thread (exact's solver threads),
   * so the race ends. Absent: nobody is waiting for a proof.
   */
  stopWhenOptimal?: Budget;
  /** A known lower bound on the makespan when everything is accepted (lets strategies stop early). */
  lowerBound: number;
  /**
   * Revenue objective: the engine's upper bound on any plan's revenue (bounds/revenue.ts), computed once
   * by solve(). A strategy called without it computes its own.
   */
  revenueUpper?: number;
  /**
   * The other registered strategies by name (undefined for an unknown name), for a strategy that runs
   * another (exact seeds its incumbent with ga and ls, auto races exact and ls, the revenue search seeds
   * with tps, edf and fifo). solve() fills it from the registry, so no strategy imports another's folder
   * or the registry; a context without it runs such a strategy without its partners.
   */
  strategy?: (name: string) => Strategy | undefined;
  report(iterations: number, scheduledTasks: number, makespanSlots: number): void;
  /** SolveOptions.scoreWeights: what `portfolio` weighs its members' scores with (absent: 1/1/1). */
  scoreWeights?: FcWeights;
}

export interface StrategyResult {
  schedule: Schedule;
  iterations: number;
  /** A proven lower bound on the makespan for the schedule's accepted set, when the strategy has one. */
  bound?: number;
  /** A proven upper bound on the revenue of any plan (revenue objective), when the strategy has one. */
  revenueBound?: number;
  /** True only when the strategy proved its objective optimal (both levels for tasks-then-makespan). */
  optimal?: boolean;
  /**
   * Chunk replicas the strategy decided itself (Cuckoo's WRR placement, Alg. 2); solve() uses them instead
   * of scheduler-driven placement (placeChunks, Salamander III-C). Tasks may then run remotely.
   */
  placement?: PlacementDoc[];
  stats?: Record<string, unknown>;
}

export interface Strategy {
  name: string;
  description: string;
  run(ctx: StrategyContext): Promise<StrategyResult> | StrategyResult;
}
