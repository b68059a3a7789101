import type { Model } from '../model/model';
import type { SimClock } from './clock';
import type { Driver } from './driver';
import { TaskState } from './driver';
import type { EventQueue } from './event-queue';
import { FETCHED, FINISH, RELEASE, schedule, STALL } from './events';
import type { SimulatorView } from './host';
import type { TaskInputs } from './inputs';
import type { Leases } from './leases';
import { NodeState, throttleFactor } from './node-state';
import { STALL_TIMEOUT_SECONDS, SimSettings } from './settings';
import { StageGates } from './stages';
import { TaskRuntimes } from './truth';
import type { ActualUsage } from './usage';

/**
 * Every task attempt from launch to end: placing it on its node, fetching its inputs, computing at its node's
 * speed scaled by the node's CPU throttling factor (retimed whenever that changes), ending (which readies the
 * stages after it, stages.ts) or being killed (by the QoS controller, or by the stall timeout when it gets no
 * CPU at all) and handed back to its driver.
 */
export class TaskLifecycle {
  /** Set by the driver in prepare(): jobs it runs (1) or rejects (0). */
  readonly accepted: Uint8Array;
  readonly state: Uint8Array;
  readonly node: Int32Array;
  /** Order in which tasks were launched (larger = later): the QoS controllers' kill order. */
  readonly launchSeq: Float64Array;
  /** Per task, for tests and reports: when its last attempt was launched and when it ended (-1: not yet). */
  readonly startedAt: Float64Array;
  readonly endTime: Float64Array;
  /** Per task: when its last attempt had its inputs and began computing (a reduce's shuffle end; -1: not yet). */
  readonly computeStartedAt: Float64Array;
  /** Per task: times the QoS controller killed it; whether its last attempt ran remotely. */
  readonly kills: Int32Array;
  readonly remote: Uint8Array;
  private readonly rem: Float64Array; // seconds of work left at full speed
  private readonly since: Float64Array; // when rem was last brought up to date
  private readonly version: Int32Array; // invalidates a killed attempt's pending events
  readonly stages: StageGates;
  readonly runtimes: TaskRuntimes;
  /** Tasks of accepted jobs not ended yet: the clock stops at 0. */
  remaining = 0;
  private launches = 0;
  /** Kills by the stall timeout (a subset of the relaunches). */
  stalls = 0;

  constructor(
    private readonly model: Model,
    private readonly usage: ActualUsage,
    private readonly clock: SimClock,
    private readonly queue: EventQueue,
    private readonly nodes: readonly NodeState[],
    private readonly leases: Leases,
    private readonly inputs: TaskInputs,
    private readonly settings: SimSettings,
    /** The metric the QoS controller throttles (CPU), -1 for none. */
    private readonly cpu: number,
    private readonly driver: Driver,
    private readonly host: SimulatorView,
  ) {
    const { nTasks } = model;
    this.accepted = new Uint8Array(model.jobs.length).fill(1);
    this.state = new Uint8Array(nTasks);
    this.node = new Int32Array(nTasks).fill(-1);
    this.launchSeq = new Float64Array(nTasks);
    this.rem = new Float64Array(nTasks);
    this.since = new Float64Array(nTasks);
    this.version = new Int32Array(nTasks);
    this.remote = new Uint8Array(nTasks);
    this.endTime = new Float64Array(nTasks).fill(-1);
    this.startedAt = new Float64Array(nTasks).fill(-1);
    this.computeStartedAt = new Float64Array(nTasks).fill(-1);
    this.kills = new Int32Array(nTasks);
    const slowstart = settings.reduceSlowstart ?? 1;
    if (!(slowstart > 0 && slowstart <= 1)) throw new Error('reduceSlowstart must be in (0, 1]');
    this.stages = new StageGates(model, clock, queue, this.state, this.node, this.version, inputs, driver, host, slowstart);
    this.runtimes = new TaskRuntimes(model, settings.runtimeTruth ?? {}, settings.seed ?? 1);
  }

