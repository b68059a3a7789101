import { makespanBound } from '../bounds/makespan';
import { Model } from '../model/model';
import { Random } from '../random';
import { Schedule, better } from '../schedule/schedule';
import { latestFinishOrder } from '../schedule/tails';
import { Decoder } from '../lists/decoder';
import { densityJobOrder, encodeByStart, tasksOfJobs, workPerTask } from '../lists/operators';
import type { Budget } from '../budget/budget';
import { MAX_BOUND_SET_JOBS, jobsByDensity } from './bound-set';

/** Decodes tried per candidate set: the fixed orders below, then random tie-breaks of the first. */
const DECODES_PER_SET = 4;

/** Share of the time left (or of the iteration limit) a strategy gives the search... */
const SUBSET_SHARE = 0.2;
/** ... which stops sooner after this share of it (or these steps, under an iteration limit) with no gain. */
const SUBSET_STALL_SHARE = 0.1;
const SUBSET_STALL_STEPS = 500;

export interface SubsetLimits {
  /** Steps (bound checks + decodes) the search may use at most. */
  maxSteps: number;
  /** True at the deadline (checked between steps). */
  stop: () => boolean;
  /** True when the search has gone on too long without a better schedule (steps and ms since the last one). */
  stalled: (steps: number, ms: number) => boolean;
}

export interface SubsetOptions {
  /** Jobs outside the greedy bound set (greedyBoundSet): the search runs over the others first. */
  barred?: Uint8Array | null;
  /**
   * The depth-first order of the jobs. 'density' (by increasing work per task): the first complete set
   * is the greedy one and the sets after it differ in the sparse jobs, the ones worth trading.
   * 'tasks' (most tasks first): sets far from the greedy one, which is a trap on some instances (on
   * pc1-1200-overload its sets stop at 765 tasks, where ga's job orders reach 769-772).
   */
  order?: 'density' | 'tasks';
}

export interface SubsetResult {
  /** The best schedule found, or the incumbent when nothing beat it. */
  best: Schedule;
  steps: number;
  boundChecks: number;
  decodes: number;
  /** Every set with more tasks than `best` was visited: refuted by the bound or tried by the decoder. */
  complete: boolean;
}

/** The limits ls and ga run the search under: SUBSET_SHARE of what is left, reproducible under an iteration limit. */
export function subsetLimits(budget: Budget, stop: () => boolean): SubsetLimits {
  const limited = Number.isFinite(budget.maxIterations);
  const span = budget.deadline - Date.now();
  const phaseEnd = Date.now() + SUBSET_SHARE * span;
  return {
    maxSteps: limited ? Math.floor(SUBSET_SHARE * budget.maxIterations) : Infinity,
    stop: () => stop() || (!limited && Date.now() >= phaseEnd),
    stalled: (steps, ms) => (limited ? steps >= SUBSET_STALL_STEPS : ms >= SUBSET_STALL_SHARE * span),
  };
}

/**
 * Which jobs to accept, searched over the sets themselves with the engine's lower bounds as the filter.
 * When not every job fits, the task count is decided by the accepted set, and local moves reach a
 * better set only through long chains of ejections. Here a depth-first search over the jobs (by
 * increasing work per task by default, "accept" before "reject") keeps a set only while
 * makespanBound(set) fits in the horizon: a set the bound refutes cannot run, nor can any set
 * containing it (dropping jobs from a feasible schedule leaves a feasible schedule), so its whole
 * subtree is cut.
 * Sets that cannot beat the incumbent's task count even with every remaining job are cut as well. Each
 * complete set left (more tasks than the incumbent, not refuted) is handed to the serial decoder with
 * a few priority lists; the first that places every task of the set becomes the incumbent, which
 * raises the cut for the rest of the search. The bounds are tight on MapReduce instances (packing by
 * node and shape), so few sets survive: on univ-680 at load 1.3 (14 jobs, 8 outside the greedy set)
 * both passes below end complete after about 700 bound checks and 9 decodes, with 334 tasks, where
 * every other phase had stopped at 329-332.
 *
 * With `barred` (the jobs outside greedyBoundSet), the search first runs over the other jobs only, and
 * over all jobs only if that pass ends complete: on the 2,500-task overloaded instances the full tree
 * is far too large for the time (the search stalled at 1,590 tasks on pc1, 35 jobs), while the greedy
 * set's subsets give 1,700 within a few hundred bound checks.
 */
