import { Model } from '../model/model';
import { Random } from '../random';
import { FetchPlanner } from './fetch-planner';
import { FitHints } from './fit-hints';
import { FitQueue } from './fit-queue';
import { MinHeap } from './min-heap';
import { Profile } from './profile';
import { Schedule } from './schedule';

/**
 * Serial schedule generation: tasks are placed one at a time at their earliest feasible start on any
 * node (Salamander Alg. 1 lines 4-12: the first slot in [tsMin, tsMax] at which a node can take the task,
 * a random one among those that can). A job whose task finds no room is rejected whole (Eq. 5).
 */
export class Builder {
  readonly profile: Profile;
  readonly schedule: Schedule;
  /** Latest end of the placed tasks of each stage. */
  readonly stageEnd: Int32Array;
  private readonly nodeOrder: Int32Array;
  /**
   * hint[g * K + k]: no task of stage g fits on node k before this slot. Valid because the builder only
   * adds load (until a job is undone, which clears it), so identical tasks of a big stage do not rescan
   * the slots their siblings already filled.
   */
  private readonly hint: Int32Array;
  /** With priced transfers (model.pricesTransfers): each task's fetch, planned before its compute. */
  private readonly fetch: FetchPlanner | null;
  /** With priced transfers, the memory of scans per length (hint's role; fit-hints.ts). */
  private readonly hints: FitHints | null;
  /**
   * useFitQueue(): the node choice without priced transfers from per-stage heaps of nodes (fit-queue.ts), the
   * same choice without a loop over every node per task. Only for a builder whose profile changes through it.
   */
  private fits: FitQueue | null = null;

  /**
   * `earliestStart` follows Alg. 1 literally (first slot at which some node fits); `earliestFinish`
   * picks the node on which the task ends first, which matters on heterogeneous nodes where waiting for
   * a fast node beats starting at once on a slow one. `priced` (default: the model's pricesTransfers) plans
   * each task's fetch (fetch-planner.ts): it holds the node from the task's start, and the node on which the
   * task ends first counts it, so maps go where their blocks are and reduces where their shuffle is cheap.
   */
  constructor(
    readonly model: Model,
    private readonly rng: Random | null,
    private readonly rule: 'earliestStart' | 'earliestFinish' = 'earliestFinish',
    priced = model.pricesTransfers,
  ) {
    this.profile = new Profile(model);
    this.schedule = new Schedule(model);
    this.fetch = priced ? new FetchPlanner(model) : null;
    this.hints = priced ? new FitHints(model.stages.length, model.K, model.T) : null;
    if (priced) this.schedule.fetch = new Int32Array(model.nTasks);
    this.stageEnd = new Int32Array(model.stages.length);
    this.nodeOrder = Int32Array.from({ length: model.K }, (_, k) => k);
    this.hint = new Int32Array(model.stages.length * model.K);
  }

  /**
   * Chooses nodes through a FitQueue from now on (same schedules, faster on many nodes). The caller promises
   * that the profile changes only through placeTask, placeJob and unplaceJob.
   */
  useFitQueue(): this {
    if (!this.fetch && !this.fits) this.fits = new FitQueue(this.model, this.profile, this.rule === 'earliestStart' ? 'startLength' : 'end');
    return this;
  }

  /** Earliest start of a task of stage g given its job's release and the ends of its predecessor stages. */
  earliestStart(g: number): number {
    const s = this.model.stages[g];
    let est = this.model.jobs[s.job].release;
    for (const p of s.preds) if (this.stageEnd[p] > est) est = this.stageEnd[p];
    return est;
  }

  /**
   * Places task i at the earliest slot >= est (and <= latest) where some node fits it; among the
   * nodes that fit at that slot, a random one (or the fastest, without a generator). False if none.
   */
  placeTask(i: number, est: number, latest = this.model.T): boolean {
    if (this.fetch) return this.placePriced(i, est, latest, this.fetch);
    const g = this.model.taskStage[i];
    const s = this.model.stages[g];
    const order = this.nodeOrder;
    if (this.rng) this.rng.shuffleInts(order);
    const fits = this.fits;
    if (fits && latest >= this.model.T) {
      // Ties between nodes go to the first in the shuffled order, as in the loop below.
      const k = fits.choose(g, est, -1, this.rng ? order : null);
      if (k < 0) return false;
      this.commit(i, g, k, fits.start);
      return true;
    }
    let bestK = -1;
    let bestT = latest + 1;
    let bestEnd = Infinity;
    const byFinish = this.rule === 'earliestFinish';
    const K = this.model.K;
    const T = this.model.T;
    for (const k of order) {
      const from = Math.max(est, this.hint[g * K + k]);
      const limit = byFinish ? Math.min(latest, bestEnd - s.dur[k] - 1) : bestT;
      const t = this.profile.earliestFit(k, g, from, limit);
      if (t < 0) {
        // Every start from `from` up to the limit was ruled out: later siblings need not scan them again
        // (without this, nodes that lose to a better one rescan their whole timeline for every task).
        const last = Math.min(limit, T - s.dur[k]);
        if (last >= from) this.hint[g * K + k] = last + 1;
        continue;
      }
      this.hint[g * K + k] = t;
      // Ties go to the node that finishes first (earliestStart) or starts first (earliestFinish).
      const end = t + s.dur[k];
      if (byFinish ? end < bestEnd || (end === bestEnd && t < bestT) : t < bestT || (t === bestT && end < bestEnd)) {
        bestK = k;
        bestT = t;
        bestEnd = end;
      }
    }
    if (bestK < 0) return false;
    this.commit(i, g, bestK, bestT);
    return true;
  }

