import type { Model } from '../model/model';
import type { QosController, QosNodeView } from '../qos/types';
import type { SimClock } from './clock';
import type { EventQueue } from './event-queue';
import { CONTROL, schedule } from './events';
import type { NodeState } from './node-state';
import { defaultQosPeriod, MIN_QOS_PERIOD_SECONDS } from './settings';
import type { ActualUsage } from './usage';

/**
 * When a controller that checks a node every `period` seconds first acts within a slot, given that the
 * regular customers' load moves linearly inside the slot (ActualUsage.within) and that the node's tasks do
 * not change meanwhile (every launch, end or kill reschedules).
 *
 * Its check acts as soon as some metric's load U(t) exceeds the controller's threshold for the node
 * (QosController.threshold). U is linear on the slot, so the earliest such instant t* is solvable; a
 * controller polling at every multiple of `period` first acts at the first multiple after t* (at t* the
 * load only equals the threshold). Scheduling one control event there is equivalent to polling, up to
 * exact ties, without an event every 100 ms per node.
 */

/**
 * First time >= `from` at which a load going linearly from `a` (at `start`) to `b` (at `start + length`)
 * reaches `threshold`; Infinity when it does not within the slot.
 */
export function crossingTime(a: number, b: number, threshold: number, start: number, length: number, from: number): number {
  if (threshold === Infinity) return Infinity;
  const now = a + ((b - a) * (from - start)) / length;
  if (now >= threshold) return from;
  if (b <= a || b < threshold) return Infinity; // not rising, or not that far within the slot
  return start + ((threshold - a) * length) / (b - a);
}

/** The first multiple of `period` strictly after `t` (when a poller would first see the load past its threshold). */
export function nextPoll(t: number, period: number): number {
  const n = Math.floor(t / period) + 1;
  // In floating point n * period may round back to t itself (251 * 0.1 from 25.1): then one period more.
  return n * period > t ? n * period : (n + 1) * period;
}

/**
 * The QoS controller's side of a run: when it checks each node (every slot boundary, every launch and, with
 * a period below the slot, the first period after the load interpolated within the slot crosses its
 * threshold), what it sees of the node (NodeQosView), and the interference it counts.
 */
export class QosClock {
  /** Seconds between the QoS controller's checks, and whether that is below a slot (checks within slots). */
  readonly period: number;
  readonly withinSlot: boolean;
  /** Per node: when its pending within-slot check is due (Infinity: none) and its sequence (stale events are dropped). */
  private readonly controlAt: Float64Array;
  private readonly controlSeq: Int32Array;
  /** Node-slots in which the tasks held more of an incompressible metric than the regular customers left. */
  interference = 0;
  /** What the QoS controller sees of node `view.k`. */
  private readonly view: NodeQosView;

  constructor(
    private readonly model: Model,
    private readonly usage: ActualUsage,
    private readonly clock: SimClock,
    private readonly queue: EventQueue,
    private readonly nodes: readonly NodeState[],
    private readonly controller: QosController,
    margin: Float64Array,
    launchSeq: Float64Array,
    /** The metric the controller throttles (CPU), -1 for none: not counted as interference. */
    private readonly cpu: number,
    periodSeconds: number | undefined,
  ) {
    // A period asked for must fit in the slot.
    this.period = periodSeconds ?? defaultQosPeriod(model.slotSeconds);
    if (!(this.period >= MIN_QOS_PERIOD_SECONDS && this.period <= model.slotSeconds))
      throw new Error(`qosPeriodSeconds must be in [${MIN_QOS_PERIOD_SECONDS}, ${model.slotSeconds}] (the slot length), got ${this.period}`);
    this.withinSlot = this.period < model.slotSeconds;
    this.controlAt = new Float64Array(model.K).fill(Infinity);
    this.controlSeq = new Int32Array(model.K);
    this.view = new NodeQosView(model, nodes, margin, launchSeq, this);
  }

