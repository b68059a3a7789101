import { edfOrder } from '../../lists/job-orders';
import { buildFromJobOrder } from '../../schedule/sgs';
import { Strategy, StrategyContext, StrategyResult } from '../../contracts/strategy';

/**
 * Earliest Deadline First, the two-stage paper's second baseline (section 5): the serial list scheduler
 * with jobs in deadline order. It runs every job that fits, late or not. One deterministic build.
 */
export const edf: Strategy = {
  name: 'edf',
  description: 'EDF baseline (two-stage paper section 5): jobs by deadline, list-scheduled whole',
  run(ctx: StrategyContext): StrategyResult {
    const schedule = buildFromJobOrder(ctx.model, edfOrder(ctx.model), null);
    ctx.report(1, schedule.scheduledTasks(), schedule.makespan());
    return { schedule, iterations: 1 };
  },
};
