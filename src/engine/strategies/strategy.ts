import { Model } from '../model/model';
import { Random } from '../random';
import { Schedule } from '../schedule/schedule';

export interface Progress {
  strategy: string;
  elapsedMs: number;
  iterations: number;
  scheduledTasks: number;
  makespanSlots: number;
}

export interface SolveOptions {
  strategy?: string;
  /** Wall-clock budget; the best plan is returned when it ends. Default 5000. */
  timeBudgetMs?: number;
  /** Stop after this many iterations instead (makes a solve reproducible for a seed). */
  maxIterations?: number;
  seed?: number;
  onProgress?: (p: Progress) => void;
  /** Aborting stops the search early; the best plan so far is still returned. */
  signal?: AbortSignal;
}

/** What a strategy sees: the model, its random generator and when to stop. */
export interface StrategyContext {
  model: Model;
  rng: Random;
  startedAt: number;
  /** Absolute time (ms since epoch) by which the strategy must return. */
  deadline: number;
  maxIterations: number;
  signal?: AbortSignal;
  /** A known lower bound on the makespan when everything is accepted (lets strategies stop early). */
  lowerBound: number;
  report(iterations: number, scheduledTasks: number, makespanSlots: number): void;
}

export interface StrategyResult {
  schedule: Schedule;
  iterations: number;
  /** A proven lower bound on the makespan for the schedule's accepted set, when the strategy has one. */
  bound?: number;
  /** True only when the strategy proved both objectives optimal. */
  optimal?: boolean;
  stats?: Record<string, unknown>;
}

export interface Strategy {
  name: string;
  description: string;
  run(ctx: StrategyContext): Promise<StrategyResult> | StrategyResult;
}

export function timeUp(ctx: StrategyContext, iterations: number): boolean {
  return iterations >= ctx.maxIterations || Date.now() >= ctx.deadline || ctx.signal?.aborted === true;
}
