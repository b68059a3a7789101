import { JobModel, Model } from '../model/model';
import { Schedule } from './schedule';

/** Two-stage paper Eq. 2: what an accepted job ending at `end` earns (0 without a revenue function). */
export function jobRevenue(job: JobModel, end: number): number {
  if (!job.hasRevenue) return 0;
  return job.deadline < 0 || end <= job.deadline ? job.revenueOnTime : job.revenueLate;
}

/** Two-stage paper Eq. 3 over a schedule's accepted jobs (rejected jobs earn 0): what the evaluator computes. */
export function scheduleRevenue(model: Model, s: Schedule): number {
  let total = 0;
  for (let j = 0; j < model.jobs.length; j++) if (s.accepted[j]) total += jobRevenue(model.jobs[j], s.jobEnd(j));
  return total;
}
