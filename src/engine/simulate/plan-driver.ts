import { Model } from '../model/model';
import { fromPlanDoc } from '../schedule/plan-doc';
import { PlanDoc } from '../model/types';
import { Driver, TaskState } from './driver';
import { MinHeap } from '../schedule/min-heap';
import { relaunchTarget } from './relaunch';
import type { SimulatorView } from './host';

/** How a plan is followed. */
export interface PlanDriverOptions {
  /**
   * Start a task before its planned start when it is ready, its planned node has a free task slot once the due
   * tasks have launched, and it fits in what the regular customers leave that node now; a node's ready tasks in
   * their planned order (work-conserving, each task on its planned node). Off by default: Salamander's JobTracker launches at the plan's
   * starts and only shifts later.
   */
  earlyStart?: boolean;
}

/**
 * Follows a plan the way Salamander's JobTracker does (III-A, step 8): each task is launched on its
 * planned node at its planned start, or later when its predecessors or a free task slot are late
 * (the plan shifts). Chunks are where the plan's `placement` puts them, or on the planned node when the
 * plan has none (scheduler-driven data placement, III-C), so a task that runs as planned is local.
 *
 * A task the QoS controller kills is relaunched by relaunch.ts: on a node holding its chunk when one has
 * room, else after waiting for one when that is expected to be quicker than a remote run, else on the
 * remote node with the most room; when no node has room, it waits and is tried again whenever a task ends
 * or a period starts: the plan is shifted (III-D). A planned launch on a node whose regular customers take
 * its whole CPU in that period is re-placed the same way (the task could not progress there), and so is an
 * attempt the simulator fails after the stall timeout (the CPU went away after it was launched).
 *
 * A plan with priced transfers is replayed the same way: its start is when the task takes its node and starts
 * fetching (FORMAT.md, Transfers priced in plans), which is a launch here; the simulator then moves its inputs
 * over the links and computes, so its fetchSlots are the plan's estimate that the replay judges, not a wait.
 *
 * A closed loop (closed-loop.ts) hands the driver a new plan mid-run (adopt): the tasks that have not started
 * take their new nodes and starts, relaunches included; the chunks stay where they were staged.
 */
export class PlanDriver implements Driver {
  readonly name: string;
  readonly mode = 'plan' as const;
  /** Per task: the node and start of the plan followed now (-1: a job a later plan left out: relaunched where room is). */
  private readonly plannedNode: Int32Array;
  private readonly plannedStart: Int32Array;
  private readonly accepted: Uint8Array;
  private readonly due: Uint8Array;
  private readonly ready: Uint8Array;
  /** Per task: when its planned-start timer goes off (an earlier plan's timers at other times are stale), and whether it sits in a node's queue. */
  private readonly timerAt: Float64Array;
  private readonly queued: Uint8Array;
  private waiting: MinHeap[];
  private relaunch: number[] = [];
  /** Per task: until when it waits for a node holding its chunk (-1: it has not waited this attempt). */
  private readonly waitUntil: Float64Array;
  /** Per node, with early starts: its ready tasks whose planned start has not come, earliest planned start first (stale entries skipped). */
  private ahead: MinHeap[] = [];
  private dirty = true;
  private seenEpoch = -1;

  constructor(
    private readonly model: Model,
    private readonly plan: PlanDoc,
    private readonly options: PlanDriverOptions = {},
  ) {
    const s = fromPlanDoc(model, plan);
    this.name = `plan:${plan.strategy ?? 'unknown'}`;
    this.plannedNode = s.node;
    this.plannedStart = s.start;
    this.accepted = s.accepted;
    this.due = new Uint8Array(model.nTasks);
    this.ready = new Uint8Array(model.nTasks);
    this.timerAt = new Float64Array(model.nTasks).fill(-1);
    this.queued = new Uint8Array(model.nTasks);
    this.waiting = model.nodeIds.map(() => new MinHeap(this.plannedStart));
    this.waitUntil = new Float64Array(model.nTasks).fill(-1);
    if (options.earlyStart) this.ahead = model.nodeIds.map(() => new MinHeap(this.plannedStart));
  }

  prepare(sim: SimulatorView): void {
    const { model } = this;
    sim.accepted.set(this.accepted);
    const placed = new Map<number, number[]>();
    for (const p of this.plan.placement ?? []) {
      const g = model.stageIndex.get(`${p.job}\u0000${p.stage}`);
      if (g === undefined) continue;
      const nodes = p.nodes.map((id) => model.nodeIndex.get(id)).filter((k): k is number => k !== undefined);
      if (nodes.length > 0) placed.set(model.stages[g].firstTask + p.task, nodes);
    }
    for (let i = 0; i < model.nTasks; i++) {
      if (!this.accepted[model.taskJob[i]]) continue;
      if (model.stages[model.taskStage[i]].inputMB > 0) sim.replicas[i] = placed.get(i) ?? [this.plannedNode[i]];
      this.setTimer(sim, i, this.plannedStart[i] * model.slotSeconds);
    }
  }

  onTimer(sim: SimulatorView, i: number): void {
    if (this.timerAt[i] < 0 || Math.abs(sim.now - this.timerAt[i]) > 1e-9) return; // an earlier plan's start
    this.timerAt[i] = -1;
    this.due[i] = 1;
    this.arm(i);
  }

