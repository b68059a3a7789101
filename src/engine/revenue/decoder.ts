import { Model } from '../model/model';
import { jobRevenue } from '../schedule/revenue';
import { Schedule } from '../schedule/schedule';
import { Builder } from '../schedule/sgs';
import { stageTails } from '../schedule/tails';

/** What a decoded job order earns, compared lexicographically: revenue, then tasks, then compactness. */
export interface RevenueScore {
  revenue: number;
  tasks: number;
  makespan: number;
  sumEnds: number;
}

/** Negative when a is better than b. Revenues within a relative 1e-9 count as equal (float sums). */
export function compareRevenue(a: RevenueScore, b: RevenueScore): number {
  const eps = 1e-9 * Math.max(1, Math.abs(a.revenue), Math.abs(b.revenue));
  if (Math.abs(a.revenue - b.revenue) > eps) return b.revenue - a.revenue;
  if (a.tasks !== b.tasks) return b.tasks - a.tasks;
  if (a.makespan !== b.makespan) return a.makespan - b.makespan;
  return a.sumEnds - b.sumEnds;
}

export function scoreOf(model: Model, s: Schedule): RevenueScore {
  let revenue = 0;
  let tasks = 0;
  let makespan = 0;
  let sumEnds = 0;
  model.jobs.forEach((job, j) => {
    if (!s.accepted[j]) return;
    const end = s.jobEnd(j);
    revenue += jobRevenue(job, end);
    tasks += job.taskCount;
    makespan = Math.max(makespan, end);
    sumEnds += end;
  });
  return { revenue, tasks, makespan, sumEnds };
}

interface Checkpoint {
  used: Float64Array[];
  count: Int32Array[];
  node: Int32Array;
  start: Int32Array;
  accepted: Uint8Array;
  stageEnd: Int32Array;
  score: RevenueScore;
}

/**
 * Decodes a job order into a schedule for the revenue objective: jobs are placed whole in that order by
 * the serial list scheduler (each task as early as it fits), and a job that would earn less than nothing
 * where it lands (it ends after its deadline and its `late` revenue is negative) is taken out again and
 * rejected: rejecting earns 0. So every order decodes to a feasible plan, and the search only has to
 * find the order.
 *
 * Decoding 200 jobs of ~45,000 tasks takes ~60 ms; a move that changes the order from position p on
 * only needs the jobs from p on. So the decoder keeps the builder's state every `step` positions of
 * the last decoded order and restarts from the latest one before p.
 */
export class RevenueDecoder {
  private readonly step: number;
  private checkpoints: (Checkpoint | null)[];
  /** Checkpoints at positions <= validUpTo describe the prefix of `base` (the order they were taken from). */
  private validUpTo = -1;
  private base: Int32Array;

  /** Longest chain of shortest durations after each stage: a task of g must start by deadline - tail - its duration. */
  private readonly tail: Int32Array;

  constructor(readonly model: Model) {
    const n = model.jobs.length;
    this.tail = stageTails(model);
    // About 16 checkpoints, but not so many that copying them costs more than re-placing a few jobs.
    this.step = Math.max(2, Math.ceil(n / 16));
    this.checkpoints = new Array(Math.floor(n / this.step) + 1).fill(null);
    this.base = new Int32Array(n).fill(-1);
  }

  /** Decodes `order` (a permutation of job indices); `changedFrom`: the first position that differs from the last decoded order. */
  decode(order: ArrayLike<number>, changedFrom = 0): { schedule: Schedule; score: RevenueScore } {
    const { model } = this;
    const b = new Builder(model, null, 'earliestFinish');
    // Checkpoints hold the capacity profile only, not the links' load of priced transfers: decode those whole.
    const priced = model.pricesTransfers;
    const from = priced ? -1 : Math.min(changedFrom, this.validUpTo);
    let c = from >= 0 ? Math.floor(from / this.step) : -1;
    while (c >= 0 && !this.checkpoints[c]) c--;
    const score: RevenueScore = { revenue: 0, tasks: 0, makespan: 0, sumEnds: 0 };
    let pos = 0;
    if (c >= 0) {
      this.restore(b, this.checkpoints[c]!, score);
      pos = c * this.step;
    }
    for (; pos < order.length; pos++) {
      if (!priced && pos % this.step === 0) this.checkpoints[pos / this.step] = this.save(b, score);
      this.base[pos] = order[pos];
      this.place(b, order[pos], score);
    }
    this.validUpTo = order.length - 1;
    return { schedule: b.schedule, score };
  }

  /**
   * The last decoded order was not kept: checkpoints past the first changed position belong to it and
   * not to the order the search continues from.
   */
  discard(changedFrom: number): void {
    this.validUpTo = Math.min(this.validUpTo, changedFrom);
  }

  private place(b: Builder, j: number, score: RevenueScore): void {
    const job = this.model.jobs[j];
    if (!this.placeJob(b, j)) return;
    const end = b.schedule.jobEnd(j);
    const r = jobRevenue(job, end);
    if (r < 0) {
      b.unplaceJob(j);
      return;
    }
    score.revenue += r;
    score.tasks += job.taskCount;
    score.makespan = Math.max(score.makespan, end);
    score.sumEnds += end;
  }

  /**
   * Builder.placeJob, except that a job that only pays when on time (its late revenue is negative) is
   * given up as soon as one of its tasks cannot start early enough to end by the deadline: most rejected
   * jobs are found at their first task instead of after scanning the whole horizon for all of them.
   */
  private placeJob(b: Builder, j: number): boolean {
    const { model } = this;
    const job = model.jobs[j];
    const onTimeOnly = job.hasRevenue && job.deadline >= 0 && job.revenueLate < 0;
    for (const g of job.stages) {
      const s = model.stages[g];
      const latest = onTimeOnly ? job.deadline - this.tail[g] - s.minDur : model.T;
      for (let i = s.firstTask; i < s.firstTask + s.tasks; i++)
        if (latest < 0 || !b.placeTask(i, b.earliestStart(g), latest)) {
          b.unplaceJob(j);
          return false;
        }
    }
    b.schedule.accepted[j] = 1;
    return true;
  }

  private save(b: Builder, score: RevenueScore): Checkpoint {
    return {
      used: b.profile.used.map((u) => u.slice()),
      count: b.profile.count.map((u) => u.slice()),
      node: b.schedule.node.slice(),
      start: b.schedule.start.slice(),
      accepted: b.schedule.accepted.slice(),
      stageEnd: b.stageEnd.slice(),
      score: { ...score },
    };
  }

  private restore(b: Builder, cp: Checkpoint, score: RevenueScore): void {
    cp.used.forEach((u, k) => b.profile.used[k].set(u));
    cp.count.forEach((u, k) => b.profile.count[k].set(u));
    b.schedule.node.set(cp.node);
    b.schedule.start.set(cp.start);
    b.schedule.accepted.set(cp.accepted);
    b.stageEnd.set(cp.stageEnd);
    Object.assign(score, cp.score);
  }
}
