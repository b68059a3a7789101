import { Model } from '../model/model';
import { Random } from '../random';
import { Schedule } from '../schedule/schedule';
import { jobLength } from './job-orders';

/**
 * Operators on chromosomes = task priority permutations (decoded by the SGS in decoder.ts, which makes
 * any permutation precedence- and capacity-feasible, so every child is a feasible schedule).
 */

/**
 * Order-based crossover OX2 (Syswerda): each position of p2 is selected with probability `rate`; the
 * child is p1 in which the tasks selected in p2 are rewritten, in the slots p1 holds them in, in the
 * order p2 has them. The other tasks keep p1's positions. The child is a permutation whenever the
 * parents are permutations of the same set. `mark` (all 0, length n) and `buf` are scratch.
 */
export function ox2(p1: Int32Array, p2: Int32Array, rate: number, rng: Random, child: Int32Array, mark: Uint8Array, buf: Int32Array): void {
  const n = p1.length;
  let nSel = 0;
  for (let q = 0; q < n; q++) {
    if (rng.next() < rate) {
      buf[nSel++] = p2[q];
      mark[p2[q]] = 1;
    }
  }
  let r = 0;
  for (let q = 0; q < n; q++) {
    const x = p1[q];
    if (mark[x]) {
      child[q] = buf[r++];
      mark[x] = 0;
    } else child[q] = x;
  }
}

/** Moves the element at position `from` to position `to`, shifting the ones between (insertion move). */
export function moveElement(order: Int32Array, from: number, to: number): void {
  const x = order[from];
  if (from < to) order.copyWithin(from, from + 1, to + 1);
  else if (to < from) order.copyWithin(to + 1, to, from);
  order[to] = x;
}

/**
 * "Move random tasks": `count` insertion moves of a random task to a random position at most `reach`
 * positions away (the decoder repairs precedence, so any position is valid).
 */
export function moveRandomTasks(order: Int32Array, count: number, reach: number, rng: Random): void {
  const n = order.length;
  for (let c = 0; c < count; c++) {
    const from = rng.int(n);
    const lo = Math.max(0, from - reach);
    const hi = Math.min(n - 1, from + reach);
    moveElement(order, from, lo + rng.int(hi - lo + 1));
  }
}

/**
 * Permutation form of Alg. 2's "try to reduce the makespan": each task of `critical` (tasks ending at
 * the makespan and their stage-mates) is moved earlier in the priority list by a random distance, so
 * the decoder serves it before the tasks that delayed it.
 */
export function advanceTasks(order: Int32Array, tasks: readonly number[], reach: number, rng: Random, where: Int32Array): void {
  for (let p = 0; p < order.length; p++) where[order[p]] = p;
  for (const i of tasks) {
    const from = where[i];
    const to = Math.max(0, from - 1 - rng.int(reach));
    moveElement(order, from, to);
    for (let p = to; p <= from; p++) where[order[p]] = p;
  }
}

/**
 * Moves every task of job j `shift` positions earlier (or to the front), keeping their relative order:
 * a job ends late when its earlier stages run late, and moving only its last tasks cannot start them
 * sooner than those stages allow.
 */
export function advanceJob(model: Model, order: Int32Array, j: number, shift: number): void {
  let placed = 0; // the job's tasks already moved sit at the front-most positions they may take
  for (let p = 0; p < order.length; p++) {
    if (model.taskJob[order[p]] !== j) continue;
    const to = Math.max(placed, p - shift);
    moveElement(order, p, to);
    placed = to + 1;
  }
}

/**
 * Moves all tasks of job j to the end of the list (in their current relative order), so a job that is
 * readmitted takes the room left by the others and, if it does not fit, disturbs nobody.
 */
export function moveJobToEnd(model: Model, order: Int32Array, j: number, buf: Int32Array): void {
  let a = 0;
  let b = 0;
  for (let p = 0; p < order.length; p++) {
    if (model.taskJob[order[p]] === j) buf[b++] = order[p];
    else order[a++] = order[p];
  }
  order.set(buf.subarray(0, b), a);
}

/**
 * Chromosome of a schedule: accepted tasks by start slot (ties keep their order in `prev`), then the
 * tasks of rejected jobs in their order in `prev`. Counting sort: O(n + T). `count` has length T + 1.
 */
export function encodeByStart(s: Schedule, prev: Int32Array, out: Int32Array, count: Int32Array): void {
  const model = s.model;
  count.fill(0);
  let nAcc = 0;
  for (let p = 0; p < prev.length; p++) {
    const i = prev[p];
    if (s.accepted[model.taskJob[i]]) {
      count[s.start[i] + 1]++;
      nAcc++;
    }
  }
  for (let t = 1; t < count.length; t++) count[t] += count[t - 1];
  let tail = nAcc;
  for (let p = 0; p < prev.length; p++) {
    const i = prev[p];
    if (s.accepted[model.taskJob[i]]) out[count[s.start[i]]++] = i;
    else out[tail++] = i;
  }
}

/**
 * Acceptance mutation on a chromosome whose parent accepted the jobs in `accepted` (`skip` holds their
 * complement and is updated): readmit one rejected job, or reject a random accepted job and readmit all
 * the rejected ones (how two small jobs can replace a big one). Readmitted jobs go to the end of the list
 * so they take the room the others leave. `workPerTask` (Alg. 1's job length per task) picks the job
 * to drop: the one with more work per task frees the most room per task lost (binary tournament).
 */
export function toggleJobs(
  model: Model,
  accepted: Uint8Array,
  order: Int32Array,
  skip: Uint8Array,
  workPerTask: Float64Array,
  rng: Random,
  buf: Int32Array,
): void {
  const rejected: number[] = [];
  const kept: number[] = [];
  model.jobs.forEach((_, j) => (accepted[j] ? kept : rejected).push(j));
  rng.shuffle(rejected);
  if (rng.next() < 0.5 || kept.length === 0) rejected.length = Math.min(1, rejected.length);
  else {
    const a = rng.pick(kept);
    const b = rng.pick(kept);
    skip[workPerTask[a] >= workPerTask[b] ? a : b] = 1;
    // Half of the time the cheapest jobs (least work per task) are readmitted first.
    if (rng.next() < 0.5) rejected.sort((x, y) => workPerTask[x] - workPerTask[y]);
  }
  for (const j of rejected) {
    skip[j] = 0;
    moveJobToEnd(model, order, j, buf);
  }
}

/** Alg. 1's job length divided by the job's tasks: what a job costs per scheduled task. */
export function workPerTask(model: Model): Float64Array {
  return Float64Array.from(model.jobs, (job, j) => jobLength(model, j) / job.taskCount);
}

/** Jobs by increasing work per task, equal ones in random order: the greedy answer to "most tasks in the room there is". */
export function densityJobOrder(model: Model, work: Float64Array, rng: Random): number[] {
  return rng.shuffle(model.jobs.map((_, j) => j)).sort((a, b) => work[a] - work[b]);
}

/** Writes the tasks of `jobs`, job by job, into `out` (a chromosome when `jobs` holds every job). */
export function tasksOfJobs(model: Model, jobs: readonly number[], out: Int32Array): void {
  let p = 0;
  for (const j of jobs) for (let i = 0; i < model.jobs[j].taskCount; i++) out[p++] = model.jobs[j].firstTask + i;
}
