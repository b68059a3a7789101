import { Random } from '../../random';
import { LsState } from './state';

/**
 * The local search's moves (Salamander III-B2: change a task's node or start, swap two tasks, shift a
 * task earlier) plus a job swap that makes acceptance part of the search. Every move logs what it
 * touched so it can be undone when the acceptor says no.
 */
export class MoveRunner {
  private readonly lastMoved: Int32Array;
  private touched: number[] = [];
  private oldNode: number[] = [];
  private oldStart: number[] = [];
  private jobLog: number[] = [];
  private critical: number[] = [];
  private criticalMakespan = -1;
  private criticalAge = 0;
  /** insertJob's per-node scan start for the stage being placed. */
  private readonly from: Int32Array;

  constructor(
    public state: LsState,
    private readonly rng: Random,
    private readonly tenure: number,
  ) {
    this.lastMoved = new Int32Array(state.model.nTasks).fill(-0x3fffffff);
    this.from = new Int32Array(state.model.K);
  }

  reset(state: LsState): void {
    this.state = state;
    this.lastMoved.fill(-0x3fffffff);
    this.criticalMakespan = -1;
  }

  /** Tries one random move; false when it changed nothing (nothing to accept or undo). */
  random(iteration: number): boolean {
    this.touched.length = this.oldNode.length = this.oldStart.length = this.jobLog.length = 0;
    const r = this.rng.next();
    const s = this.state;
    if (r < 0.04 && s.scheduled < s.model.nTasks) return this.jobSwap();
    if (r < 0.4) return this.change(this.randomTask());
    if (r < 0.6) return this.swap(this.randomTask(), this.randomTask());
    return this.earlier(this.rng.next() < 0.5 ? this.criticalTask(iteration) : this.randomTask());
  }

  touchedTabu(iteration: number): boolean {
    for (const i of this.touched) if (iteration - this.lastMoved[i] < this.tenure) return true;
    return false;
  }

  commit(iteration: number): void {
    for (const i of this.touched) this.lastMoved[i] = iteration;
  }

  undo(): void {
    const s = this.state;
    for (const i of this.touched) if (s.node[i] >= 0) s.lift(i);
    for (let x = 0; x < this.touched.length; x++) if (this.oldNode[x] >= 0) s.place(this.touched[x], this.oldNode[x], this.oldStart[x]);
    for (let x = this.jobLog.length - 2; x >= 0; x -= 2) this.setAccepted(this.jobLog[x], this.jobLog[x + 1]);
  }

  private log(i: number): void {
    this.touched.push(i);
    this.oldNode.push(this.state.node[i]);
    this.oldStart.push(this.state.start[i]);
  }

  private setAccepted(j: number, value: number): void {
    const s = this.state;
    if (s.accepted[j] === value) return;
    s.accepted[j] = value;
    s.scheduled += (value ? 1 : -1) * s.model.jobs[j].taskCount;
  }

  /** A random task of an accepted job (-1 if none). */
  private randomTask(): number {
    const s = this.state;
    for (let tries = 0; tries < 16; tries++) {
      const i = this.rng.int(s.model.nTasks);
      if (s.node[i] >= 0) return i;
    }
    for (let i = 0; i < s.model.nTasks; i++) if (s.node[i] >= 0) return i;
    return -1;
  }

  /** A random task that ends at the makespan: only moving those can shorten it. */
  private criticalTask(iteration: number): number {
    const s = this.state;
    if (s.makespan !== this.criticalMakespan || iteration - this.criticalAge > 5000) {
      this.critical.length = 0;
      for (let i = 0; i < s.model.nTasks; i++)
        if (s.node[i] >= 0 && s.start[i] + s.duration(i, s.node[i]) === s.makespan) this.critical.push(i);
      this.criticalMakespan = s.makespan;
      this.criticalAge = iteration;
    }
    for (let tries = 0; tries < 4 && this.critical.length > 0; tries++) {
      const i = this.rng.pick(this.critical);
      if (s.node[i] >= 0 && s.start[i] + s.duration(i, s.node[i]) === s.makespan) return i;
    }
    return this.randomTask();
  }

  /** Operator 1: a new node and/or start (random, or the earliest that fits on the chosen node). */
  private change(i: number): boolean {
    if (i < 0) return false;
    const s = this.state;
    const K = s.model.K;
    this.log(i);
    const k0 = s.node[i];
    const t0 = s.start[i];
    s.lift(i);
    const est = s.earliestStart(i);
    const lft = s.latestEnd(i);
    const k = K > 1 && this.rng.next() < 0.7 ? this.rng.int(K) : k0;
    const last = lft - s.duration(i, k);
    let t = -1;
    if (last >= est) t = this.rng.next() < 0.5 ? s.earliestFit(i, k, est + this.rng.int(last - est + 1), last) : s.earliestFit(i, k, est, last);
    if (t < 0 && last >= est && this.rng.next() < 0.2) t = est + this.rng.int(last - est + 1);
    if (t < 0 || (k === k0 && t === t0)) {
      s.place(i, k0, t0);
      this.touched.length = 0;
      return false;
    }
    s.place(i, k, t);
    return true;
  }

