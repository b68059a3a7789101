import type { Model } from '../model/model';
import type { Random } from '../random';
import type { SimSettings } from './settings';
import type { ActualUsage } from './usage';

/** What a driver sees of one node: its launched tasks, what they reserve, whether the QoS controller closed it this period. */
export interface NodeView {
  readonly tasks: readonly number[];
  readonly used: ArrayLike<number>;
  readonly closed: boolean;
}

/**
 * Per stage (indexed by stage): the runtimes (launch to end) of its ended tasks, as the runtime predictors'
 * evidence: their count, sum and sum of squares.
 */
export interface StageRuns {
  readonly n: ArrayLike<number>;
  readonly sum: ArrayLike<number>;
  readonly sumSq: ArrayLike<number>;
}

/**
 * How a driver (a plan replay, an online policy, a provisioner) sees the simulator: what it may read, what
 * it may set up before the clock starts, and what it may start or stop. The Simulator implements it; a
 * driver is called with it (driver.ts) and never reaches into the kernel's parts.
 */
export interface SimulatorView {
  // ---- what it may read -------------------------------------------------------------------------
  readonly model: Model;
  /** The regular customers' actual load the run replays. */
  readonly usage: ActualUsage;
  readonly options: SimSettings;
  /** The run's random stream for drivers (seeded by options.seed). */
  readonly rng: Random;
  /** Simulated seconds since the window's start, and the slot whose load applies. */
  readonly now: number;
  readonly slot: number;
  /** Moves whenever a node may have room it did not have: a driver may skip its dispatch scan when it has not. */
  readonly capacityEpoch: number;
  /** Per task: its TaskState and the node of its current attempt (-1: none). */
  readonly state: ArrayLike<number>;
  readonly node: ArrayLike<number>;
  /** Per task: when its last attempt was launched, began computing (after its inputs arrived) and ended (-1: not yet). */
  readonly startedAt: ArrayLike<number>;
  readonly computeStartedAt: ArrayLike<number>;
  readonly endTime: ArrayLike<number>;
  /** Per task: its last attempt read its chunk from another node (1). */
  readonly remote: ArrayLike<number>;
  /** Per stage: its tasks that have ended, and their runtimes. */
  readonly stageDone: ArrayLike<number>;
  readonly stageRuns: StageRuns;
  readonly nodes: readonly NodeView[];
  /** Per node: up (1) or not; when its current lease began (-1: none); draining (1: released once idle). */
  readonly up: ArrayLike<number>;
  readonly leasedAt: ArrayLike<number>;
  readonly draining: ArrayLike<number>;
  /** Per node: lost to an outage now (non-zero; outages.ts): it runs nothing and takes no task. */
  readonly lost: ArrayLike<number>;

  // ---- what it sets up in Driver.prepare(), read afterwards ---------------------------------------
  /** Jobs it runs (1) or rejects (0). */
  readonly accepted: Uint8Array;
  /** Chunk replica nodes per task, null when the task reads no chunk. */
  readonly replicas: (number[] | null)[];
  /** Concurrent task slots per node. */
  readonly slots: Int32Array;

  // ---- what it may ask ----------------------------------------------------------------------------
  /** Free task slots on node k (0 when it takes no new task). */
  freeSlots(k: number): number;
  /** Node k is up and may take new tasks: not draining past its minimum lease. */
  accepting(k: number): boolean;
  /** Per metric, what node k has left now for more tasks (free(k, m) for every m). */
  freeCapacity(k: number): Float64Array;
  free(k: number, m: number): number;
  /** Smallest share of capacity node k would have left if task i joined it (negative: it does not fit). */
  headroom(k: number, i: number): number;
  /** The regular customers leave node k no CPU at all in the current period. */
  starved(k: number): boolean;
  /** The node holds a replica of the task's chunk (or the task reads none). */
  isLocal(i: number, k: number): boolean;
  /** Seconds task i computes on node k at full speed, and would wait for its inputs there if launched now. */
  runSeconds(i: number, k: number): number;
  fetchSeconds(i: number, k: number): number;
  /** Start of the next period, when the actual load changes and closed nodes open again. */
  nextPeriod(): number;
  /** Seconds node k has been paid for by `until`. */
  uptime(k: number, until: number): number;

  // ---- what it may start or stop -----------------------------------------------------------------
  /** Launches a Ready task on node k (which must have a free slot). */
  launch(i: number, k: number): void;
  /** Calls driver.onTimer(sim, payload) at `time`. */
  timer(time: number, payload: number): void;
  /**
   * Stops the event loop once the current event is handled: Simulator.advance() returns, and whoever runs the
   * loop (a closed loop that re-plans, simulate/closed-loop.ts) resumes it.
   */
  pause(): void;
  /** Leases node k (up after its start-up delay), releases it, drains it (released once idle), takes a draining node back. */
  leaseNode(k: number): boolean;
  releaseNode(k: number): boolean;
  drainNode(k: number): boolean;
  undrainNode(k: number): boolean;
}
