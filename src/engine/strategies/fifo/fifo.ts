import { Model } from '../../model/model';
import { buildFromJobOrder } from '../../schedule/sgs';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';

/** Jobs by release slot, then instance order: the order Hadoop's FIFO scheduler admits them in. */
export function fifoOrder(model: Model): number[] {
  return model.jobs.map((_, j) => j).sort((a, b) => model.jobs[a].release - model.jobs[b].release || a - b);
}

/**
 * The two-stage paper's FIFO baseline (section 5): jobs in arrival order, each placed whole by the serial
 * list scheduler (tasks start as early as they fit, so later jobs backfill the gaps earlier ones leave).
 * Deadlines and revenues are ignored: every job that fits in the window runs. One deterministic build.
 */
export const fifo: Strategy = {
  name: 'fifo',
  description: 'FIFO baseline (two-stage paper section 5): jobs by release, list-scheduled whole, deadlines ignored',
  run(ctx: StrategyContext): StrategyResult {
    const schedule = buildFromJobOrder(ctx.model, fifoOrder(ctx.model), null);
    ctx.report(1, schedule.scheduledTasks(), schedule.makespan());
    return { schedule, iterations: 1 };
  },
};
