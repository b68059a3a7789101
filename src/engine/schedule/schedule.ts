import { Model } from '../model/model';

/**
 * A candidate solution: node and start slot of every task (-1 when the task is not scheduled) and
 * which jobs are accepted. Strategies share it; `toPlanDoc` turns it into a `fallow.plan/v1` document.
 */
export class Schedule {
  readonly node: Int32Array;
  readonly start: Int32Array;
  readonly accepted: Uint8Array;
  /**
   * A schedule with priced transfers (docs/FORMAT.md, Transfers priced in plans): per task, the slots it fetches
   * its inputs before it computes, holding its node meanwhile, so that it ends at start + fetch + duration.
   * null (every strategy's schedule today): a task's duration is its compute alone. fromPlanDoc sets it from a
   * priced plan and toPlanDoc writes it back, so a priced plan read back stays priced.
   */
  fetch: Int32Array | null = null;

  constructor(readonly model: Model) {
    this.node = new Int32Array(model.nTasks).fill(-1);
    this.start = new Int32Array(model.nTasks).fill(-1);
    this.accepted = new Uint8Array(model.jobs.length);
  }

  clone(): Schedule {
    const c = new Schedule(this.model);
    c.node.set(this.node);
    c.start.set(this.start);
    c.accepted.set(this.accepted);
    c.fetch = this.fetch && this.fetch.slice();
    return c;
  }

  copyFrom(o: Schedule): void {
    this.node.set(o.node);
    this.start.set(o.start);
    this.accepted.set(o.accepted);
    if (!o.fetch) this.fetch = null;
    else if (this.fetch) this.fetch.set(o.fetch);
    else this.fetch = o.fetch.slice();
  }

  end(i: number): number {
    return this.start[i] + (this.fetch ? this.fetch[i] : 0) + this.model.stages[this.model.taskStage[i]].dur[this.node[i]];
  }

  scheduledTasks(): number {
    let n = 0;
    this.model.jobs.forEach((job, j) => {
      if (this.accepted[j]) n += job.taskCount;
    });
    return n;
  }

  makespan(): number {
    let ms = 0;
    for (let i = 0; i < this.model.nTasks; i++) if (this.node[i] >= 0) ms = Math.max(ms, this.end(i));
    return ms;
  }

  /** Sum of job end slots over accepted jobs: a tie-breaker that rewards compact schedules. */
  sumJobEnds(): number {
    let s = 0;
    for (let j = 0; j < this.model.jobs.length; j++) s += this.jobEnd(j);
    return s;
  }

  jobEnd(j: number): number {
    if (!this.accepted[j]) return 0;
    const job = this.model.jobs[j];
    let e = 0;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) e = Math.max(e, this.end(i));
    return e;
  }

  /** Unschedules every task of job j and marks it rejected. */
  reject(j: number): void {
    const job = this.model.jobs[j];
    this.accepted[j] = 0;
    this.node.fill(-1, job.firstTask, job.firstTask + job.taskCount);
    this.start.fill(-1, job.firstTask, job.firstTask + job.taskCount);
    this.fetch?.fill(0, job.firstTask, job.firstTask + job.taskCount);
  }

  /**
   * Refuses a priced schedule to a pass that moves tasks (`pass` names it): no pass prices transfers yet, so the
   * fetch slots it left would no longer be the moved tasks' fetch; an error rather than a stale or dropped price.
   */
  refusePriced(pass: string): void {
    if (this.fetch) throw new Error(`${pass} does not yet re-place a schedule with priced transfers (its fetch slots would go stale)`);
  }
}

/** Lexicographic comparison (Salamander Eq. 2-3): more tasks first, then a smaller makespan. */
export function better(aTasks: number, aMakespan: number, bTasks: number, bMakespan: number): boolean {
  return aTasks > bTasks || (aTasks === bTasks && aMakespan < bMakespan);
}
