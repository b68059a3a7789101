import type { Model } from '../../model/model';
import { Driver, TaskState } from '../../simulate/driver';
import type { SimulatorView } from '../../simulate/host';
import { CLONE } from '../../simulate/fork';
import { givenOrRandomReplicas } from './replicas';

/** No fixed slots: a container policy launches what fits in the node's free resources (YARN, not Hadoop 1). */
const UNLIMITED_SLOTS = 1 << 20;

/**
 * The base of the resource-aware online policies the ACO-BP paper compares (fair, aco-bp): every job is
 * accepted, chunks live where the instance puts them, and a task is launched on a node only where it fits
 * in what the regular customers' actual load, the safety margin and the running tasks leave
 * (`sim.headroom >= 0`), so the QoS controller has nothing to kill unless the load rises later. Ready
 * tasks are kept per stage in launch order; subclasses choose which stage's task goes where.
 */
export abstract class ContainerDispatch implements Driver {
  abstract readonly name: string;
  readonly mode = 'policy' as const;
  /** Ready, unlaunched tasks of each stage, in order (lazy: launched ones are skipped when met). */
  private readonly ready: (Queue | undefined)[];
  /** The same per stage and node holding the task's chunk, and per stage and rack: locality without scans. */
  private readonly byNode: (Map<number, Queue> | undefined)[];
  private readonly byRack: (Map<string, Queue> | undefined)[];
  /** The stages that may have a task waiting (queued to since last found empty), in ascending order: readyStages scans these only. */
  private candidates: number[] = [];
  private readonly candidate: Uint8Array;
  private seenEpoch = -1;
  protected dirty = true;

  constructor(protected readonly model: Model) {
    // Made when first queued to: a stage never ready (a job not submitted yet) costs a copy of the run nothing.
    this.ready = new Array<Queue | undefined>(model.stages.length).fill(undefined);
    this.byNode = new Array<Map<number, Queue> | undefined>(model.stages.length).fill(undefined);
    this.byRack = new Array<Map<string, Queue> | undefined>(model.stages.length).fill(undefined);
    this.candidate = new Uint8Array(model.stages.length);
  }

  prepare(sim: SimulatorView): void {
    sim.accepted.fill(1);
    sim.slots.fill(UNLIMITED_SLOTS);
    givenOrRandomReplicas(sim);
  }

  onReady(sim: SimulatorView, i: number): void {
    this.enqueue(sim, i);
  }

  onKilled(sim: SimulatorView, i: number): void {
    this.enqueue(sim, i);
  }

  private enqueue(sim: SimulatorView, i: number): void {
    const g = this.model.taskStage[i];
    (this.ready[g] ??= new Queue()).push(i);
    if (!this.candidate[g]) {
      this.candidate[g] = 1;
      let at = this.candidates.length;
      while (at > 0 && this.candidates[at - 1] > g) at--;
      this.candidates.splice(at, 0, g);
    }
    const r = sim.replicas[i];
    if (r)
      for (const k of r) {
        queueOf((this.byNode[g] ??= new Map()), k).push(i);
        if (this.model.racks[k] !== '') queueOf((this.byRack[g] ??= new Map()), this.model.racks[k]).push(i);
      }
    this.dirty = true;
  }

  onTimer(sim: SimulatorView, payload: number): void {
    this.dirty = true;
    this.timer(sim, payload);
  }

  /** A timer the subclass set went off (before the dispatch that follows it). */
  protected timer(_sim: SimulatorView, _payload: number): void {}

  dispatch(sim: SimulatorView): void {
    if (!this.dirty && sim.capacityEpoch === this.seenEpoch) return;
    this.dirty = false;
    this.seenEpoch = sim.capacityEpoch;
    this.assign(sim);
  }

  /** Launch what the policy wants now. */
  protected abstract assign(sim: SimulatorView): void;

  /** Whether task i is still waiting to be launched. */
  protected waiting(sim: SimulatorView, i: number): boolean {
    return sim.state[i] === TaskState.Ready && sim.node[i] < 0;
  }