  /** Operator 2: two tasks exchange their (node, start) when both stay within their windows. */
  private swap(a: number, b: number): boolean {
    const s = this.state;
    if (a < 0 || b < 0 || a === b) return false;
    const ka = s.node[a], ta = s.start[a], kb = s.node[b], tb = s.start[b];
    if ((ka === kb && ta === tb) || s.model.taskStage[a] === s.model.taskStage[b] && s.model.speed[ka] === s.model.speed[kb]) return false;
    this.log(a);
    this.log(b);
    s.lift(a);
    s.lift(b);
    // Windows are checked one task at a time: a and b may be in stages linked by precedence.
    if (tb >= s.earliestStart(a) && tb + s.duration(a, kb) <= s.latestEnd(a)) {
      s.place(a, kb, tb);
      if (ta >= s.earliestStart(b) && ta + s.duration(b, ka) <= s.latestEnd(b)) {
        s.place(b, ka, ta);
        return true;
      }
      s.lift(a);
    }
    s.place(a, ka, ta);
    s.place(b, kb, tb);
    this.touched.length = 0;
    return false;
  }

  /** Operator 3: the earliest feasible start, on the task's node or another, that ends sooner. */
  private earlier(i: number): boolean {
    if (i < 0) return false;
    const s = this.state;
    const K = s.model.K;
    const k0 = s.node[i];
    const t0 = s.start[i];
    const end0 = t0 + s.duration(i, k0);
    this.log(i);
    s.lift(i);
    const est = s.earliestStart(i);
    const lft = s.latestEnd(i);
    let bestK = k0, bestT = t0, bestEnd = end0;
    const tries = Math.min(K, 3);
    for (let x = 0; x < tries; x++) {
      const k = x === 0 ? k0 : this.rng.int(K);
      const d = s.duration(i, k);
      const t = s.earliestFit(i, k, est, Math.min(lft, bestEnd) - d);
      if (t >= 0 && t + d < bestEnd) (bestK = k), (bestT = t), (bestEnd = t + d);
    }
    s.place(i, bestK, bestT);
    if (bestK === k0 && bestT === t0) {
      this.touched.length = 0;
      return false;
    }
    return true;
  }

  /** Accept/reject: insert a rejected job where it fits, ejecting one accepted job if needed. */
  private jobSwap(): boolean {
    const s = this.state;
    const jobs = s.model.jobs;
    let b = -1;
    for (let tries = 0; tries < 8 && b < 0; tries++) {
      const j = this.rng.int(jobs.length);
      if (!s.accepted[j]) b = j;
    }
    if (b < 0) return false;
    if (this.rng.next() < 0.5 || !this.insertJob(b)) {
      let a = -1;
      for (let tries = 0; tries < 8 && a < 0; tries++) {
        const j = this.rng.int(jobs.length);
        if (s.accepted[j]) a = j;
      }
      if (a < 0) return false;
      this.removeJob(a);
      if (!this.insertJob(b)) {
        this.undo();
        this.touched.length = 0;
        return false;
      }
    }
    return true;
  }

  private removeJob(j: number): void {
    const s = this.state;
    const job = s.model.jobs[j];
    this.jobLog.push(j, 1);
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) {
      this.log(i);
      s.lift(i);
    }
    this.setAccepted(j, 0);
  }

  /**
   * Places every task of job j at its earliest feasible start (serial SGS); undoes itself on failure.
   * The tasks of a stage are identical and the usage only grows while the job is placed, so a node's
   * next fit for a stage is never earlier than its last one (or the last slot it was refused up to):
   * `from` remembers it, and each node's timeline is scanned about once per stage instead of per task.
   */
  private insertJob(j: number): boolean {
    const s = this.state;
    const model = s.model;
    const job = model.jobs[j];
    const mark = this.touched.length;
    const from = this.from;
    for (const g of job.stages) {
      const st = model.stages[g];
      from.fill(0);
      for (let i = st.firstTask; i < st.firstTask + st.tasks; i++) {
        const est = s.earliestStart(i);
        let bestK = -1, bestT = 0, bestEnd = Infinity;
        for (let k = 0; k < model.K; k++) {
          const d = st.dur[k];
          const f = Math.max(from[k], est);
          const last = Math.min(model.T, bestEnd - 1) - d;
          if (f > last) continue;
          const t = s.earliestFit(i, k, f, last);
          from[k] = t >= 0 ? t : last + 1;
          if (t >= 0) (bestK = k), (bestT = t), (bestEnd = t + d);
        }
        if (bestK < 0) {
          for (let x = this.touched.length - 1; x >= mark; x--) s.lift(this.touched[x]);
          this.touched.length = this.oldNode.length = this.oldStart.length = mark;
          return false;
        }
        this.log(i);
        s.place(i, bestK, bestT);
      }
    }
    this.jobLog.push(j, 0);
    this.setAccepted(j, 1);
    return true;
  }
}
