import { Model } from '../../model/model';
import { Random } from '../../random';
import { Schedule } from '../../schedule/schedule';
import { Decoder } from '../../lists/decoder';
import { Individual } from '../../lists/individual';
import { densityJobOrder, encodeByStart, moveElement, tasksOfJobs, workPerTask } from '../../lists/operators';
import { ScoreHistory, notWorse } from './score';

/** Late acceptance history of the job-set phase: task counts have long plateaus. */
const JOB_LATE_ACCEPTANCE_SIZE = 100;

export interface JobSetLimits {
  /** End the phase after this many decodes without more tasks than the phase's best. */
  stallDecodes: number;
  /** Decodes the phase may use at most (the iteration limit left). */
  maxDecodes: number;
  /** True at the deadline (checked between decodes). */
  stop: () => boolean;
}

/**
 * Which jobs to accept, when not every job fits: a knapsack over whole jobs under time-varying
 * capacity, where the move-based search is weak (a job swap places hundreds of tasks around a fixed
 * schedule and is judged on the spot). This phase searches task priority lists decoded by the GA's
 * serial decoder, which rejects a job that no longer fits and tries every rejected job again at the end.
 * Its main move is an ejection chain in list form: a rejected job (of two, the one with less work per
 * task, nearest to fitting) is readmitted with its tasks moved as a block to an earlier position, so it
 * is served before the jobs that blocked it and the decoder ejects whichever of those no longer fit;
 * sometimes an accepted job is also dropped to make room. Other moves shift a job's block or a task, so
 * that the jobs' tasks interleave (maps of several jobs side by side) as in the GA's lists. Late
 * acceptance on (tasks, makespan, sum of task ends). The result seeds the move-based search.
 */
export class JobSetSearch {
  private readonly decoder: Decoder;
  private readonly cur: Individual;
  private readonly cand: Individual;
  readonly best: Individual;
  private readonly workPerTask: Float64Array;
  private readonly list: Int32Array;
  private readonly buf: Int32Array;
  private readonly count: Int32Array;
  private readonly skip: Uint8Array;
  /** Late acceptance on (tasks, makespan, sum of task ends); hard is always 0 for decoded lists. */
  private readonly history: ScoreHistory;
  private steps = 0;
  private started = false;

  /**
   * @param barred jobs outside the greedy bound set (greedyBoundSet), or null: the phase never serves
   *   them in its lists, so they only take room that is left at the end of a decode.
   */
  constructor(
    readonly model: Model,
    private readonly rng: Random,
    private readonly barred: Uint8Array | null = null,
  ) {
    this.decoder = new Decoder(model);
    this.cur = new Individual(model);
    this.cand = new Individual(model);
    this.best = new Individual(model);
    this.workPerTask = workPerTask(model);
    this.list = new Int32Array(model.nTasks);
    this.buf = new Int32Array(model.nTasks);
    this.count = new Int32Array(model.T + 2);
    this.skip = new Uint8Array(model.jobs.length);
    this.history = new ScoreHistory(JOB_LATE_ACCEPTANCE_SIZE);
  }

  /**
   * Starts from the better of `s` (its tasks by start, then the rejected jobs' tasks) and the jobs by
   * increasing work per task, each decoded; `best` starts as the best of these and `s` itself.
   * Returns the decodes used (2).
   */
  seed(s: Schedule): number {
    const { model, cand } = this;
    this.adopt(s);
    tasksOfJobs(model, densityJobOrder(model, this.workPerTask, this.rng), this.list);
    this.decodeList(this.barred);
    if (cand.betterThan(this.cur)) this.restart(cand);
    if (this.cur.betterThan(this.best)) this.best.copyFrom(this.cur);
    return 2;
  }

  /**
   * Continues from `s` (a new best of the caller): the decode of its tasks by start is the current
   * list, and `best` is kept unless `s` beats it. Returns the decodes used (1).
   */
  adopt(s: Schedule): number {
    const { model, cand } = this;
    if (this.started) this.buf.set(this.cur.order);
    else for (let i = 0; i < model.nTasks; i++) this.buf[i] = i;
    encodeByStart(s, this.buf, this.list, this.count);
    this.decodeList(this.barred);
    this.restart(cand);
    // The best is never worse than `s` itself (its list may decode to fewer tasks).
    cand.sched.copyFrom(s);
    cand.evaluate();
    if (!this.started || cand.betterThan(this.best)) this.best.copyFrom(cand);
    if (this.cur.betterThan(this.best)) this.best.copyFrom(this.cur);
    this.started = true;
    return 1;
  }

  /** The phase's current schedule (where the move-based search continues from). */
  get current(): Schedule {
    return this.cur.sched;
  }

  private restart(from: Individual): void {
    this.cur.copyFrom(from);
    this.history.fill(0, from.tasks, from.makespan, from.taskEnds);
  }

