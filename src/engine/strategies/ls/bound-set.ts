import { makespanBound } from '../../bounds/makespan';
import { Model } from '../../model/model';
import { workPerTask } from '../ga/operators';

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
 * has too many jobs, or `stop` ends the scan.
 */
export function greedyBoundSet(model: Model, stop: () => boolean): Uint8Array | null {
  const J = model.jobs.length;
  if (J > MAX_BOUND_SET_JOBS) return null;
  const accepted = new Uint8Array(J);
  let kept = 0;
  for (const j of jobsByDensity(model)) {
    if (stop()) return null;
    accepted[j] = 1;
    if (makespanBound(model, accepted).makespanSlots > model.T) accepted[j] = 0;
    else kept++;
  }
  if (kept === J) return null;
  return accepted.map((a) => 1 - a);
}
