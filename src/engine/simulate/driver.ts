import type { Simulator } from './simulator';

/**
 * Who decides where and when tasks run: a plan to follow (plan-driver.ts) or an online policy
 * (src/engine/policies: Hadoop's default scheduler, Cuckoo). The simulator owns time, resources, the
 * network and the QoS controller; the driver only launches ready tasks through `sim.launch`.
 */
export interface Driver {
  readonly name: string;
  readonly mode: 'plan' | 'policy';
  /**
   * Once, before the clock starts: accept or reject jobs (`sim.accepted`), place chunk replicas
   * (`sim.replicas`) and set the task slots of each node (`sim.slots`). May schedule timers.
   */
  prepare(sim: Simulator): void;
  /** Task i became runnable: its job is released and every task of its predecessor stages is done. */
  onReady(sim: Simulator, task: number): void;
  /**
   * Task i was killed on node k (by the QoS controller or the stall timeout) and must be relaunched.
   * Must not launch anything itself.
   */
  onKilled(sim: Simulator, task: number, node: number): void;
  /** A timer the driver set with `sim.timer(time, payload)` went off. */
  onTimer?(sim: Simulator, payload: number): void;
  /** Launch what can be launched now. Called after every event that may have changed something. */
  dispatch(sim: Simulator): void;
}

/** Task life cycle in the simulator. */
export const TaskState = {
  /** Job not released yet, or a predecessor stage still has tasks to finish (map -> reduce barrier). */
  Blocked: 0,
  /** Runnable, waiting for the driver (first launch or relaunch after a kill). */
  Ready: 1,
  /** Launched on a node that holds none of its chunk's replicas: fetching the chunk. */
  Transfer: 2,
  Running: 3,
  Done: 4,
  /** Its job was rejected: never runs. */
  Skipped: 5,
} as const;
