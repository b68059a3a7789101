import type { Model } from '../model/model';
import type { SimClock } from './clock';
import type { Leases } from './leases';
import type { NodeState } from './node-state';
import type { ActualUsage } from './usage';

/**
 * What room each node offers the drivers now: task slots, and per metric what the regular customers' actual
 * load (the current slot's sample), the safety margin and the node's tasks leave.
 */
export class NodeRoom {
  /** Set by the driver in prepare(): concurrent task slots per node. */
  readonly slots: Int32Array;
  /** Safety margin S(m) per metric, fractions. */
  readonly margin: Float64Array;

  constructor(
    private readonly model: Model,
    private readonly usage: ActualUsage,
    private readonly clock: SimClock,
    private readonly nodes: readonly NodeState[],
    private readonly leases: Leases,
    /** The metric the QoS controller throttles (CPU), -1 for none. */
    private readonly cpu: number,
  ) {
    this.slots = Int32Array.from(model.maxTasks);
    this.margin = Float64Array.from(model.metrics, (m) => model.doc.safetyMargin?.[m] ?? 0);
  }

  freeSlots(k: number): number {
    return this.leases.accepting(k) ? this.slots[k] - this.nodes[k].tasks.length : 0;
  }

  /**
   * What free() and headroom() answer for: node k accepts tasks and its QoS controller has not killed on it
   * this slot. Without the second, a controller checking within the slot (it sees the load interpolated,
   * the schedulers the slot's sample) could kill a launch at once and a scheduler relaunch it on the same
   * node at the same instant, forever (bench:posum's uniform-3 under edls-sh/minus-x did). The plan driver
   * and relaunches already skip such nodes; Hadoop's dispatcher, blind to the controller, only asks
   * freeSlots() and waits for its next heartbeat.
   */
  private offersRoom(k: number): boolean {
    return this.leases.accepting(k) && !this.nodes[k].closed;
  }

  /**
   * The regular customers leave node k no CPU at all in the current period under the actual load: a task
   * launched there would make no progress (its TaskTracker's container has been throttled to nothing). A
   * lost node (an outage) is starved too: nothing runs there until it is back.
   */
  starved(k: number): boolean {
    if (this.leases.lost[k]) return true;
    return this.cpu >= 0 && this.model.capacity[k][this.cpu] * (1 - this.usage.at(k, this.cpu, this.clock.slot)) <= 1e-9;
  }

  /** Per metric, what node k has left now for more tasks: C(1-U-S) under the actual load, minus its tasks' reservations. */
  freeCapacity(k: number): Float64Array {
    const out = new Float64Array(this.model.M);
    for (let m = 0; m < this.model.M; m++) out[m] = this.free(k, m);
    return out;
  }

  /** freeCapacity(k)[m] without building the array (the policies ask it for every node at every dispatch). */
  free(k: number, m: number): number {
    if (!this.offersRoom(k)) return 0;
    return Math.max(0, this.model.capacity[k][m] * Math.max(0, 1 - this.usage.at(k, m, this.clock.slot) - this.margin[m]) - this.nodes[k].used[m]);
  }

  /**
   * Smallest share of capacity the node would have left over the regular customers' *actual* load, its
   * safety margin and its tasks if task i joined them: min over metrics of (C(1-U-S) - used - Rq) / C.
   * Negative when the task does not fit.
   */
  headroom(k: number, i: number): number {
    if (!this.offersRoom(k)) return -Infinity;
    const d = this.model.stages[this.model.taskStage[i]].demand;
    const cap = this.model.capacity[k];
    const used = this.nodes[k].used;
    let worst = Infinity;
    for (let m = 0; m < this.model.M; m++) {
      const free = cap[m] * Math.max(0, 1 - this.usage.at(k, m, this.clock.slot) - this.margin[m]) - used[m] - d[m];
      const share = cap[m] > 0 ? free / cap[m] : free >= -1e-9 ? 0 : -Infinity;
      if (share < worst) worst = share;
    }
    return worst;
  }
}