  /** Runs one phase from the current list; returns the decodes used. `best` holds the best schedule so far. */
  run(limits: JobSetLimits): number {
    const { model, cur, cand } = this;
    let decodes = 0;
    let sinceBest = 0;
    while (model.jobs.length > 1 && sinceBest < limits.stallDecodes && decodes < limits.maxDecodes && !limits.stop()) {
      if (this.best.tasks === model.nTasks) break;
      for (let j = 0; j < model.jobs.length; j++) this.skip[j] = cur.sched.accepted[j] && !this.barred?.[j] ? 0 : 1;
      this.list.set(cur.order);
      this.mutate();
      this.decodeList(this.skip);
      decodes++;
      sinceBest++;
      if (cand.betterThan(this.best)) {
        if (cand.tasks > this.best.tasks) sinceBest = 0;
        this.best.copyFrom(cand);
      }
      const slot = this.steps++ % JOB_LATE_ACCEPTANCE_SIZE;
      if (notWorse(cand, cur) || this.history.notWorseThan(slot, 0, cand.tasks, cand.makespan, cand.taskEnds))
        cur.copyFrom(cand);
      this.history.set(slot, 0, cur.tasks, cur.makespan, cur.taskEnds);
    }
    return decodes;
  }

  /** Decodes `list` into `cand`, every left-out job tried again at the end. */
  private decodeList(skip: Uint8Array | null): void {
    this.decoder.decode(this.list, skip, null, this.cand.sched, this.cand.order, true);
    this.cand.evaluate();
  }

  /**
   * 60%: readmit a rejected job ahead of others (a third of these also skip an accepted job, of two the
   * one with more work per task: it is only tried again at the end); 25%: move an accepted job's block;
   * 15%: move one task.
   */
  private mutate(): void {
    const { rng, model, cur, list, skip } = this;
    const r = rng.next();
    if (r < 0.6 && cur.tasks < model.nTasks) {
      const b = this.pickJob(0, (x, y) => this.workPerTask[x] <= this.workPerTask[y]);
      if (b < 0) return;
      if (r < 0.2) {
        const a = this.pickJob(1, (x, y) => this.workPerTask[x] >= this.workPerTask[y]);
        if (a >= 0) skip[a] = 1;
      }
      skip[b] = 0;
      // Half of the time right before an accepted job (uniform over jobs, not tasks: big jobs would
      // take most positions), so b is served before that job; else anywhere, interleaved with others.
      const before = rng.next() < 0.5 ? this.pickJob(1, () => true) : -1;
      this.moveJobBlock(b, before >= 0 ? this.firstPosition(before, b) : rng.int(cur.tasks + 1));
      return;
    }
    if (r < 0.85) {
      const a = this.pickJob(1, () => true);
      if (a >= 0) this.moveJobBlock(a, rng.int(cur.tasks + 1));
      return;
    }
    // Accepted tasks come first in the canonical list: moving one of them changes the interleaving.
    const span = cur.tasks > 0 ? cur.tasks : model.nTasks;
    moveElement(list, rng.int(span), rng.int(span));
  }

  /** Of two random jobs whose acceptance is `accepted` (up to 8 draws each), the one `prefer` favours; -1 if none. */
  private pickJob(accepted: number, prefer: (x: number, y: number) => boolean): number {
    const { rng, model } = this;
    const draw = () => {
      // A barred job is never readmitted (it only fills what is left at the end).
      const eligible = (j: number) => this.cur.sched.accepted[j] === accepted && !(accepted === 0 && this.barred?.[j]);
      for (let t = 0; t < 8; t++) {
        const j = rng.int(model.jobs.length);
        if (eligible(j)) return j;
      }
      for (let j = 0; j < model.jobs.length; j++) if (eligible(j)) return j;
      return -1;
    };
    const x = draw();
    if (x < 0) return x;
    const y = draw();
    return prefer(x, y) ? x : y;
  }

  /** Position of job a's first task in `list` once job b's tasks are taken out. */
  private firstPosition(a: number, b: number): number {
    const { model, list } = this;
    let skipped = 0;
    for (let p = 0; p < list.length; p++) {
      const j = model.taskJob[list[p]];
      if (j === a) return p - skipped;
      if (j === b) skipped++;
    }
    return 0;
  }

  /** Takes job j's tasks out of `list` (keeping their order) and inserts them as one block at position `at` of the rest. */
  private moveJobBlock(j: number, at: number): void {
    const { model, list, buf } = this;
    const n = model.nTasks;
    let a = 0;
    let b = 0;
    const job = model.jobs[j];
    const tail = n - job.taskCount;
    for (let p = 0; p < n; p++) {
      const i = list[p];
      if (model.taskJob[i] === j) buf[tail + b++] = i;
      else buf[a++] = i;
    }
    const pos = Math.min(at, a);
    list.set(buf.subarray(0, pos), 0);
    list.set(buf.subarray(tail, n), pos);
    list.set(buf.subarray(pos, a), pos + b);
  }
}
