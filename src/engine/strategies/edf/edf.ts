import { Model } from '../../model/model';
import { buildFromJobOrder } from '../../schedule/sgs';
import { Strategy, StrategyContext, StrategyResult } from '../strategy';

/** Jobs by deadline (jobs without one last), ties by release, then instance order. */
export function edfOrder(model: Model): number[] {
  const due = (j: number) => (model.jobs[j].deadline < 0 ? Infinity : model.jobs[j].deadline);
  return model.jobs.map((_, j) => j).sort((a, b) => due(a) - due(b) || model.jobs[a].release - model.jobs[b].release || a - b);
}

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
