import { Model } from '../model/model';

/**
 * Per stage, the longest chain of shortest durations after it within its job: a task of stage g must end
 * by (the job's due slot - tail[g]). The latest-finish priority rule and deadline cut-offs are built on it.
 */
export function stageTails(model: Model): Int32Array {
  const tail = new Int32Array(model.stages.length);
  for (const job of model.jobs)
    for (let x = job.stages.length - 1; x >= 0; x--) {
      const g = job.stages[x];
      let t = 0;
      for (const q of model.stages[g].succs) t = Math.max(t, tail[q] + model.stages[q].minDur);
      tail[g] = t;
    }
  return tail;
}

/**
 * Tasks by increasing latest finish time (the LFT priority rule, strong for makespan): a stage's LFT is
 * the horizon minus the longest chain of shortest durations after it.
 */
export function latestFinishOrder(model: Model): Int32Array {
  const tail = stageTails(model);
  const order = Array.from({ length: model.nTasks }, (_, i) => i);
  order.sort((a, b) => tail[model.taskStage[b]] - tail[model.taskStage[a]] || a - b);
  return Int32Array.from(order);
}