  /**
   * Follows `plan` from now on (a re-plan, closed-loop.ts): each task of an accepted job that has not started
   * (never launched, or killed and waiting for its relaunch) takes the plan's node and start, launched when that
   * start comes (at once when it has passed) and its predecessors are done; a task whose job the plan leaves out
   * is relaunched where there is room, as a killed task is. Started tasks run on. Chunks stay where they were
   * staged, so a map moved off its chunk's node reads it remotely.
   */
  adopt(sim: SimulatorView, plan: PlanDoc): void {
    const { model } = this;
    const s = fromPlanDoc(model, plan);
    this.relaunch = [];
    this.waiting = model.nodeIds.map(() => new MinHeap(this.plannedStart));
    if (this.options.earlyStart) this.ahead = model.nodeIds.map(() => new MinHeap(this.plannedStart));
    for (let i = 0; i < model.nTasks; i++) {
      this.queued[i] = 0;
      if (!this.accepted[model.taskJob[i]] || sim.node[i] >= 0 || (sim.state[i] !== TaskState.Ready && sim.state[i] !== TaskState.Blocked)) continue;
      this.due[i] = 0;
      this.waitUntil[i] = -1;
      this.timerAt[i] = -1;
      if (s.accepted[model.taskJob[i]] && s.node[i] >= 0) {
        this.plannedNode[i] = s.node[i];
        this.plannedStart[i] = s.start[i];
        this.setTimer(sim, i, Math.max(sim.now, s.start[i] * model.slotSeconds));
        if (this.ready[i]) this.pushAhead(i);
      } else {
        this.plannedNode[i] = -1;
        this.due[i] = 1;
        this.arm(i);
      }
    }
    this.dirty = true;
  }

  private setTimer(sim: SimulatorView, i: number, time: number): void {
    this.timerAt[i] = time;
    sim.timer(time, i);
  }

  onReady(_sim: SimulatorView, i: number): void {
    this.ready[i] = 1;
    this.arm(i);
    this.pushAhead(i);
  }

  onKilled(_sim: SimulatorView, i: number, _node?: number): void {
    this.replace(i);
  }

  /** Queues task i for relaunch (relaunch.ts): a fresh decision, it may wait for its chunk's node once. */
  protected replace(i: number): void {
    this.waitUntil[i] = -1;
    this.relaunch.push(i);
    this.dirty = true;
  }

  dispatch(sim: SimulatorView): void {
    if (!this.dirty && sim.capacityEpoch === this.seenEpoch) return;
    this.dirty = false;
    this.seenEpoch = sim.capacityEpoch;
    // Planned launches first: the plan is the contract; relaunches take what is left.
    for (let k = 0; k < this.waiting.length; k++) {
      const q = this.waiting[k];
      if (sim.nodes[k].closed) continue; // the QoS controller shrank it this period: the plan shifts
      const starved = sim.starved(k);
      while (q.size > 0 && (starved || sim.freeSlots(k) > 0)) {
        const i = q.pop();
        this.queued[i] = 0;
        if (sim.state[i] !== TaskState.Ready || sim.node[i] >= 0) continue;
        // The regular customers take the node's whole CPU: the task would never progress there, so it is
        // re-placed now like a killed one instead of stalling on its planned node.
        if (starved) this.replace(i);
        else sim.launch(i, k);
        if (sim.nodes[k].closed) break; // the launch itself was over capacity
      }
      if (this.options.earlyStart && !starved) this.startEarly(sim, k);
    }
    if (this.relaunch.length === 0) return;
    // Tasks a launch below gets killed at once are appended to this.relaunch and met again by this loop
    // (their node is then closed, so the loop ends); each waiting task is kept once.
    const still: number[] = [];
    const kept = new Set<number>();
    for (const i of this.relaunch) {
      if (sim.state[i] !== TaskState.Ready || sim.node[i] >= 0 || kept.has(i)) continue;
      const waited = this.waitUntil[i] >= 0 && sim.now >= this.waitUntil[i] - 1e-9;
      const choice = relaunchTarget(sim, i, waited);
      if (choice.waitForLocal && this.waitUntil[i] < 0) this.waitUntil[i] = sim.nextPeriod();
      if (choice.node >= 0) sim.launch(i, choice.node);
      else (still.push(i), kept.add(i));
    }
    this.relaunch = still;
  }

  /** With early starts: a ready task not yet due waits in its planned node's queue of early candidates. */
  private pushAhead(i: number): void {
    if (!this.options.earlyStart || this.due[i] || this.plannedNode[i] < 0) return;
    this.ahead[this.plannedNode[i]].push(i);
    this.dirty = true;
  }

  /**
   * Early starts on node k, once its due tasks have launched: its ready tasks whose planned start has not come,
   * in planned-start order, while it has a free task slot and the next one fits in what the regular customers
   * leave it now (headroom); the first that does not fit stops the node (the plan's order on a node is kept).
   * A task started early takes room the plan left free now and ends before its planned end.
   */
  private startEarly(sim: SimulatorView, k: number): void {
    const q = this.ahead[k];
    while (q.size > 0 && !sim.nodes[k].closed && sim.freeSlots(k) > 0) {
      const i = q.peek();
      if (this.due[i] || this.plannedNode[i] !== k || sim.state[i] !== TaskState.Ready || sim.node[i] >= 0) {
        q.pop();
        continue;
      }
      if (sim.headroom(k, i) < 0) break;
      q.pop();
      this.timerAt[i] = -1; // its planned start's timer is now stale
      this.due[i] = 1;
      sim.launch(i, k);
    }
  }

  /** Due and runnable: queue it on its planned node (earliest planned start first); planned nowhere, relaunch it where room is. */
  private arm(i: number): void {
    if (!this.due[i] || !this.ready[i] || this.queued[i]) return;
    if (this.plannedNode[i] < 0) return this.replace(i);
    this.queued[i] = 1;
    this.waiting[this.plannedNode[i]].push(i);
    this.dirty = true;
  }
}
