import { makespanBound } from '../../bounds/makespan';
import { Model } from '../../model/model';
import { workPerTask } from '../ga/operators';
import { Random } from '../../random';

/** Above this many jobs the set is not built: one bound check per job would cost more than it saves. */
export const MAX_BOUND_SET_JOBS = 500;

/**
 * Jobs by increasing work per task (the fewest task-slots per task first), ties by index, so that
 * every run and episode sees the same order.
 */
export function jobsByDensity(model: Model, jobs: readonly number[] = model.jobs.map((_, j) => j)): number[] {
  const work = workPerTask(model);
  return [...jobs].sort((a, b) => work[a] - work[b] || a - b);
}

/**
 * When not every job fits: the greedy set of jobs to aim at. The jobs are taken by increasing work per
 * task, each kept while the engine's lower bounds still let the kept set end inside the window. On the
 * MapReduce instances the packing bounds are tight enough that this set is close to the room there is:
 * on pc1-2500 at load 1.3 it holds 1,764 tasks, where the searches over all jobs stopped at 1,690-1,731,
 * because their moves readmit dense jobs one at a time and judge each on the spot.
 *
 * Returns the jobs outside the set (1 = barred), or null when the set would hold every job, the model
 * has too many jobs, or `stop` ends the scan. `horizon` (slots, at most T): the bound the kept set must
 * meet; a smaller one leaves slack for what the bounds do not see (pickTargetSet).
 */
export function greedyBoundSet(model: Model, stop: () => boolean, horizon = model.T): Uint8Array | null {
  const J = model.jobs.length;
  if (J > MAX_BOUND_SET_JOBS) return null;
  const accepted = new Uint8Array(J);
  let kept = 0;
  for (const j of jobsByDensity(model)) {
    if (stop()) return null;
    accepted[j] = 1;
    if (makespanBound(model, accepted).makespanSlots > horizon) accepted[j] = 0;
    else kept++;
  }
  if (kept === J) return null;
  return accepted.map((a) => 1 - a);
}

/** Later episodes draw their target set's horizon from the last TARGET_SLACK share of the window... */
const TARGET_SLACK = 0.03;
/** ... at most this many times before they keep the greedy set at T. */
const TARGET_DRAWS = 8;

/**
 * A target set for a later restart episode of ls (restarts.ts): the greedy set at a horizon drawn
 * from the last TARGET_SLACK of the window, when it holds more tasks than `aboveTasks` (the best
 * episode so far) and differs from every set in `used` (keys of barred masks); null when no draw
 * gives one. Why: the bounds accept sets a few percent larger than any search realises, and which
 * of the sets just inside the bound a search can realise is close to a lottery. On univ-2500 at
 * load 1.3, one 3.3-s episode on the greedy set at 480 slots reached 1,766-1,770 tasks, on the set at
 * 474 slots 1,728-1,730 and on the one at 473 slots 1,775-1,784 (seeds 1-2); the episodes' random
 * streams move the result far less than the set does. So the episodes after the first try other sets.
 */
export function pickTargetSet(
  model: Model,
  rng: Random,
  aboveTasks: number,
  used: Set<string>,
  stop: () => boolean,
): Uint8Array | null {
  const span = Math.max(1, Math.ceil(TARGET_SLACK * model.T));
  for (let d = 0; d < TARGET_DRAWS && !stop(); d++) {
    const barred = greedyBoundSet(model, stop, model.T - 1 - rng.int(span));
    if (!barred) continue;
    const key = barredKey(barred);
    let tasks = 0;
    for (let j = 0; j < barred.length; j++) if (!barred[j]) tasks += model.jobs[j].taskCount;
    if (tasks > aboveTasks && !used.has(key)) return barred;
  }
  return null;
}

/** A barred mask as a string, to tell sets apart. */
export function barredKey(barred: Uint8Array | null): string {
  return barred ? barred.join('') : '';
}
