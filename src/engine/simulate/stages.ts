import type { Model } from '../model/model';
import type { SimClock } from './clock';
import type { Driver } from './driver';
import { TaskState } from './driver';
import type { EventQueue } from './event-queue';
import { FETCHED, schedule } from './events';
import type { SimulatorView, StageRuns } from './host';
import type { TaskInputs } from './inputs';

/**
 * Stage precedence (the map -> reduce barrier, Salamander Eq. 5) and Hadoop's slow start: when a stage's
 * tasks become Ready (its job released and its predecessor stages ended, or, with `reduceSlowstart` < 1,
 * enough of them), and, for tasks launched before their predecessors all ended, the output they fetch as
 * each predecessor task ends and when they may compute.
 */
/**
 * The stages' ended runtimes, one array per figure rather than an object per stage: a copy of the run (POSUM's
 * look-ahead makes thousands) copies three arrays instead of one object for every stage of the model.
 */
class StageRunArrays implements StageRuns {
  readonly n: Int32Array;
  readonly sum: Float64Array;
  readonly sumSq: Float64Array;

  constructor(stages: number) {
    this.n = new Int32Array(stages);
    this.sum = new Float64Array(stages);
    this.sumSq = new Float64Array(stages);
  }
}

export class StageGates {
  private readonly stageLeft: Int32Array;
  private readonly stagePredsLeft: Int32Array;
  /** Tasks of each stage that have ended (for the slow-start threshold and the policies' predictions). */
  readonly stageDone: Int32Array;
  /** Per stage: the runtimes (launch to end) of its ended tasks, as the runtime predictors' evidence. */
  readonly stageRuns: StageRunArrays;
  /** Per stage: it has been made ready (early or at its barrier). */
  private readonly stageReady: Uint8Array;
  /** Per task launched before its predecessors all ended: when the output fetched so far will have arrived; -1 otherwise. */
  private readonly earlyFetchEnd: Float64Array;

  constructor(
    private readonly model: Model,
    private readonly clock: SimClock,
    private readonly queue: EventQueue,
    /** The task lifecycle's arrays (lifecycle.ts): read here, and `state` set to Ready. */
    private readonly state: Uint8Array,
    private readonly node: Int32Array,
    private readonly version: Int32Array,
    private readonly inputs: TaskInputs,
    private readonly driver: Driver,
    private readonly host: SimulatorView,
    readonly slowstart: number,
  ) {
    this.stageLeft = Int32Array.from(model.stages, (s) => s.tasks);
    this.stagePredsLeft = Int32Array.from(model.stages, (s) => s.preds.length);
    this.stageDone = new Int32Array(model.stages.length);
    this.stageRuns = new StageRunArrays(model.stages.length);
    this.stageReady = new Uint8Array(model.stages.length);
    this.earlyFetchEnd = new Float64Array(model.nTasks).fill(-1);
  }

  /** Job j is released: its stages without predecessors become ready. */
  release(j: number): void {
    for (const g of this.model.jobs[j].stages) if (this.stagePredsLeft[g] === 0) this.readyStage(g);
  }

  /** Task i, launched now, has fetched what has been written until `fetched`: true when it was launched early and must wait for the rest. */
  launchedEarly(i: number, fetched: number): boolean {
    if (this.stagePredsLeft[this.model.taskStage[i]] === 0) return false;
    this.earlyFetchEnd[i] = fetched;
    return true;
  }

  /** Task i's attempt was killed: it waits for no output any more. */
  forget(i: number): void {
    this.earlyFetchEnd[i] = -1;
  }

  /** Task i ended on node k, `seconds` after its launch: counts it, and readies the stages it held back. */
  ended(i: number, k: number, seconds: number): void {
    const g = this.model.taskStage[i];
    const s = this.model.stages[g];
    this.stageDone[g]++;
    const run = this.stageRuns;
    run.n[g]++;
    run.sum[g] += seconds;
    run.sumSq[g] += seconds * seconds;
    if (this.slowstart < 1) this.shuffleOut(i, k);
    // Stage precedence (the map -> reduce barrier, Salamander Eq. 5): successors start once all of it ended,
    // or, with slow start, launch early and only compute then.
    if (--this.stageLeft[g] === 0)
      for (const succ of s.succs)
        if (--this.stagePredsLeft[succ] === 0) {
          this.endEarlyWait(succ);
          this.readyStage(succ);
        }
    if (this.slowstart < 1) for (const succ of s.succs) if (!this.stageReady[succ] && this.mayStartEarly(succ)) this.readyStage(succ);
  }

  private readyStage(g: number): void {
    if (this.stageReady[g]) return;
    this.stageReady[g] = 1;
    const s = this.model.stages[g];
    for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
      this.state[i] = TaskState.Ready;
      this.driver.onReady(this.host, i);
    }
  }

  /** Slow start: every predecessor stage of g has ended at least `reduceSlowstart` of its tasks. */
  private mayStartEarly(g: number): boolean {
    for (const q of this.model.stages[g].preds) {
      const tasks = this.model.stages[q].tasks;
      if (this.stageDone[q] < Math.max(1, Math.ceil(this.slowstart * tasks - 1e-9))) return false;
    }
    return true;
  }

  /** Producer p ended on node kp: every task of its successor stages launched early fetches its share of p's output. */
  private shuffleOut(p: number, kp: number): void {
    const { model } = this;
    const pred = model.stages[model.taskStage[p]];
    if (!(pred.outputMB > 0)) return;
    for (const g of pred.succs) {
      const s = model.stages[g];
      for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
        if (this.earlyFetchEnd[i] < 0 || this.state[i] !== TaskState.Transfer || this.node[i] === kp) continue;
        const k = this.node[i];
        this.earlyFetchEnd[i] = Math.max(this.earlyFetchEnd[i], this.inputs.send(pred.outputMB / s.tasks, kp, k));
      }
    }
  }

  /** Stage g's predecessors have all ended: its tasks launched early compute once their last fetch arrives. */
  private endEarlyWait(g: number): void {
    const s = this.model.stages[g];
    for (let i = s.firstTask; i < s.firstTask + s.tasks; i++) {
      if (this.earlyFetchEnd[i] < 0) continue;
      if (this.state[i] === TaskState.Transfer) schedule(this.queue, Math.max(this.clock.now, this.earlyFetchEnd[i]), FETCHED, i, this.version[i]);
      this.earlyFetchEnd[i] = -1;
    }
  }
}
