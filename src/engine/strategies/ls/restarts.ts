import { Schedule, better } from '../../schedule/schedule';
import { StrategyContext, StrategyResult } from '../../contracts/strategy';

/**
 * When not every job fits, which jobs one search ends up accepting depends more on its random
 * stream than on its length: on the 2,500-task overloaded instances eight 3-s runs spread over about
 * 40 tasks, while a 10-s or 60-s run is no better than the median 3-s run (the task count settles in
 * the first seconds, then only the makespan moves). So the budget goes to independent episodes of
 * this length, at least, and the best of them is kept.
 */
const EPISODE_MIN_MS = 3000;
/** Larger instances need longer episodes for the subset and job-set phases to finish. */
const EPISODE_MS_PER_TASK = 1.2;

/**
 * How many independent episodes the search should run: one when everything fits (the makespan search
 * gains from one long run) or when the time left is shorter than two episodes. Under an iteration limit
 * the clock must not decide (the run is reproducible): ctx.episodes, one unless asked for more.
 */
export function episodeCount(ctx: StrategyContext, initial: Schedule): number {
  if (initial.scheduledTasks() === ctx.model.nTasks) return 1;
  if (Number.isFinite(ctx.budget.maxIterations)) return Math.max(1, Math.floor(ctx.episodes ?? 1));
  const episodeMs = Math.max(EPISODE_MIN_MS, EPISODE_MS_PER_TASK * ctx.model.nTasks);
  return Math.max(1, Math.floor((ctx.budget.deadline - Date.now()) / episodeMs));
}

interface EpisodeSummary {
  tasks: number;
  makespan: number;
  ms: number;
  /** Tasks of the set the episode aimed at (ls's stats.targetTasks), when it had one. */
  target?: number;
}

/**
 * Runs `search` `episodes` times, each on an equal share of the time left (under an iteration limit: of
 * the iterations, the time staying the backstop of every episode) with a random stream of its own and the
 * task count of the best episode before it (-1 for the first), and returns the best result (more tasks,
 * then a smaller makespan). Progress is reported only when it beats every earlier episode. An episode
 * that schedules every task ends the restarts: the time (or the iterations) left then goes to one search
 * continuing from it.
 */
export function restarts(
  ctx: StrategyContext,
  episodes: number,
  initial: Schedule,
  search: (sub: StrategyContext, initial: Schedule | null, bestTasks: number) => StrategyResult,
): StrategyResult {
  const { budget } = ctx;
  const start = Date.now();
  const span = budget.deadline - start;
  const limited = Number.isFinite(budget.maxIterations);
  let best: StrategyResult | null = null;
  let bestTasks = -1;
  let bestMs = Infinity;
  let iterations = 0;
  const summaries: EpisodeSummary[] = [];
  const report = (it: number, tasks: number, makespan: number) => {
    if (!better(tasks, makespan, bestTasks, bestMs)) return;
    bestTasks = tasks;
    bestMs = makespan;
    ctx.report(iterations + it, tasks, makespan);
  };
  for (let k = 0; k < episodes; k++) {
    const episodeStart = Date.now();
    const last = k === episodes - 1;
    // Each episode ends where its share ends: what an earlier one left unused goes to the later ones.
    const share = limited
      ? budget.with({ maxIterations: Math.floor(((k + 1) * budget.maxIterations) / episodes) - iterations })
      : budget.with({ deadline: last ? budget.deadline : start + Math.round(((k + 1) * span) / episodes) });
    const sub: StrategyContext = { ...ctx, budget: share, rng: ctx.rng.fork(), report };
    const r = search(sub, k === 0 ? initial : null, best ? best.schedule.scheduledTasks() : -1);
    iterations += r.iterations;
    const s = r.schedule;
    const target = r.stats?.targetTasks;
    summaries.push({
      tasks: s.scheduledTasks(),
      makespan: s.makespan(),
      ms: Date.now() - episodeStart,
      ...(typeof target === 'number' && { target }),
    });
    if (!best || better(s.scheduledTasks(), s.makespan(), best.schedule.scheduledTasks(), best.schedule.makespan())) best = r;
    report(0, s.scheduledTasks(), s.makespan());
    if (budget.stopNow(iterations)) break;
    if (s.scheduledTasks() === ctx.model.nTasks && !last) {
      // Everything fits after all: polish this schedule for the rest of the time instead.
      const polished = search({ ...ctx, budget: budget.with({ maxIterations: budget.maxIterations - iterations }), rng: ctx.rng.fork(), report }, s, s.scheduledTasks());
      iterations += polished.iterations;
      const p = polished.schedule;
      if (better(p.scheduledTasks(), p.makespan(), s.scheduledTasks(), s.makespan())) best = polished;
      break;
    }
  }
  return { ...best!, iterations, stats: { ...best!.stats, episodes: summaries } };
}
