import { Model } from '../model/model';
import { earliestFinishAlone } from './makespan';

export interface RevenueBound {
  /** No feasible plan earns more (two-stage paper Eq. 3). */
  revenue: number;
  /** Sum over jobs of the best each can earn alone: onTime if it can end by its deadline, else late, else 0. */
  perJob: number;
  /** The per-job values packed into the cluster's capacity (fractional knapsack per metric, the tightest). */
  capacity: number;
}

/**
 * Upper bounds on the total revenue of any feasible plan. A job earns at most `onTime` when it can end by
 * its deadline running alone on the empty cluster, at most max(late, 0) when it can only end later (and
 * 0 when it cannot run at all, or is better rejected). Relaxing every other constraint but capacity, the
 * accepted jobs' demand-slots of each metric must fit in that metric's available area over the window:
 * a fractional knapsack per metric, whose optimum bounds the revenue; the smallest over metrics is kept.
 */
export function revenueBound(model: Model): RevenueBound {
  const value = bestValuePerJob(model);
  const perJob = value.reduce((a, b) => a + b, 0);
  let capacity = perJob;
  for (let m = 0; m < model.M; m++) capacity = Math.min(capacity, knapsackForMetric(model, value, m));
  return { revenue: capacity, perJob, capacity };
}

/** What each job can earn at best, alone on the empty cluster (never negative: rejection earns 0). */
export function bestValuePerJob(model: Model): number[] {
  const eft = new Int32Array(model.stages.length);
  return model.jobs.map((job, j) => {
    if (!job.hasRevenue) return 0;
    earliestFinishAlone(model, j, eft);
    let end = 0;
    for (const g of job.stages) end = Math.max(end, eft[g]);
    if (end > model.T) return 0;
    const onTimePossible = job.deadline < 0 || end <= job.deadline;
    return Math.max(0, onTimePossible ? Math.max(job.revenueOnTime, job.revenueLate) : job.revenueLate);
  });
}

/** Fractional knapsack: items are jobs (value, demand-slots of metric m at their fastest), capacity is the metric's area. */
function knapsackForMetric(model: Model, value: number[], m: number): number {
  const { T } = model;
  let area = 0;
  for (let k = 0; k < model.K; k++) for (let t = 0; t < T; t++) area += model.avail[k][m * T + t];
  const items: { v: number; w: number }[] = [];
  let free = 0;
  model.jobs.forEach((job, j) => {
    if (value[j] <= 0) return;
    let w = 0;
    for (const g of job.stages) w += model.stages[g].tasks * model.stages[g].demand[m] * model.stages[g].minDur;
    if (w <= 0) free += value[j];
    else items.push({ v: value[j], w });
  });
  items.sort((a, b) => b.v / b.w - a.v / a.w);
  let total = free;
  for (const it of items) {
    if (area <= 0) break;
    const take = Math.min(1, area / it.w);
    total += take * it.v;
    area -= take * it.w;
  }
  return total;
}
