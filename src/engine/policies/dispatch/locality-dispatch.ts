import { Model } from '../../model/model';
import { Driver, TaskState } from '../../simulate/driver';
import { MinHeap } from '../../schedule/min-heap';
import type { SimulatorView } from '../../simulate/host';

/** Hadoop's default TaskTracker configuration (Cuckoo IV-A, Salamander IV-A): 20 map/reduce slots. */
export const HADOOP_SLOTS_PER_NODE = 20;

/** TaskTracker heartbeat period (Salamander II-B: "periodically (e.g., 3 seconds)"). */
export const HEARTBEAT_SECONDS = 3;

/**
 * Hadoop's default JobTracker (Cuckoo II-B): whenever a TaskTracker has an empty slot it asks for a task;
 * the JobTracker answers with a task whose chunk that node holds if there is one (locality first), else
 * with any pending task, which then reads its chunk remotely. Jobs are served FIFO (earliest release,
 * then submission order). Slots are fixed per node and blind to the load: no forecasts.
 *
 * Nor does it know what the QoS controller did: the controller shrinks the TaskTracker's container
 * (Cuckoo III-D) but the TaskTracker still has its fixed slots, so at its next heartbeat it asks for
 * tasks again and gets them, on a node that may kill them again (Salamander IV-B: Cuckoo's relaunches
 * come from "the fixed number of slots"). Only the heartbeat paces it: a node whose task was killed is
 * served again HEARTBEAT_SECONDS later, not at once (that would relaunch within the same instant).
 *
 * Two rules of Hadoop 1's JobQueueTaskScheduler.assignTasks (the JobTracker both papers run) bound what one
 * heartbeat hands a TaskTracker: "at most 1 off-switch" map (a map whose chunk the node does not hold), "to
 * prevent TaskTrackers from stealing local-tasks from other TaskTrackers", and "never more than 1 reduce
 * task per heartbeat". Local maps fill every free slot. Without the reduce rule the first node with free
 * slots took every reduce of a job, and the whole shuffle entered through one or two nodes' links.
 *
 * Subclasses decide acceptance and chunk placement (Hadoop: random replicas; Cuckoo: WRR on forecasts).
 */
export abstract class LocalityDispatch implements Driver {
  abstract readonly name: string;
  readonly mode = 'policy' as const;
  /** FIFO rank of each task: jobs by (release, index), tasks in order inside a job. */
  protected readonly rank: Int32Array;
  /** Pending maps (and any task without predecessors), FIFO. */
  private readonly pending: MinHeap;
  /** Pending reduces (tasks of a stage with predecessors), FIFO. */
  private readonly pendingReduces: MinHeap;
  private readonly local: MinHeap[];
  private readonly isReduce: Uint8Array;
  private dirty = true;
  private seenEpoch = -1;
  /** Heartbeats come in turn: the node asked first rotates so no node is always served first. */
  private nextNode = 0;
  /** Per node: no task is handed to it before this time (its next heartbeat after a kill). */
  private readonly wakeAt: Float64Array;
  /** Per node: when its current heartbeat's off-switch map and its reduce were handed out (-inf: not yet). */
  private readonly offSwitchAt: Float64Array;
  private readonly reduceAt: Float64Array;
  /** Per node: the time of the timer already set for its next heartbeat (no duplicate timers). */
  private readonly heartbeatTimer: Float64Array;

  constructor(
    protected readonly model: Model,
    protected readonly slotsPerNode = HADOOP_SLOTS_PER_NODE,
  ) {
    const order = model.jobs.map((_, j) => j).sort((a, b) => model.jobs[a].release - model.jobs[b].release || a - b);
    this.rank = new Int32Array(model.nTasks);
    let r = 0;
    for (const j of order) {
      const job = model.jobs[j];
      for (let i = job.firstTask; i < job.firstTask + job.taskCount; i++) this.rank[i] = r++;
    }
    this.pending = new MinHeap(this.rank, 64);
    this.pendingReduces = new MinHeap(this.rank, 16);
    this.local = model.nodeIds.map(() => new MinHeap(this.rank, 16));
    this.isReduce = new Uint8Array(model.nTasks);
    for (let i = 0; i < model.nTasks; i++) this.isReduce[i] = model.stages[model.taskStage[i]].preds.length > 0 ? 1 : 0;
    this.wakeAt = new Float64Array(model.K);
    this.offSwitchAt = new Float64Array(model.K).fill(-Infinity);
    this.reduceAt = new Float64Array(model.K).fill(-Infinity);
    this.heartbeatTimer = new Float64Array(model.K).fill(-Infinity);
  }