  /**
   * The regular customers' load of metric m on node k as the QoS controller sees it now: the slot's value
   * for the per-slot controller, the load interpolated within the slot otherwise (ActualUsage.within).
   */
  regularNow(k: number, m: number): number {
    const slot = this.clock.slot;
    if (!this.withinSlot) return this.usage.at(k, m, slot);
    const S = this.model.slotSeconds;
    return this.usage.within(k, m, slot, (this.clock.now - slot * S) / S);
  }

  /** Counts interference on node k, then asks the controller what to kill there; null when k runs no task (nothing to check). */
  check(k: number): readonly number[] | null {
    const node = this.nodes[k];
    if (node.tasks.length === 0) return null;
    const cap = this.model.capacity[k];
    const slot = this.clock.slot;
    if (node.lastInterferenceSlot !== slot)
      for (let m = 0; m < this.model.M; m++) {
        if (m === this.cpu) continue; // CPU is throttled: the regular customers always get theirs
        if (node.used[m] > cap[m] * Math.max(0, 1 - this.regularNow(k, m)) + 1e-9) {
          node.lastInterferenceSlot = slot;
          this.interference++;
          break;
        }
      }
    this.view.k = k;
    return this.controller.check(this.view);
  }

  /** A CONTROL event of node k with sequence `seq`: true when it is still the node's pending check (which it consumes). */
  due(k: number, seq: number): boolean {
    if (seq !== this.controlSeq[k]) return false;
    this.controlAt[k] = Infinity;
    return true;
  }

  /**
   * Within-slot controller: schedules node k's next check at the first period after the interpolated load
   * of some metric crosses the controller's threshold for the node as it is (crossingTime), when that is
   * before the next slot boundary (which checks every node anyway). The newest schedule replaces any
   * earlier one (sequence number). Ends and kills outside a check do not reschedule: they only raise the
   * thresholds, so the pending check comes early, finds less or nothing to do, and reschedules.
   */
  scheduleNext(k: number): void {
    // Always right after a check of k and its kills, which left every metric's load at or below the controller's threshold.
    if (this.nodes[k].tasks.length === 0) return;
    const S = this.model.slotSeconds;
    const slot = this.clock.slot;
    const start = slot * S;
    this.view.k = k;
    let first = Infinity;
    for (let m = 0; m < this.model.M; m++) {
      const a = this.usage.at(k, m, slot);
      const b = this.usage.at(k, m, slot + 1);
      // A falling load cannot cross later in the slot: the check that just ran left it below the threshold.
      if (b <= a) continue;
      const threshold = this.controller.threshold(this.view, m);
      if (threshold === Infinity) continue;
      const t = crossingTime(a, b, threshold, start, S, this.clock.now);
      if (t < first) first = t;
    }
    if (first === Infinity) return;
    const at = nextPoll(first, this.period);
    if (at >= start + S || at === this.controlAt[k]) return;
    this.controlAt[k] = at;
    schedule(this.queue, at, CONTROL, k, ++this.controlSeq[k]);
  }
}

/** What the QoS controller sees of node k (QosClock.check), read live from the run: an object, not a closure, so that a fork copies it. */
class NodeQosView implements QosNodeView {
  k = 0;
  private readonly regularScratch: Float64Array;

  constructor(
    private readonly model: Model,
    private readonly nodes: readonly NodeState[],
    readonly margin: Float64Array,
    private readonly launchSeq: Float64Array,
    private readonly qos: QosClock,
  ) {
    this.regularScratch = new Float64Array(model.M);
  }

  get metrics(): readonly string[] {
    return this.model.metrics;
  }

  get capacity(): ArrayLike<number> {
    return this.model.capacity[this.k];
  }

  get regular(): ArrayLike<number> {
    for (let m = 0; m < this.model.M; m++) this.regularScratch[m] = this.qos.regularNow(this.k, m);
    return this.regularScratch;
  }

  get used(): ArrayLike<number> {
    return this.nodes[this.k].used;
  }

  get tasks(): readonly number[] {
    return this.nodes[this.k].tasks;
  }

  demand(i: number, m: number): number {
    return this.model.stages[this.model.taskStage[i]].demand[m];
  }

  order(i: number): number {
    return this.launchSeq[i];
  }
}
