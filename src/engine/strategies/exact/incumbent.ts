import { Model } from '../../model/model';
import { Random } from '../../random';
import { buildFromTaskOrder } from '../../schedule/sgs';
import { Schedule, better } from '../../schedule/schedule';
import { stageTails } from '../../schedule/tails';
import { rffdOnce } from '../../lists/job-orders';

/**
 * A quick warm start for the MILP: its makespan is the MILP's time horizon (every variable after it
 * is dropped), so a good one shrinks the model a lot. Tries RFFD and serial schedule generation with
 * latest-finish-time priorities (the classic strong RCPSP rule), then randomly perturbed versions of
 * that rule until `until` or until the schedule meets the lower bound.
 */
export interface IncumbentLimits {
  /** Absolute ms. */
  until: number;
  maxBuilds: number;
  /** Stop as soon as a schedule with every job in reaches this makespan. */
  lowerBound: number;
  signal?: AbortSignal;
  /** True when the strategy must stop now (its deadline, abort or stop flag): every build but the first gives up then. */
  stop?: () => boolean;
}

export function findIncumbent(model: Model, rng: Random, limits: IncumbentLimits): { schedule: Schedule; builds: number } {
  const { until, maxBuilds, lowerBound, signal } = limits;
  const stop = limits.stop ?? (() => signal?.aborted === true);
  // One build of a big instance can outlast `until` by itself: the perturbed ones give up there.
  const halt = () => Date.now() >= until || stop();
  let best = rffdOnce(model, rng);
  let builds = 1;
  const consider = (s: Schedule | null) => {
    if (!s) return;
    builds++;
    if (better(s.scheduledTasks(), s.makespan(), best.scheduledTasks(), best.makespan())) best = s;
  };
  const lft = latestFinish(model);
  const order = Array.from({ length: model.nTasks }, (_, i) => i);
  const key = new Float64Array(model.nTasks);
  const sortBy = () => Int32Array.from(order.sort((a, b) => key[a] - key[b] || a - b));
  for (let i = 0; i < model.nTasks; i++) key[i] = lft[model.taskStage[i]];
  consider(buildFromTaskOrder(model, sortBy(), rng, undefined, stop));
  let spread = 0;
  for (let i = 0; i < model.nTasks; i++) spread = Math.max(spread, model.stages[model.taskStage[i]].minDur);
  const proven = () => best.scheduledTasks() === model.nTasks && best.makespan() <= lowerBound;
  while (builds < maxBuilds && !halt() && !proven()) {
    // Noise of up to a few task lengths lets neighbouring activities swap while the LFT shape stays.
    const amp = spread * (0.5 + 2 * rng.next());
    for (let i = 0; i < model.nTasks; i++) key[i] = lft[model.taskStage[i]] + amp * rng.next();
    consider(buildFromTaskOrder(model, sortBy(), rng, undefined, halt));
  }
  return { schedule: best, builds };
}

/** Latest finish of each stage relative to the end of its job's longest tail (shortest durations). */
function latestFinish(model: Model): Float64Array {
  return Float64Array.from(stageTails(model), (t) => -t);
}
