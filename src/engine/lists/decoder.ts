import { MinHeap } from '../schedule/min-heap';
import { Model } from '../model/model';
import { Random } from '../random';
import { FetchPlanner } from '../schedule/fetch-planner';
import { FitHints } from '../schedule/fit-hints';
import { FitQueue } from '../schedule/fit-queue';
import { Profile } from '../schedule/profile';
import { Schedule } from '../schedule/schedule';

/**
 * Where a decode prefers each task (preferring()): a previous plan's node and start per task (-1: none) and,
 * optionally, the latest end at which keeping it there is still worth it (else it goes where it ends first).
 */
export interface Preferred {
  node: Int32Array;
  start: Int32Array;
  /**
   * The fetchSlots each task had (-1: none): kept where it is still at least the least fetch time, so that a
   * plan unchanged decodes to itself (the link load estimated in this decode's order could differ from the one
   * the previous plan was made in).
   */
  fetch?: Int32Array;
  until?: Int32Array;
}

/** Placements between two looks at the stop of stopWhen() (a power of two). */
const STOP_CHECK = 256;

/**
 * The serial schedule generation scheme of `buildFromTaskOrder` (earliest-finish node choice, eligible
 * task of highest priority first, a job that does not fit is rejected whole), rebuilt for a GA that
 * decodes thousands of chromosomes:
 * - buffers (profile, heap, counters) are allocated once and reused;
 * - per (stage, node) it remembers the earliest start still possible. A stage's earliest start is fixed
 *   once its predecessors are done and usage only grows while decoding, so a node's next fit for that
 *   stage can never be earlier than its last one: each node's timeline is scanned about once per stage
 *   instead of once per task. Unplacing a failed job frees capacity, so the memory is cleared then.
 * - without priced transfers, the node is chosen from a per-stage heap of the nodes by end (fit-queue.ts):
 *   only the node just committed to changes, so a task costs a short scan and a sift, not a loop over all K.
 * Without a generator it gives exactly `buildFromTaskOrder(model, order, null, skip)`'s schedule.
 */
export class Decoder {
  readonly profile: Profile;
  private readonly stageEnd: Int32Array;
  /** The node choice without priced transfers, and the memory of earlier fits (fit-queue.ts). */
  private readonly fits: FitQueue;
  private readonly touched: Uint8Array;
  private readonly pos: Int32Array;
  /**
   * The eligible tasks by priority, stage by stage: stage g's tasks to place, by position in the list, are
   * byPos[next[g] .. last[g]-1] (within its range from firstTask); the heap holds the eligible stages keyed by
   * the position of their next task (stageKey), which is the task of highest priority among all eligible ones.
   */
  private readonly byPos: Int32Array;
  private readonly next: Int32Array;
  private readonly last: Int32Array;
  private readonly stageKey: Int32Array;
  private readonly heap: MinHeap;
  private readonly waiting: Int32Array;
  private readonly left: Int32Array;
  private readonly placed: Int32Array;
  private readonly failed: Uint8Array;
  private readonly tried: Uint8Array;
  private readonly seq: Int32Array;
  /** With priced transfers (model.pricesTransfers): each task's fetch, planned before its compute (Builder's rule). */
  private readonly fetch: FetchPlanner | null;
  /** With priced transfers, the memory of scans per length (the fit memory's role; fit-hints.ts). */
  private readonly hints: FitHints | null;
  /** stopWhen(): asked every STOP_CHECK placements; when it says yes the decode ends at once, `aborted`. */
  private stop: (() => boolean) | null = null;
  /** The last decode was cut short by the stop (its `out` is partial: the caller must discard it). */
  aborted = false;
  /**
   * A re-plan (model.frozen): the job with frozen tasks that did not fit in the last decode, which then ended
   * at once (`aborted` too); -1 when none. Such a job may not be rejected: the caller decodes again with it first.
   */
  frozenUnfit = -1;
  /** Per job, the earliest start of its tasks: its release, and with frozen tasks not before nowSlot. */
  private readonly ready: Int32Array;
  /** preferring(): per task the node and start it had in a previous plan (-1: none), tried first. */
  private prefer: Preferred | null = null;

