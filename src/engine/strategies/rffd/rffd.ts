import { Model } from '../../model/model';
import { Random } from '../../random';
import { buildFromJobOrder } from '../../schedule/sgs';
import { Schedule, better } from '../../schedule/schedule';
import { deadlineCheck, Strategy, StrategyContext, StrategyResult, timeUp } from '../strategy';

/** Work of a job if it ran alone on the fastest nodes: the "execution time" Alg. 1 sorts by. */
export function jobLength(model: Model, j: number): number {
  let w = 0;
  for (const g of model.jobs[j].stages) w += model.stages[g].tasks * model.stages[g].minDur;
  return w;
}

/** Alg. 1 line 1: longest jobs first; equal lengths in random order. */
export function decreasingJobOrder(model: Model, rng: Random): number[] {
  const order = rng.shuffle(model.jobs.map((_, j) => j));
  const len = order.map((j) => jobLength(model, j));
  const byJob = new Float64Array(model.jobs.length);
  order.forEach((j, p) => (byJob[j] = len[p]));
  return order.sort((a, b) => byJob[b] - byJob[a]);
}

export function rffdOnce(model: Model, rng: Random): Schedule;
export function rffdOnce(model: Model, rng: Random, stop: () => boolean): Schedule | null;
export function rffdOnce(model: Model, rng: Random, stop?: () => boolean): Schedule | null {
  // Alg. 1 as published: the first slot at which a randomly chosen node can take the task.
  const order = decreasingJobOrder(model, rng);
  return stop ? buildFromJobOrder(model, order, rng, 'earliestStart', stop) : buildFromJobOrder(model, order, rng, 'earliestStart');
}

/**
 * Random First Fit Decreasing (Salamander Alg. 1). Anytime: one construction is the answer; while the
 * budget lasts it keeps building with fresh random choices and keeps the best.
 */
export const rffd: Strategy = {
  name: 'rffd',
  description: 'Random First Fit Decreasing (Salamander Alg. 1), restarted while the budget lasts',
  run(ctx: StrategyContext): StrategyResult {
    const { model, rng } = ctx;
    let best = rffdOnce(model, rng);
    let bestTasks = best.scheduledTasks();
    let bestMs = best.makespan();
    let iterations = 1;
    ctx.report(iterations, bestTasks, bestMs);
    const stop = deadlineCheck(ctx);
    while (!timeUp(ctx, iterations) && !(bestTasks === model.nTasks && bestMs <= ctx.lowerBound)) {
      // The first construction is the answer and always completes; later ones give up at the deadline.
      const s = rffdOnce(model, rng, stop);
      if (!s) break;
      iterations++;
      const tasks = s.scheduledTasks();
      const ms = s.makespan();
      if (better(tasks, ms, bestTasks, bestMs)) {
        best = s;
        bestTasks = tasks;
        bestMs = ms;
        ctx.report(iterations, bestTasks, bestMs);
      }
    }
    return { schedule: best, iterations };
  },
};
