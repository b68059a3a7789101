import { Model } from '../../model/model';
import { Random } from '../../random';
import { Schedule } from '../../schedule/schedule';
import { Decoder } from '../../lists/decoder';
import { Individual } from '../../lists/individual';
import { Justifier } from '../../lists/justify';
import { advanceJob, advanceTasks, encodeByStart, moveElement, toggleJobs, workPerTask } from '../../lists/operators';
import { ScoreHistory, notWorse } from './score';

/** Late acceptance history of the list search: short, because a step is a whole decode. */
const LIST_LATE_ACCEPTANCE_SIZE = 50;
/**
 * When every job fits, the share of makespan moves that advance a whole job ending in the last NEAR_END of
 * the makespan (measured on the 2,500-task ephemeral instances at load 0.25: pc1 163 -> 162, pc2 182 -> 181
 * on one of two seeds; unchanged on univ).
 */
const JOB_ADVANCE = 0.5;
const NEAR_END = 0.05;

export interface ListPhaseLimits {
  /** End the phase after this many decodes without a new best of the phase's caller. */
  stallDecodes: number;
  /** Decodes the phase may use at most (the iteration limit left). */
  maxDecodes: number;
  /** True at the deadline (checked between decodes: one decode is never interrupted). */
  stop: () => boolean;
  /** The caller's best, to tell when the phase improves on it. */
  bestTasks: number;
  bestMakespan: number;
  /** True when nothing can beat the schedule (every task at the lower bound): the phase ends. */
  optimal: (tasks: number, makespan: number) => boolean;
  /**
   * Told of each new best of the caller's as the phase finds it (decodes of this phase so far): at a data
   * centre's size one phase can last the whole budget, and the solve's progress should not stand still.
   */
  onBest?: (decodes: number, tasks: number, makespan: number) => void;
}

/**
 * Late acceptance search over the activity-list view of the schedule, the strongest known neighbourhood
 * for makespan on RCPSP-like instances (Kolisch and Hartmann 2006): a schedule is a task priority list
 * decoded by the serial SGS of the GA (lists/decoder.ts, feasible for any list, rejects a job that does
 * not fit), every candidate gets one forward-backward improvement (lists/justify.ts), and moves are list
 * insertions, advances of tasks ending at the makespan and the GA's acceptance mutation, so jobs are
 * still accepted and rejected as part of the search. The local search runs it as an intensification
 * phase between its own phases; its current list persists across phases, and bests found by the
 * move-based search are fed in with adopt().
 */
export class ListSearch {
  private readonly decoder: Decoder;
  private readonly justifier: Justifier;
  private readonly cur: Individual;
  private readonly cand: Individual;
  private readonly fbi: Individual;
  readonly best: Individual;
  /** Late acceptance on (tasks, makespan, sum of task ends); hard is always 0 for decoded lists. */
  private readonly history: ScoreHistory;
  private readonly skip: Uint8Array;
  private readonly buf: Int32Array;
  private readonly list: Int32Array;
  private readonly count: Int32Array;
  private readonly workPerTask: Float64Array;
  private readonly critical: number[] = [];
  private readonly seen: Uint8Array;
  private steps = 0;
  private started = false;

  constructor(
    readonly model: Model,
    private readonly rng: Random,
  ) {
    this.decoder = new Decoder(model);
    this.justifier = new Justifier(model);
    this.cur = new Individual(model);
    this.cand = new Individual(model);
    this.fbi = new Individual(model);
    this.best = new Individual(model);
    this.history = new ScoreHistory(LIST_LATE_ACCEPTANCE_SIZE);
    this.skip = new Uint8Array(model.jobs.length);
    this.buf = new Int32Array(model.nTasks);
    this.list = new Int32Array(model.nTasks);
    this.count = new Int32Array(model.T + 2);
    this.workPerTask = workPerTask(model);
    this.seen = new Uint8Array(model.jobs.length);
  }

  /**
   * Makes `s` the current solution (the first call, or a new best of the move-based search): its tasks
   * by start are the list. Costs one forward-backward pass (2 decodes, returned).
   */
  adopt(s: Schedule): number {
    const cur = this.cur;
    cur.sched.copyFrom(s);
    const prev = this.started ? this.cur.order : this.identity();
    this.buf.set(prev);
    encodeByStart(s, this.buf, cur.order, this.count);
    cur.evaluate();
    const decodes = this.justify(cur);
    this.history.fill(0, cur.tasks, cur.makespan, cur.taskEnds);
    if (!this.started || cur.betterThan(this.best)) this.best.copyFrom(cur);
    this.started = true;
    return decodes;
  }

  /** Lets every decode of this search end early when `stop` says so (Decoder.stopWhen); its result is then dropped. */
  stopWhen(stop: () => boolean): void {
    this.decoder.stopWhen(stop);
  }

  /** The list search's current schedule (where the move-based search continues from). */
  get current(): Schedule {
    return this.cur.sched;
  }