  private commit(i: number, g: number, k: number, t: number): void {
    this.profile.add(k, g, t);
    this.fits?.changed(k);
    this.schedule.node[i] = k;
    this.schedule.start[i] = t;
    const end = t + this.model.stages[g].dur[k];
    if (end > this.stageEnd[g]) this.stageEnd[g] = end;
  }

  /**
   * placeTask with priced transfers: on each node, the task of i's stage the planner picks for it (one whose
   * block is there when one is, so task i itself or a sibling), at the earliest start where its fetch and
   * compute fit, its fetch priced at that start (a later start may see other link load: re-priced, up to a
   * few times, and kept only when the fetch at the found start is no longer than the one fitted).
   */
  private placePriced(i: number, est: number, latest: number, fetch: FetchPlanner): boolean {
    const { model, profile } = this;
    const g = model.taskStage[i];
    const s = model.stages[g];
    const order = this.nodeOrder;
    if (this.rng) this.rng.shuffleInts(order);
    const byFinish = this.rule === 'earliestFinish';
    const nodeOf = this.schedule.node;
    const hints = this.hints!;
    let bestK = -1;
    let bestC = -1;
    let bestT = latest + 1;
    let bestF = 0;
    let bestEnd = Infinity;
    for (const k of order) {
      const d = s.dur[k];
      // No start before this one (no fit of the compute alone earlier).
      const lb = Math.max(est, hints.from(g, k, d, d));
      // Not even with no fetch could this node end (by start: start) the task first: skip pricing it.
      if (byFinish ? lb + d >= bestEnd : lb > bestT) continue;
      const c = fetch.taskFor(g, k, i);
      // Nor with the least fetch it can have (FetchPlanner.minFetchSlots): by finish only a strictly earlier end
      // wins (the scan below looks no further), by start only an earlier start or the same one ending earlier.
      if (FetchPlanner.boundFetches && bestK >= 0 && lb + d + 1 >= bestEnd && (byFinish || lb === bestT) && lb + d + fetch.minFetchSlots(c, k, nodeOf) >= bestEnd) continue;
      let f = fetch.fetchSlots(c, k, est, nodeOf);
      let t = -1;
      let from = est;
      for (let tries = 0; tries < 4; tries++) {
        const limit = byFinish ? Math.min(latest, bestEnd - f - d - 1) : Math.min(latest, bestT);
        const scanFrom = Math.max(from, hints.from(g, k, f + d, d));
        t = profile.earliestFit(k, g, scanFrom, limit, f + d);
        if (t < 0) {
          const last = Math.min(limit, model.T - f - d);
          if (last >= scanFrom) hints.set(g, k, f + d, d, last + 1);
          break;
        }
        hints.set(g, k, f + d, d, t);
        if (t === from) break;
        const again = fetch.fetchSlots(c, k, t, nodeOf);
        if (again <= f) {
          f = again;
          break;
        }
        (f = again), (from = t), (t = -1);
      }
      if (t < 0) continue;
      const end = t + f + d;
      if (byFinish ? end < bestEnd || (end === bestEnd && t < bestT) : t < bestT || (t === bestT && end < bestEnd))
        (bestK = k), (bestC = c), (bestT = t), (bestF = f), (bestEnd = end);
    }
    if (bestK < 0) return false;
    profile.add(bestK, g, bestT, 1, bestF + s.dur[bestK]);
    this.schedule.node[bestC] = bestK;
    this.schedule.start[bestC] = bestT;
    this.schedule.fetch![bestC] = bestF;
    fetch.reserve(bestC, bestK, bestT, nodeOf);
    if (bestEnd > this.stageEnd[g]) this.stageEnd[g] = bestEnd;
    return true;
  }

