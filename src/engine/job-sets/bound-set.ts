import { makespanBound } from '../bounds/makespan';
import { Model } from '../model/model';
import { workPerTask } from '../lists/operators';
import { Random } from '../random';

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
 * True when the bounds refute every job on its own: then no plan schedules a task, and the empty plan
 * is optimal. False as soon as one job passes, or when `stop` ends the scan.
 */
export function noJobFits(model: Model, stop: () => boolean): boolean {
  const accepted = new Uint8Array(model.jobs.length);
  for (let j = 0; j < model.jobs.length; j++) {
    if (stop()) return false;
    accepted[j] = 1;
    if (makespanBound(model, accepted).makespanSlots <= model.T) return false;
    accepted[j] = 0;
  }
  return true;
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
 * meet; a smaller one leaves slack for what the bounds do not see (TargetSets). `order`: the order
 * the jobs are scanned in (TargetSets draws noisy ones).
 */
export function greedyBoundSet(
  model: Model,
  stop: () => boolean,
  horizon = model.T,
  order: readonly number[] = jobsByDensity(model),
): Uint8Array | null {
  return greedyScan(model, stop, horizon, order)?.barred ?? null;
}

interface GreedyScan {
  /** As greedyBoundSet returns it. */
  barred: Uint8Array | null;
  /** Every horizon in [lo, hi] makes the same decisions, so gives the same set. */
  lo: number;
  hi: number;
}

/** greedyBoundSet's scan, with the range of horizons that give the same set; null when stopped or too many jobs. */
function greedyScan(model: Model, stop: () => boolean, horizon: number, order: readonly number[]): GreedyScan | null {
  const J = model.jobs.length;
  if (J > MAX_BOUND_SET_JOBS) return null;
  const accepted = new Uint8Array(J);
  let kept = 0;
  // A job is kept at any horizon from its check's bound up, refuted at any below: the decisions stay
  // the same from the largest bound kept to just under the smallest bound refuted.
  let lo = 0;
  let hi = model.T;
  for (const j of order) {
    if (stop()) return null;
    accepted[j] = 1;
    const b = makespanBound(model, accepted).makespanSlots;
    if (b > horizon) {
      accepted[j] = 0;
      hi = Math.min(hi, b - 1);
    } else {
      kept++;
      lo = Math.max(lo, b);
    }
  }
  return { barred: kept === J ? null : accepted.map((a) => 1 - a), lo, hi };
}

/** Later episodes draw their target set's horizon from the last TARGET_SLACK share of the window... */
const TARGET_SLACK = 0.03;
/** ... at most this many times, or of job orders by work per task times 1 +- TARGET_NOISE. */
const TARGET_DRAWS = 8;
const TARGET_NOISE = 0.2;

/**
 * Target sets for the later restart episodes of ls (restarts.ts): each holds more tasks than the best
 * episode so far and differs from the greedy set and every set handed out before. While the greedy
 * set (`greedy`, at T) holds more tasks than the best episode: greedy sets at horizons drawn from the
 * last TARGET_SLACK of the window. Once it holds no more (a trap: no episode on it can beat the best):
 * greedy sets at T over job orders with noisy work per task.
 * Why: the bounds accept sets a few percent larger than any search realises, and which of the sets
 * just inside the bound a search can realise is close to a lottery. On univ-2500 at load 1.3, one
 * 3.3-s episode on the greedy set at 480 slots reached 1,766-1,770 tasks, on the set at 474 slots
 * 1,728-1,730 and on the one at 473 slots 1,775-1,784 (seeds 1-2): the set moves the result far more
 * than the episode's random stream does. On pc1-1200-overload the greedy set holds 746 tasks and
 * episodes reach 765; no smaller horizon helps there, but noisy orders give sets of up to 779 tasks.
 * Noisy orders are not drawn while the greedy set can still win: on pc2-2500 at load 1.3 they cost
 * 6.6 tasks in the mean of seeds 1-5.
 * The scans by horizon are kept with the range of horizons each one stands for, so that a draw inside
 * a known range costs nothing: on pc2-2500 no horizon gives a larger set, and eight fresh scans of its
 * 29 jobs took 324 ms, a tenth of a 3.3-s episode; with the ranges the second episode's draws took
 * 221 ms and the third's 43 ms. The draws and the sets are the same either way.
 */
export class TargetSets {
  private readonly scans: GreedyScan[] = [];
  private readonly used = new Set<string>();
  private readonly greedyTasks: number;

  constructor(
    private readonly model: Model,
    greedy: Uint8Array,
  ) {
    this.used.add(barredKey(greedy));
    this.greedyTasks = setTasks(model, greedy);
  }

  /** The next target set above `aboveTasks`, or null when no draw gives one. */
  pick(rng: Random, aboveTasks: number, stop: () => boolean): Uint8Array | null {
    const { model } = this;
    const span = Math.max(1, Math.ceil(TARGET_SLACK * model.T));
    const noisy = this.greedyTasks <= aboveTasks;
    const work = noisy ? workPerTask(model) : null;
    for (let d = 0; d < TARGET_DRAWS && !stop(); d++) {
      const barred = work
        ? greedyBoundSet(model, stop, model.T, noisyOrder(work, rng))
        : this.atHorizon(model.T - 1 - rng.int(span), stop);
      if (!barred || setTasks(model, barred) <= aboveTasks) continue;
      const key = barredKey(barred);
      if (this.used.has(key)) continue;
      this.used.add(key);
      return barred;
    }
    return null;
  }

  /** greedyBoundSet at horizon `h`, from a scan already made when one stands for `h`. */
  atHorizon(h: number, stop: () => boolean): Uint8Array | null {
    const known = this.scans.find((s) => s.lo <= h && h <= s.hi);
    if (known) return known.barred;
    const scan = greedyScan(this.model, stop, h, jobsByDensity(this.model));
    if (!scan) return null;
    this.scans.push(scan);
    return scan.barred;
  }
}

/** Tasks of the jobs a barred mask leaves in. */
export function setTasks(model: Model, barred: Uint8Array): number {
  let tasks = 0;
  for (let j = 0; j < barred.length; j++) if (!barred[j]) tasks += model.jobs[j].taskCount;
  return tasks;
}

/** Jobs by work per task, each scaled by a random factor in 1 +- TARGET_NOISE. */
function noisyOrder(work: Float64Array, rng: Random): number[] {
  const key = work.map((w) => w * (1 + TARGET_NOISE * (2 * rng.next() - 1)));
  return Array.from(work, (_, j) => j).sort((a, b) => key[a] - key[b] || a - b);
}

/** A barred mask as a string, to tell sets apart. */
export function barredKey(barred: Uint8Array | null): string {
  return barred ? barred.join('') : '';
}