  constructor(readonly model: Model) {
    const S = model.stages.length;
    this.profile = new Profile(model);
    this.stageEnd = new Int32Array(S);
    this.fits = new FitQueue(model, this.profile, 'end');
    this.touched = new Uint8Array(model.K);
    this.pos = new Int32Array(model.nTasks);
    this.byPos = new Int32Array(model.nTasks);
    this.next = new Int32Array(S);
    this.last = new Int32Array(S);
    this.stageKey = new Int32Array(S);
    this.heap = new MinHeap(this.stageKey, S);
    this.waiting = new Int32Array(S);
    this.left = new Int32Array(S);
    this.placed = new Int32Array(S);
    this.failed = new Uint8Array(model.jobs.length);
    this.tried = new Uint8Array(model.jobs.length);
    // Placements in order: the main pass writes each task at most once (a job that fails there leaves its
    // placements behind, skipped when the order is written), and the retries at most once more.
    this.seq = new Int32Array(2 * model.nTasks);
    this.fetch = model.pricesTransfers ? new FetchPlanner(model) : null;
    this.hints = model.pricesTransfers ? new FitHints(model.stages.length, model.K, model.T) : null;
    const now = model.frozen ? model.frozen.now : 0;
    this.ready = Int32Array.from(model.jobs, (j) => Math.max(j.release, now));
  }

  /**
   * Decodes keeping tasks where a previous plan had them (re-planning, replan/): each task is placed as itself
   * (not as the next of its stage's interchangeable tasks), on its previous node at the later of its previous
   * start and its earliest start when it fits there, else where it ends first. null: the plain decode.
   */
  preferring(prefer: Preferred | null): void {
    this.prefer = prefer;
  }

  /**
   * Lets a decode end early when `stop` says so (then `aborted`): a priced decode of many thousands of tasks
   * takes long enough that a search waiting for it to end would overrun its deadline.
   */
  stopWhen(stop: (() => boolean) | null): void {
    this.stop = stop;
  }

  /**
   * Decodes `order` (a permutation of all task ids) into `out`, skipping jobs with skip[j] = 1.
   * With a generator, ties between nodes go to a random one (Alg. 1's random valid node).
   * Tasks of one stage are interchangeable, so the q-th placed task of stage g is stored as task
   * firstTask + q: `outOrder` (if given) receives the canonical chromosome of the result, accepted tasks
   * in placement order (decoding it again without a generator and with the rejected jobs skipped
   * reproduces `out`, unless a failed job pushed others around before it was removed) and then the tasks of
   * rejected jobs in their order in `order`. With `fill` (the GA's repair, not part of
   * buildFromTaskOrder), every job left out, skipped or failed, is tried once more after all the
   * others, in the order of its first task in `order`: room may be left at the end, and a failed job's
   * own partial placement, now removed, may have been what blocked it.
   */
  decode(order: ArrayLike<number>, skip: Uint8Array | null, rng: Random | null, out: Schedule, outOrder?: Int32Array, fill = false): void {
    const { model, pos, waiting, left, placed, failed, stageEnd } = this;
    const stages = model.stages;
    const S = stages.length;
    this.resetProfile();
    this.forget();
    stageEnd.fill(0);
    failed.fill(0);
    this.tried.fill(0);
    out.node.fill(-1);
    out.start.fill(-1);
    if (this.fetch) {
      this.fetch.reset();
      this.hints!.clear();
      out.fetch = out.fetch ? out.fetch.fill(0) : new Int32Array(model.nTasks);
    } else out.fetch = null;
    const frozen = model.frozen;
    for (let j = 0; j < model.jobs.length; j++) out.accepted[j] = skip && skip[j] && !frozen?.jobHas[j] ? 0 : 1;
    for (let p = 0; p < order.length; p++) pos[order[p]] = p;
    this.heap.clear();
    const { byPos, next, last } = this;
    for (let g = 0; g < S; g++) next[g] = last[g] = stages[g].firstTask;
    for (let p = 0; p < order.length; p++) {
      const i = order[p];
      const g = model.taskStage[i];
      // Frozen tasks are placed already (placeFrozen), never queued.
      if (!frozen?.free[g] || frozen.node[i] < 0) byPos[last[g]++] = i;
    }
    // Frozen tasks are where they are before anything else is placed; their stages wait for fewer tasks.
    let nSeq = frozen ? this.placeFrozen(out) : 0;
    for (let g = 0; g < S; g++) {
      left[g] = frozen?.free[g] ? frozen.free[g]!.length : stages[g].tasks;
      placed[g] = 0;
    }
    for (let g = 0; g < S; g++) {
      waiting[g] = 0;
      for (const p of stages[g].preds) if (left[p] > 0) waiting[g]++;
      if (waiting[g] === 0 && left[g] > 0 && out.accepted[stages[g].job]) this.pushStage(g);
    }
    this.aborted = false;
    this.frozenUnfit = -1;
    const prefer = this.prefer;
    const stop = this.stop;
    while (this.heap.size > 0) {
      if (stop && (nSeq & (STOP_CHECK - 1)) === 0 && nSeq > 0 && stop()) {
        this.aborted = true;
        return;
      }
      const g = this.heap.peek();
      const i = byPos[next[g]++];
      if (next[g] < last[g]) {
        this.stageKey[g] = pos[byPos[next[g]]];
        this.heap.resift();
      } else this.heap.pop();
      const j = stages[g].job;
      if (failed[j]) continue;
      const free = frozen?.free[g];
      const c = prefer ? this.placeAsPreferred(i, g, rng, out, prefer) : this.place(free ? free[placed[g]] : stages[g].firstTask + placed[g], g, rng, out);
      if (c < 0 && frozen?.jobHas[j]) {
        this.frozenUnfit = j;
        this.aborted = true;
        return;
      }
      if (c < 0) {
        failed[j] = 1;
        this.unplaceJob(j, out);
        continue;
      }
      placed[g]++;
      this.seq[nSeq++] = c;
      if (--left[g] === 0) for (const h of stages[g].succs) if (--waiting[h] === 0) this.pushStage(h);
    }
    const mainEnd = nSeq;
    if (fill)
      for (let p = 0; p < order.length; p++) {
        const j = model.taskJob[order[p]];
        if (!out.accepted[j] && !this.tried[j]) {
          this.tried[j] = 1;
          nSeq = this.retryJob(j, rng, out, nSeq);
        }
      }
    if (!outOrder) return;
    let p = 0;
    // Before mainEnd, placements of jobs that failed there were undone (filling may have placed them later).
    for (let q = 0; q < nSeq; q++) {
      const j = model.taskJob[this.seq[q]];
      if (out.accepted[j] && (q >= mainEnd || !failed[j])) outOrder[p++] = this.seq[q];
    }
    for (let q = 0; q < order.length; q++) if (!out.accepted[model.taskJob[order[q]]]) outOrder[p++] = order[q];
  }