  prepare(sim: SimulatorView): void {
    sim.slots.fill(this.slotsPerNode);
    this.place(sim);
  }

  /** Accept or reject jobs and place chunk replicas (sim.accepted, sim.replicas). */
  protected abstract place(sim: SimulatorView): void;

  onReady(sim: SimulatorView, i: number): void {
    this.enqueue(sim, i);
  }

  /**
   * A killed task goes back to the pending pool, at its FIFO rank (so ahead of later tasks). Its node's
   * TaskTracker asks for work again at its next heartbeat.
   */
  onKilled(sim: SimulatorView, i: number, k: number): void {
    this.enqueue(sim, i);
    if (this.wakeAt[k] <= sim.now) {
      this.wakeAt[k] = sim.now + HEARTBEAT_SECONDS;
      sim.timer(this.wakeAt[k], k);
    }
  }

  /** Node k's heartbeat after a kill: it may be handed tasks again. */
  onTimer(_sim: SimulatorView, _k: number): void {
    this.dirty = true;
  }

  dispatch(sim: SimulatorView): void {
    if (!this.dirty && sim.capacityEpoch === this.seenEpoch) return;
    this.dirty = false;
    this.seenEpoch = sim.capacityEpoch;
    const K = this.model.K;
    const first = this.nextNode;
    this.nextNode = (this.nextNode + 1) % K;
    for (let n = 0; n < K; n++) {
      const k = (first + n) % K;
      while (sim.freeSlots(k) > 0 && sim.now >= this.wakeAt[k]) {
        const i = this.take(sim, k);
        if (i < 0) break;
        sim.launch(i, k);
      }
    }
  }

  private enqueue(sim: SimulatorView, i: number): void {
    if (this.isReduce[i]) this.pendingReduces.push(i);
    else this.pending.push(i);
    const r = sim.replicas[i];
    if (r) for (const k of r) this.local[k].push(i);
    this.dirty = true;
  }

  /**
   * The first pending task local to node k; else, within this heartbeat's allowance (one off-switch map,
   * one reduce), the first pending task in FIFO order; -1 when none may go to k now. A task the allowance
   * holds back sets a timer for k's next heartbeat.
   */
  private take(sim: SimulatorView, k: number): number {
    const waiting = (i: number) => sim.state[i] === TaskState.Ready && sim.node[i] < 0;
    const first = (h: MinHeap) => {
      while (h.size > 0 && !waiting(h.peek())) h.pop(); // lazy deletion of launched entries
      return h.size > 0 ? h.peek() : -1;
    };
    const loc = this.local[k];
    if (first(loc) >= 0) return loc.pop();
    const nextBeat = (at: number) => at + HEARTBEAT_SECONDS;
    let map = first(this.pending);
    // A map with no chunk (no replicas) is local everywhere; one with replicas elsewhere is off-switch.
    const offSwitch = map >= 0 && sim.replicas[map] !== null;
    if (offSwitch && sim.now < nextBeat(this.offSwitchAt[k])) {
      this.heartbeatAt(sim, k, nextBeat(this.offSwitchAt[k]));
      map = -1;
    }
    let reduce = first(this.pendingReduces);
    if (reduce >= 0 && sim.now < nextBeat(this.reduceAt[k])) {
      this.heartbeatAt(sim, k, nextBeat(this.reduceAt[k]));
      reduce = -1;
    }
    if (map >= 0 && (reduce < 0 || this.rank[map] < this.rank[reduce])) {
      if (offSwitch) this.offSwitchAt[k] = sim.now;
      return this.pending.pop();
    }
    if (reduce >= 0) {
      this.reduceAt[k] = sim.now;
      return this.pendingReduces.pop();
    }
    return -1;
  }

  private heartbeatAt(sim: SimulatorView, k: number, t: number): void {
    if (this.heartbeatTimer[k] > sim.now && this.heartbeatTimer[k] <= t) return; // one is set already
    this.heartbeatTimer[k] = t;
    sim.timer(t, k);
  }
}