export function subsetSearch(
  model: Model,
  incumbent: Schedule,
  rng: Random,
  limits: SubsetLimits,
  { barred = null, order = 'density' }: SubsetOptions = {},
): SubsetResult {
  const J = model.jobs.length;
  const T = model.T;
  if (J > MAX_BOUND_SET_JOBS) return { best: incumbent, steps: 0, boundChecks: 0, decodes: 0, complete: false };
  const accepted = new Uint8Array(J);
  const skip = new Uint8Array(J);
  const decoder = new Decoder(model);
  const orders = candidateOrders(model, incumbent, rng);
  const trial = new Schedule(model);
  let best = incumbent;
  let bestTasks = incumbent.scheduledTasks();
  let steps = 0;
  let boundChecks = 0;
  let decodes = 0;
  let stopped = false;
  let improvedStep = 0;
  let improvedAt = Date.now();
  const outOfSteps = () => {
    if (!stopped && (steps >= limits.maxSteps || limits.stop() || limits.stalled(steps - improvedStep, Date.now() - improvedAt))) stopped = true;
    return stopped;
  };

  const fits = (): boolean => {
    steps++;
    boundChecks++;
    return makespanBound(model, accepted).makespanSlots <= T;
  };

  /** Decodes the accepted set with each order until one places all `tasks` of it. */
  const tryDecode = (tasks: number): void => {
    for (let j = 0; j < J; j++) skip[j] = accepted[j] ? 0 : 1;
    for (let a = 0; a < DECODES_PER_SET && !outOfSteps(); a++) {
      steps++;
      decodes++;
      const order = orders[Math.min(a, orders.length - 1)];
      decoder.decode(order, skip, a >= orders.length ? rng : null, trial);
      const got = trial.scheduledTasks();
      if (better(got, trial.makespan(), bestTasks, best.makespan())) {
        best = trial.clone();
        bestTasks = got;
        improvedStep = steps;
        improvedAt = Date.now();
      }
      if (got === tasks) return;
    }
  };

  /** Depth-first over `jobs` (every other job rejected); false when the limits stopped it. */
  const searchOver = (jobs: number[]): boolean => {
    const n = jobs.length;
    const suffix = new Int32Array(n + 1);
    for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + model.jobs[jobs[i]].taskCount;
    const visit = (i: number, tasks: number): void => {
      if (outOfSteps() || tasks + suffix[i] <= bestTasks) return;
      if (i === n) return tryDecode(tasks);
      const j = jobs[i];
      accepted[j] = 1;
      if (fits()) visit(i + 1, tasks + model.jobs[j].taskCount);
      accepted[j] = 0;
      visit(i + 1, tasks);
    };
    visit(0, 0);
    return !stopped;
  };
  const all =
    order === 'density' ? jobsByDensity(model) : model.jobs.map((_, j) => j).sort((a, b) => model.jobs[b].taskCount - model.jobs[a].taskCount || a - b);
  let complete = barred ? searchOver(all.filter((j) => !barred[j])) : true;
  if (complete) complete = searchOver(all);
  return { best, steps, boundChecks, decodes, complete };
}

/**
 * Priority lists for the decoder (jobs it skips are simply passed over): the incumbent's tasks by start
 * (its interleaving of maps and reduces), latest finish first, and jobs by increasing work per task.
 */
function candidateOrders(model: Model, incumbent: Schedule, rng: Random): Int32Array[] {
  const n = model.nTasks;
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  const byStart = new Int32Array(n);
  encodeByStart(incumbent, identity, byStart, new Int32Array(model.T + 2));
  const dense = new Int32Array(n);
  tasksOfJobs(model, densityJobOrder(model, workPerTask(model), rng), dense);
  return [latestFinishOrder(model), byStart, dense];
}
