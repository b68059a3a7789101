import { Model } from '../model/model';
import { LeastFetch } from '../network/least-fetch';

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
 * the horizon minus the longest chain of shortest durations after it. With priced transfers, by latest start
 * instead, each duration lengthened by the stage's expected fetch (expectedTails): the maps of a job whose
 * reduces have a long shuffle ahead go first, and those reduces right after them, so that their shuffle runs
 * while the other jobs' maps compute (by latest finish a reduce, with nothing after it, would go last of all).
 */
export function latestFinishOrder(model: Model): Int32Array {
  const tail = model.pricesTransfers ? expectedTails(model, true) : stageTails(model);
  const order = Array.from({ length: model.nTasks }, (_, i) => i);
  order.sort((a, b) => tail[model.taskStage[b]] - tail[model.taskStage[a]] || a - b);
  return Int32Array.from(order);
}

/**
 * stageTails with each later stage's shortest duration plus its expected fetch (`withOwn`: the stage's own
 * too, a latest start's tail): a heuristic for priorities,
 * not a bound (a bound may count no fetch: the least fetch is 0 when a task's inputs are all on its node).
 * The expected fetch of a stage's task is its share of every earlier stage's output, moved at the mean path
 * rate between two distinct nodes (network/links.ts's rule, over up to 64 nodes), one transfer after another.
 */
export function expectedTails(model: Model, withOwn = false): Int32Array {
  const secondsPerMB = meanSecondsPerMB(model);
  const fetch = model.stages.map((s) => {
    let mb = 0;
    for (const p of s.preds) mb += (model.stages[p].outputMB * model.stages[p].tasks) / s.tasks;
    return Math.ceil((mb * secondsPerMB) / model.slotSeconds - 1e-9);
  });
  const tail = new Int32Array(model.stages.length);
  for (const job of model.jobs)
    for (let x = job.stages.length - 1; x >= 0; x--) {
      const g = job.stages[x];
      let t = 0;
      for (const q of model.stages[g].succs) t = Math.max(t, tail[q] + model.stages[q].minDur + fetch[q]);
      tail[g] = t;
    }
  // `withOwn`: from the stage's latest start rather than its latest finish.
  if (withOwn) model.stages.forEach((s, g) => (tail[g] += s.minDur + fetch[g]));
  return tail;
}

function meanSecondsPerMB(model: Model): number {
  const least = new LeastFetch(model);
  const n = Math.min(model.K, 64);
  const step = model.K / n;
  let sum = 0;
  let pairs = 0;
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++) {
      if (a === b) continue;
      sum += least.transferSeconds(1, Math.floor(a * step), Math.floor(b * step));
      pairs++;
    }
  return pairs > 0 ? sum / pairs : 0;
}
