import { Model } from '../model/model';

/**
 * A candidate solution: node and start slot of every task (-1 when the task is not scheduled) and
 * which jobs are accepted. Strategies share it; `toPlan` turns it into a `fallow.plan/v1` document.
 */
export class Schedule {
  readonly node: Int32Array;
  readonly start: Int32Array;
  readonly accepted: Uint8Array;

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
    return c;
  }

  copyFrom(o: Schedule): void {
    this.node.set(o.node);
    this.start.set(o.start);
    this.accepted.set(o.accepted);
  }

  end(i: number): number {
    return this.start[i] + this.model.stages[this.model.taskStage[i]].dur[this.node[i]];
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
  }
}

/** Lexicographic comparison (Salamander Eq. 2-3): more tasks first, then a smaller makespan. */
export function better(aTasks: number, aMakespan: number, bTasks: number, bMakespan: number): boolean {
  return aTasks > bTasks || (aTasks === bTasks && aMakespan < bMakespan);
}
