import { ACO_BP_DEFAULTS, AcoBpParams } from '../../aco-bp/params';
import { packOnce } from '../../aco-bp/plan-packing';
import { better } from '../../schedule/schedule';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';

/**
 * ACO-BP (Rathinaraja et al., seeds/003) as an offline strategy: the paper's decision (combinations per
 * bin, an ant colony per window of 10 bins, fairness, locality, preferred racks for reduces) repeated every
 * C_t of schedule time until the batch is placed (src/engine/aco-bp/plan-packing.ts). Anytime: the first
 * pass is the answer; while the budget lasts, further passes with other random ant walks keep the best.
 */
export const acoBp: Strategy = {
  name: 'aco-bp',
  description: 'ACO-BP: ant-colony 2D bin packing of map and reduce tasks with locality, fairness and preferred racks, decided every 20 s of schedule time',
  run(ctx: StrategyContext): StrategyResult {
    return runAcoBp(ctx, ACO_BP_DEFAULTS);
  },
};

export function runAcoBp(ctx: StrategyContext, params: AcoBpParams): StrategyResult {
  const stop = ctx.budget.deadlineCheck();
  // The first pass always completes: past the deadline its colonies stop searching and take their greedy path.
  const first = packOnce(ctx.model, ctx.rng, params, stop);
  let best = first.schedule;
  let bestTasks = best.scheduledTasks();
  let bestMs = best.makespan();
  let stats = first.stats;
  let iterations = 1;
  ctx.report(iterations, bestTasks, bestMs);
  while (!ctx.budget.stopNow(iterations) && !(bestTasks === ctx.model.nTasks && bestMs <= ctx.lowerBound)) {
    const next = packOnce(ctx.model, ctx.rng, params, stop);
    if (stop()) break; // cut short: not a whole pass
    iterations++;
    const tasks = next.schedule.scheduledTasks();
    const ms = next.schedule.makespan();
    if (better(tasks, ms, bestTasks, bestMs)) {
      best = next.schedule;
      bestTasks = tasks;
      bestMs = ms;
      stats = next.stats;
      ctx.report(iterations, bestTasks, bestMs);
    }
  }
  return { schedule: best, iterations, stats: { passes: iterations, ...stats } };
}