  /** Stages with a task waiting, in ascending order (a stage found with none leaves the candidates until queued to again). */
  protected readyStages(sim: SimulatorView): number[] {
    const out: number[] = [];
    for (const g of this.candidates)
      if (this.firstWaiting(sim, g) >= 0) out.push(g);
      else this.dropStage(g);
    if (out.length !== this.candidates.length) this.candidates = out.slice();
    return out;
  }

  /**
   * Stage g has no task waiting: it leaves the candidates, and its queues go. Every waiting task has an entry in
   * each of its stage's queues (enqueue), so these hold only dead entries now; a task queued again later gets new
   * ones, found first as before. A copy of the run (POSUM's look-ahead copies it thousands of times a day) then
   * copies the queues of the stages that wait, not of every stage ever queued to.
   */
  private dropStage(g: number): void {
    this.candidate[g] = 0;
    this.ready[g] = undefined;
    this.byNode[g] = undefined;
    this.byRack[g] = undefined;
  }

  /** Whether stage g has a task waiting. */
  protected hasWaiting(sim: SimulatorView, g: number): boolean {
    return this.firstWaiting(sim, g) >= 0;
  }

  /** How many tasks of stage g wait, and how many of them have a chunk on each node (a task reading none is local everywhere). */
  protected waitingCounts(sim: SimulatorView, g: number): { waiting: number; local: Int32Array } {
    const local = new Int32Array(this.model.K);
    let waiting = 0;
    let chunkless = 0;
    const seen = new Set<number>(); // a killed task is queued again: its old entry is met twice
    this.ready[g]?.forEach((i) => {
      if (seen.has(i) || !this.waiting(sim, i)) return;
      seen.add(i);
      waiting++;
      const r = sim.replicas[i];
      if (r) for (const k of r) local[k]++;
      else chunkless++;
    });
    if (chunkless > 0) for (let k = 0; k < local.length; k++) local[k] += chunkless;
    return { waiting, local };
  }

  /**
   * A waiting task of stage g for node k at the best locality allowed: node-local first, then (level >= 1)
   * rack-local, then (level 2) any; -1 when none at an allowed level. A task reading no chunk is local anywhere.
   */
  protected pick(sim: SimulatorView, g: number, k: number, level: 0 | 1 | 2): number {
    const waiting = (i: number) => this.waiting(sim, i);
    const local = this.byNode[g]?.get(k)?.first(waiting) ?? -1;
    if (local >= 0) return local;
    const first = this.firstWaiting(sim, g);
    if (first >= 0 && sim.replicas[first] === null) return first;
    if (level >= 1 && this.model.racks[k] !== '') {
      const rack = this.byRack[g]?.get(this.model.racks[k])?.first(waiting) ?? -1;
      if (rack >= 0) return rack;
    }
    return level >= 2 ? first : -1;
  }

  private firstWaiting(sim: SimulatorView, g: number): number {
    return this.ready[g]?.first((i) => this.waiting(sim, i)) ?? -1;
  }
}

/** A FIFO of task ids with lazy deletion: entries no longer waiting are dropped when met. */
class Queue {
  private items: number[] = [];
  private head = 0;

  /** Its copy in a copy of the run (cloneState): the entries not yet dropped, made as any queue is (a dispatcher holds one per stage). */
  [CLONE](): Queue {
    const q = new Queue();
    q.items = this.items.slice(this.head);
    return q;
  }

  push(i: number): void {
    this.items.push(i);
  }

  /** The first entry still `alive`, or -1. */
  first(alive: (i: number) => boolean): number {
    while (this.head < this.items.length && !alive(this.items[this.head])) this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    return this.head < this.items.length ? this.items[this.head] : -1;
  }

  /** Calls `f` on the entries not yet dropped, in order (some may no longer be alive). */
  forEach(f: (i: number) => void): void {
    for (let n = this.head; n < this.items.length; n++) f(this.items[n]);
  }
}

function queueOf<K>(map: Map<K, Queue>, key: K): Queue {
  let q = map.get(key);
  if (!q) map.set(key, (q = new Queue()));
  return q;
}