  /** Places job j whole, stage by stage, after everything else; returns the new length of `seq`. */
  private retryJob(j: number, rng: Random | null, out: Schedule, nSeq: number): number {
    const model = this.model;
    const job = model.jobs[j];
    const start = nSeq;
    for (const g of job.stages) {
      const s = model.stages[g];
      for (let n = s.firstTask; n < s.firstTask + s.tasks; n++) {
        const c = this.place(n, g, rng, out);
        if (c < 0) {
          this.unplaceJob(j, out);
          return start;
        }
        this.seq[nSeq++] = c;
      }
    }
    out.accepted[j] = 1;
    return nSeq;
  }

  /** Puts every frozen task on its node at its start (model.frozen); returns how many, written to `seq`. */
  private placeFrozen(out: Schedule): number {
    const { model } = this;
    const fz = model.frozen!;
    let n = 0;
    for (const i of fz.tasks) {
      const g = model.taskStage[i];
      const k = fz.node[i];
      // Priced: the fetch it gave, else the least (what a priced plan must at least say); unpriced: none.
      const f = this.fetch ? (fz.fetch[i] >= 0 ? fz.fetch[i] : this.fetch.leastSlotsOf(i, k, out.node)) : 0;
      out.node[i] = k;
      out.start[i] = fz.start[i];
      const end = Math.min(model.T, fz.start[i] + f + model.stages[g].dur[k]);
      if (end > fz.start[i]) this.profile.add(k, g, fz.start[i], 1, end - fz.start[i]);
      this.fits.changed(k);
      if (this.fetch) {
        out.fetch![i] = f;
        this.fetch.reserve(i, k, fz.start[i], out.node);
      }
      if (end > this.stageEnd[g]) this.stageEnd[g] = end;
      this.seq[n++] = i;
    }
    return n;
  }