  /** Runs one phase; returns the decodes used. `best` then holds the best list-decoded schedule so far. */
  run(limits: ListPhaseLimits): number {
    const { cur, cand, model } = this;
    let decodes = 0;
    let sinceBest = 0;
    let bestTasks = limits.bestTasks;
    let bestMakespan = limits.bestMakespan;
    while (sinceBest < limits.stallDecodes && decodes < limits.maxDecodes && !limits.stop()) {
      if (limits.optimal(this.best.tasks, this.best.makespan)) break;
      for (let j = 0; j < model.jobs.length; j++) this.skip[j] = cur.sched.accepted[j] ? 0 : 1;
      this.list.set(cur.order);
      this.mutate();
      this.decoder.decode(this.list, this.skip, null, cand.sched, cand.order, true);
      if (this.decoder.aborted) break;
      cand.evaluate();
      decodes += 1 + this.justify(cand);
      sinceBest++;
      if (cand.betterThan(this.best)) this.best.copyFrom(cand);
      if (cand.tasks > bestTasks || (cand.tasks === bestTasks && cand.makespan < bestMakespan)) {
        bestTasks = cand.tasks;
        bestMakespan = cand.makespan;
        sinceBest = 0;
        limits.onBest?.(decodes, bestTasks, bestMakespan);
      }
      const slot = this.steps++ % LIST_LATE_ACCEPTANCE_SIZE;
      if (notWorse(cand, cur) || this.history.notWorseThan(slot, 0, cand.tasks, cand.makespan, cand.taskEnds)) {
        cur.copyFrom(cand);
      }
      this.history.set(slot, 0, cur.tasks, cur.makespan, cur.taskEnds);
    }
    return decodes;
  }

  /**
   * One neighbour of the current list: the acceptance mutation when jobs are left out (sometimes), else
   * a job ending near the makespan or a task ending at it moved earlier (only those can shorten it), or a
   * random task moved to a random position nearby or anywhere (the decoder repairs precedence).
   */
  private mutate(): void {
    const { rng, model, list, cur } = this;
    const n = model.nTasks;
    const r = rng.next();
    if (cur.tasks < n && r < 0.1) {
      toggleJobs(model, cur.sched.accepted, list, this.skip, this.workPerTask, rng, this.buf);
      return;
    }
    if (r < 0.4) {
      const critical = this.critical;
      critical.length = 0;
      // A job ends late because its earlier stages do: advance all of it. Only when every job fits: with
      // jobs left out the task count decides, and the moves there are the acceptance mutation's.
      if (model.jobs.length > 1 && cur.tasks === n && rng.next() < JOB_ADVANCE) {
        const late = cur.makespan - Math.max(1, Math.floor(cur.makespan * NEAR_END));
        const seen = this.seen.fill(0);
        for (let i = 0; i < n; i++) {
          const j = model.taskJob[i];
          if (!seen[j] && cur.sched.node[i] >= 0 && cur.sched.end(i) >= late) (seen[j] = 1), critical.push(j);
        }
        if (critical.length > 0) {
          advanceJob(model, list, rng.pick(critical), 1 + rng.int(Math.max(1, Math.ceil(n / 4))));
          return;
        }
      }
      for (let i = 0; i < n; i++) if (cur.sched.node[i] >= 0 && cur.sched.end(i) === cur.makespan) critical.push(i);
      if (critical.length > 0) {
        advanceTasks(list, [rng.pick(critical)], Math.max(1, Math.ceil(n / 4)), rng, this.buf);
        return;
      }
    }
    const from = rng.int(n);
    const reach = rng.next() < 0.7 ? Math.max(1, Math.ceil(n / 10)) : n;
    const lo = Math.max(0, from - reach);
    const hi = Math.min(n - 1, from + reach);
    moveElement(list, from, lo + rng.int(hi - lo + 1));
  }

  /** Forward-backward improvement of `ind`, repeated while it helps; returns the decodes used. */
  private justify(ind: Individual): number {
    const { fbi, model } = this;
    let decodes = 0;
    for (let round = 0; round < 3; round++) {
      if (!this.justifier.backward(ind.sched, ind.makespan, ind.order, this.buf)) break;
      for (let j = 0; j < model.jobs.length; j++) this.skip[j] = ind.sched.accepted[j] ? 0 : 1;
      this.decoder.decode(this.buf, this.skip, null, fbi.sched, fbi.order);
      decodes++;
      if (this.decoder.aborted) break;
      fbi.evaluate();
      if (!fbi.betterThan(ind) && !(fbi.tasks === ind.tasks && fbi.makespan === ind.makespan && fbi.taskEnds < ind.taskEnds)) break;
      ind.copyFrom(fbi);
    }
    return decodes;
  }

  private identity(): Int32Array {
    return Int32Array.from({ length: this.model.nTasks }, (_, i) => i);
  }
}