  /** Places every task of job j stage by stage; on failure undoes the job and leaves it rejected. */
  placeJob(j: number): boolean {
    const job = this.model.jobs[j];
    for (const g of job.stages) {
      const s = this.model.stages[g];
      for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
        if (!this.placeTask(i, this.earliestStart(g))) {
          this.unplaceJob(j);
          return false;
        }
      }
    }
    this.schedule.accepted[j] = 1;
    return true;
  }

  unplaceJob(j: number): void {
    const job = this.model.jobs[j];
    const { node, start, fetch } = this.schedule;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
      if (node[i] < 0) continue;
      const g = this.model.taskStage[i];
      this.profile.remove(node[i], g, start[i], this.model.stages[g].dur[node[i]] + (fetch ? fetch[i] : 0));
    }
    const fits = this.fits;
    if (fits) {
      const seen = new Uint8Array(this.model.K);
      for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++)
        if (node[i] >= 0 && !seen[node[i]]) (seen[node[i]] = 1), fits.freed(node[i]);
    }
    this.fetch?.releaseJob(j);
    for (const g of job.stages) this.stageEnd[g] = 0;
    this.hint.fill(0);
    this.hints?.clear();
    this.schedule.reject(j);
  }
}

/**
 * One construction takes ~50-100 ms with 7,000 tasks on 100 nodes, and grows with both: the builders
 * below take an optional `stop`, asked every STOP_CHECK_TASKS tasks (every job for whole jobs), and
 * when it says yes they give up and return null, so that a deadline or a stop flag is honoured mid-way.
 */
const STOP_CHECK_TASKS = 32;

/** Builds a schedule by placing whole jobs in the given order (Alg. 1). */
export function buildFromJobOrder(model: Model, jobOrder: readonly number[], rng: Random | null, rule?: 'earliestStart' | 'earliestFinish'): Schedule;
export function buildFromJobOrder(
  model: Model,
  jobOrder: readonly number[],
  rng: Random | null,
  rule: 'earliestStart' | 'earliestFinish' | undefined,
  stop: () => boolean,
): Schedule | null;
export function buildFromJobOrder(
  model: Model,
  jobOrder: readonly number[],
  rng: Random | null,
  rule: 'earliestStart' | 'earliestFinish' = 'earliestFinish',
  stop?: () => boolean,
): Schedule | null {
  const b = new Builder(model, rng, rule).useFitQueue();
  let placed = 0;
  for (const j of jobOrder) {
    if (stop && (placed += model.jobs[j].taskCount) >= STOP_CHECK_TASKS) {
      placed = 0;
      if (stop()) return null;
    }
    b.placeJob(j);
  }
  return b.schedule;
}

/**
 * Decodes a task priority list (any permutation of task ids; lower position = higher priority) into a
 * schedule. The list is first made precedence-feasible by always taking the eligible task of highest
 * priority, so any permutation (e.g. one produced by crossover) decodes to a feasible schedule.
 * Jobs in `skip` are not scheduled; a job whose task finds no room is rejected whole.
 */
export function buildFromTaskOrder(model: Model, order: ArrayLike<number>, rng: Random | null, skip?: Uint8Array): Schedule;
export function buildFromTaskOrder(
  model: Model,
  order: ArrayLike<number>,
  rng: Random | null,
  skip: Uint8Array | undefined,
  stop: () => boolean,
): Schedule | null;
export function buildFromTaskOrder(
  model: Model,
  order: ArrayLike<number>,
  rng: Random | null,
  skip?: Uint8Array,
  stop?: () => boolean,
): Schedule | null {
  const b = new Builder(model, rng).useFitQueue();
  const n = model.nTasks;
  const pos = new Int32Array(n);
  for (let p = 0; p < order.length; p++) pos[order[p]] = p;
  // Stage-level eligibility: a stage's tasks become eligible when all its predecessor stages are done.
  const waiting = new Int32Array(model.stages.length);
  const left = new Int32Array(model.stages.length);
  model.stages.forEach((s, g) => ((waiting[g] = s.preds.length), (left[g] = s.tasks)));
  const heap = new MinHeap(pos, n);
  const failed = new Uint8Array(model.jobs.length);
  for (let j = 0; j < model.jobs.length; j++) if (!skip?.[j]) b.schedule.accepted[j] = 1;
  model.stages.forEach((s, g) => {
    if (waiting[g] === 0 && !skip?.[s.job]) for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) heap.push(i);
  });
  let placed = 0;
  while (heap.size > 0) {
    if (stop && ++placed % STOP_CHECK_TASKS === 0 && stop()) return null;
    const i = heap.pop();
    const g = model.taskStage[i];
    const j = model.taskJob[i];
    if (failed[j]) continue;
    if (!b.placeTask(i, b.earliestStart(g))) {
      failed[j] = 1;
      b.unplaceJob(j);
      continue;
    }
    if (--left[g] === 0)
      for (const h of model.stages[g].succs)
        if (--waiting[h] === 0) {
          const s = model.stages[h];
          for (let t = s.firstTask; t < s.firstTask + s.tasks; t++) heap.push(t);
        }
  }
  return b.schedule;
}