  /**
   * Places task i itself (preferring()): on the node it had at the later of its previous start and its
   * earliest start when it fits there for its whole length, else where it ends first (still as itself).
   */
  private placeAsPreferred(i: number, g: number, rng: Random | null, out: Schedule, prefer: Preferred): number {
    const k = prefer.node[i];
    if (k >= 0) {
      const model = this.model;
      const s = model.stages[g];
      const t = Math.max(this.earliest(g), prefer.start[i]);
      const f = !this.fetch ? 0 : prefer.fetch && prefer.fetch[i] >= 0 ? Math.max(prefer.fetch[i], this.fetch.leastSlotsOf(i, k, out.node)) : this.fetch.fetchSlots(i, k, t, out.node);
      const until = prefer.until ? Math.min(model.T, prefer.until[i]) : model.T;
      if (t + f + s.dur[k] <= until && this.scan(k, g, t, t, f + s.dur[k]) === t) {
        if (this.fetch) this.commitPriced(i, g, k, t, f, out, this.fetch);
        else this.commit(i, g, k, t, out);
        return i;
      }
    }
    return this.fetch ? this.placePriced(i, g, rng, out, this.fetch, true) : this.place(i, g, rng, out);
  }

  /** The earliest start of stage g's tasks now: its job's ready slot and its predecessors' ends. */
  private earliest(g: number): number {
    const s = this.model.stages[g];
    let est = this.ready[s.job];
    for (const p of s.preds) if (this.stageEnd[p] > est) est = this.stageEnd[p];
    return est;
  }

  private resetProfile(): void {
    for (let k = 0; k < this.model.K; k++) {
      this.profile.used[k].fill(0);
      this.profile.count[k].fill(0);
    }
  }

  /**
   * Earliest-finish placement of canonical task c of stage g (Builder.placeTask, 'earliestFinish'); returns
   * the task placed (c, or with priced transfers possibly a sibling whose block is on the chosen node), -1
   * when none fits.
   */
  private place(c: number, g: number, rng: Random | null, out: Schedule): number {
    if (this.fetch) return this.placePriced(c, g, rng, out, this.fetch);
    const K = this.model.K;
    // Ties go to the first node from a random one on (the generator is asked once per task, as always).
    const rot = rng && K > 1 ? rng.int(K) : -1;
    const k = this.fits.choose(g, this.earliest(g), rot, null);
    if (k < 0) return -1;
    this.commit(c, g, k, this.fits.start, out);
    return c;
  }

  /**
   * place() with priced transfers, as Builder's placePriced: per node, the task the planner picks and its fetch
   * priced at the earliest start found, re-priced there (up to a few times) when that start is later. No
   * memory of earlier fits: a task's length on a node now depends on its block and the links' load.
   */
  private placePriced(c0: number, g: number, rng: Random | null, out: Schedule, fetch: FetchPlanner, asItself = false): number {
    const model = this.model;
    const K = model.K;
    const T = model.T;
    const s = model.stages[g];
    const est = this.earliest(g);
    const rot = rng && K > 1 ? rng.int(K) : 0;
    const hints = this.hints!;
    let bestK = -1;
    let bestC = -1;
    let bestT = 0;
    let bestF = 0;
    let bestEnd = T + 1;
    for (let q = 0; q < K; q++) {
      const k = q + rot < K ? q + rot : q + rot - K;
      const d = s.dur[k];
      // Not even with no fetch could this node end the task first: skip pricing it.
      const lb = Math.max(est, hints.from(g, k, d, d)) + d;
      if (lb >= bestEnd) continue;
      const c = asItself ? c0 : fetch.taskFor(g, k, c0);
      // Nor with the least fetch it can have (only a strictly earlier end wins).
      if (FetchPlanner.boundFetches && lb + 1 >= bestEnd && lb + fetch.minFetchSlots(c, k, out.node) >= bestEnd) continue;
      let f = fetch.fetchSlots(c, k, est, out.node);
      let from = est;
      let t = -1;
      for (let tries = 0; tries < 4; tries++) {
        const last = Math.min(T - f - d, bestEnd - f - d - 1);
        const scanFrom = Math.max(from, hints.from(g, k, f + d, d));
        if (scanFrom > last) break;
        t = this.scan(k, g, scanFrom, last, f + d);
        if (t < 0) {
          hints.set(g, k, f + d, d, last + 1);
          break;
        }
        hints.set(g, k, f + d, d, t);
        if (t === from) break;
        const again = fetch.fetchSlots(c, k, t, out.node);
        if (again <= f) {
          f = again;
          break;
        }
        (f = again), (from = t), (t = -1);
      }
      if (t < 0) continue;
      (bestK = k), (bestC = c), (bestT = t), (bestF = f), (bestEnd = t + f + d);
    }
    if (bestK < 0) return -1;
    this.commitPriced(bestC, g, bestK, bestT, bestF, out, fetch);
    return bestC;
  }

