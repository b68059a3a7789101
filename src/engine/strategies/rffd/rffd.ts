import { rffdOnce } from '../../lists/job-orders';
import { better } from '../../schedule/schedule';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';

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
    const stop = ctx.budget.deadlineCheck();
    while (!ctx.budget.stopNow(iterations) && !(bestTasks === model.nTasks && bestMs <= ctx.lowerBound)) {
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