  /** Before the clock starts: a rejected job's tasks are skipped, an accepted job is released at its release slot. */
  admit(): void {
    const { model } = this;
    model.jobs.forEach((job, j) => {
      if (!this.accepted[j]) {
        for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) this.state[i] = TaskState.Skipped;
        return;
      }
      this.remaining += job.taskCount;
      schedule(this.queue, job.release * model.slotSeconds, RELEASE, j);
    });
  }

  /**
   * Job j, accepted and not released yet, leaves the run (a look-ahead that must not know it, Simulator.withdrawJobs):
   * rejected after the fact, its tasks skipped and no longer awaited. The caller dequeues its release.
   */
  withdraw(j: number): void {
    const job = this.model.jobs[j];
    if (!this.accepted[j]) return;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++)
      if (this.state[i] !== TaskState.Blocked || this.node[i] >= 0) throw new Error(`job ${job.id} has started: it cannot be withdrawn`);
    this.accepted[j] = 0;
    for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) this.state[i] = TaskState.Skipped;
    this.remaining -= job.taskCount;
  }

  /**
   * Puts a Ready task on node k now: at once running when the node holds its chunk and it needs no other
   * node's output; otherwise it is left fetching (Transfer), and true says its inputs remain to be fetched
   * (fetch(), once the QoS controller has looked at the node).
   */
  place(i: number, k: number): boolean {
    const s = this.model.stages[this.model.taskStage[i]];
    this.node[i] = k;
    this.launchSeq[i] = ++this.launches;
    this.startedAt[i] = this.clock.now;
    this.nodes[k].add(i, s.demand);
    this.remote[i] = this.inputs.isLocal(i, k) ? 0 : 1;
    const g = this.model.taskStage[i];
    if (!this.remote[i] && !this.inputs.shuffled(g)) {
      this.startRunning(i);
      return false;
    }
    this.state[i] = TaskState.Transfer;
    return true;
  }

  /**
   * Fetches the inputs of task i placed on node k, unless the QoS controller killed it at once (then nothing
   * moves, else a relaunch storm would queue every killed attempt's transfers on the links; killed later,
   * an attempt keeps the link time it took).
   */
  fetch(i: number, k: number): void {
    if (this.state[i] !== TaskState.Transfer) return;
    const now = this.clock.now;
    const fetched = this.inputs.fetch(i, k);
    if (this.remote[i]) this.inputs.countRemoteRead(i);
    // Launched early: what has been written is fetched now, the rest as its producers end (stages.ts).
    if (this.stages.launchedEarly(i, fetched)) return;
    if (this.remote[i] || fetched > now) schedule(this.queue, fetched, FETCHED, i, this.version[i]);
    else this.startRunning(i);
  }

  /** A FINISH, FETCHED or STALL event of attempt `version` of task i: acted on when it is still that attempt in that state. */
  finished(i: number, version: number): void {
    if (version === this.version[i] && this.state[i] === TaskState.Running) this.finish(i);
  }

  fetched(i: number, version: number): void {
    if (version === this.version[i] && this.state[i] === TaskState.Transfer) this.startRunning(i);
  }

  stalled(i: number, version: number): void {
    // Still the same attempt at factor 0 (any change of the node's factor bumps the version).
    if (version === this.version[i] && this.state[i] === TaskState.Running) (this.stalls++, this.kill(i));
  }

  private startRunning(i: number): void {
    const k = this.node[i];
    const node = this.nodes[k];
    this.state[i] = TaskState.Running;
    this.computeStartedAt[i] = this.clock.now;
    this.rem[i] = this.runtimes.seconds(i, k);
    this.since[i] = this.clock.now;
    if (this.cpu >= 0) node.runningCpu += this.model.stages[this.model.taskStage[i]].demand[this.cpu];
    if (!this.retime(k)) this.scheduleFinish(i, node.factor);
  }

  private finish(i: number): void {
    const k = this.node[i];
    this.leave(i, k);
    this.state[i] = TaskState.Done;
    this.endTime[i] = this.clock.now;
    this.remaining--;
    this.clock.capacityEpoch++;
    this.retime(k);
    this.inputs.wrote(i, k);
    this.stages.ended(i, k, this.clock.now - this.startedAt[i]);
  }

  /** Takes task i off node k (finish or kill). */
  private leave(i: number, k: number): void {
    const s = this.model.stages[this.model.taskStage[i]];
    const node = this.nodes[k];
    if (this.state[i] === TaskState.Running && this.cpu >= 0) {
      node.runningCpu -= s.demand[this.cpu];
      if (node.runningCpu < 1e-12) node.runningCpu = 0;
    }
    node.remove(i, s.demand);
    if (this.leases.draining[k]) this.leases.release(k); // its last task gone (and its minimum lease over): released now
  }

  /** Kills task i's attempt: off its node (closed for the rest of the period), back to Ready and to its driver. */
  kill(i: number): void {
    const k = this.node[i];
    const wasRunning = this.state[i] === TaskState.Running;
    this.leave(i, k);
    this.version[i]++;
    this.kills[i]++;
    this.stages.forget(i);
    this.state[i] = TaskState.Ready;
    this.node[i] = -1;
    this.nodes[k].closed = true;
    this.clock.capacityEpoch++;
    if (wasRunning) this.retime(k);
    this.driver.onKilled(this.host, i, k);
  }

  /**
   * Brings node k's throttling factor up to date (the actual CPU left by the regular customers over what
   * its running tasks demand) and, when it changed, every running task's remaining work and finish event.
   * Returns whether it rescheduled the node's running tasks.
   */
  retime(k: number): boolean {
    const node = this.nodes[k];
    const f =
      this.cpu < 0
        ? 1
        : throttleFactor(this.model.capacity[k][this.cpu] * Math.max(0, 1 - this.usage.at(k, this.cpu, this.clock.slot)), node.runningCpu);
    if (f === node.factor) return false;
    const old = node.factor;
    node.factor = f;
    const now = this.clock.now;
    for (const i of node.tasks) {
      if (this.state[i] !== TaskState.Running) continue;
      this.rem[i] = Math.max(0, this.rem[i] - old * (now - this.since[i]));
      this.since[i] = now;
      this.version[i]++;
      this.scheduleFinish(i, f);
    }
    return true;
  }

  private scheduleFinish(i: number, factor: number): void {
    if (factor <= 0) {
      // Stalled: a tick that gives the node CPU again retimes it (new version); if none does in time, it fails.
      schedule(this.queue, this.clock.now + (this.settings.stallTimeoutSeconds ?? STALL_TIMEOUT_SECONDS), STALL, i, this.version[i]);
      return;
    }
    schedule(this.queue, this.clock.now + this.rem[i] / factor, FINISH, i, this.version[i]);
  }
}