  private commitPriced(c: number, g: number, k: number, t: number, f: number, out: Schedule, fetch: FetchPlanner): void {
    const end = t + f + this.model.stages[g].dur[k];
    this.profile.add(k, g, t, 1, end - t);
    this.fits.changed(k);
    out.node[c] = k;
    out.start[c] = t;
    out.fetch![c] = f;
    fetch.reserve(c, k, t, out.node);
    if (end > this.stageEnd[g]) this.stageEnd[g] = end;
  }

  private commit(c: number, g: number, k: number, t: number, out: Schedule): void {
    this.profile.add(k, g, t);
    this.fits.changed(k);
    out.node[c] = k;
    out.start[c] = t;
    const end = t + this.model.stages[g].dur[k];
    if (end > this.stageEnd[g]) this.stageEnd[g] = end;
  }

  /** First t in [f, last] such that slots t .. t+d-1 of node k all fit a task of stage g, or -1. */
  private scan(k: number, g: number, f: number, last: number, d: number): number {
    return this.fits.scan(k, g, f, last, d);
  }

  /**
   * Removes a job that did not fit. The nodes it used have room again, so what is remembered about
   * them (for every stage) is dropped; so is everything about the job's own stages, whose earliest
   * start may differ if the job is retried. Other nodes' memory stays valid.
   */
  private unplaceJob(j: number, out: Schedule): void {
    const model = this.model;
    const { K } = model;
    const job = model.jobs[j];
    const touched = this.touched;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
      const k = out.node[i];
      if (k < 0) continue;
      const g = model.taskStage[i];
      this.profile.remove(k, g, out.start[i], model.stages[g].dur[k] + (out.fetch ? out.fetch[i] : 0));
      touched[k] = 1;
    }
    this.fetch?.releaseJob(j);
    this.hints?.clear();
    for (let k = 0; k < K; k++) {
      if (!touched[k]) continue;
      touched[k] = 0;
      this.fits.freed(k);
    }
    for (const g of job.stages) this.stageEnd[g] = 0;
    out.reject(j);
  }

  private forget(): void {
    this.fits.reset();
  }

  private pushStage(g: number): void {
    if (this.next[g] === this.last[g]) return;
    this.stageKey[g] = this.pos[this.byPos[this.next[g]]];
    this.heap.push(g);
  }
}

/**
 * Objectives of a schedule: scheduled tasks, makespan, the sum of the accepted jobs' ends and of all
 * task ends, and a hash of its (stage, node, start) triples that does not depend on which of a stage's
 * identical tasks got which slot (to recognise copies).
 */
export function objectivesOf(
  model: Model,
  s: Schedule,
): { tasks: number; makespan: number; sumEnds: number; taskEnds: number; hash: number } {
  let tasks = 0;
  let makespan = 0;
  let sumEnds = 0;
  let taskEnds = 0;
  let hash = 0;
  for (let j = 0; j < model.jobs.length; j++) {
    if (!s.accepted[j]) continue;
    const job = model.jobs[j];
    tasks += job.taskCount;
    let e = 0;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
      const g = model.taskStage[i];
      const end = s.start[i] + (s.fetch ? s.fetch[i] : 0) + model.stages[g].dur[s.node[i]];
      taskEnds += end;
      if (end > e) e = end;
      // A sum of mixed triples: commutative, so the labelling of identical tasks does not matter.
      let h = Math.imul(g + 1, 0x9e3779b1) ^ Math.imul(s.node[i] + 7, 0x85ebca6b) ^ Math.imul(s.start[i] + 13, 0xc2b2ae35);
      h ^= h >>> 15;
      hash = (hash + Math.imul(h, 0x27d4eb2d)) | 0;
    }
    sumEnds += e;
    if (e > makespan) makespan = e;
  }
  return { tasks, makespan, sumEnds, taskEnds, hash };
}
