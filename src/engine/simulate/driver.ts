import type { SimulatorView } from './host';
import type { NodeOutage } from './outages';
import type { SimSettings } from './settings';

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
  prepare(sim: SimulatorView): void;
  /**
   * Task i became runnable: its job is released and every task of its predecessor stages is done, or, with
   * early reduces (`reduceSlowstart` < 1), enough of them that it may start fetching their output.
   */
  onReady(sim: SimulatorView, task: number): void;
  /**
   * Task i was killed on node k (by the QoS controller or the stall timeout) and must be relaunched.
   * Must not launch anything itself.
   */
  onKilled(sim: SimulatorView, task: number, node: number): void;
  /** A timer the driver set with `sim.timer(time, payload)` went off. */
  onTimer?(sim: SimulatorView, payload: number): void;
  /**
   * Node k was lost (an outage, outages.ts: its tasks were killed just before, each through onKilled), or came
   * back. Must not launch anything itself.
   */
  onNodeLost?(sim: SimulatorView, node: number): void;
  onNodeBack?(sim: SimulatorView, node: number): void;
  /** Launch what can be launched now. Called after every event that may have changed something. */
  dispatch(sim: SimulatorView): void;
}

/** A provisioning policy: every `periodSeconds` it may lease and release the leasable nodes (sim.leaseNode, sim.releaseNode). */
export interface Provisioner {
  readonly name: string;
  readonly periodSeconds: number;
  decide(sim: SimulatorView): void;
}

/** What a Simulator is built with: the run's settings and, optionally, who leases the instance's `lease` nodes meanwhile. */
export interface SimOptions extends SimSettings {
  /** Leases and releases the instance's `lease` nodes while the workload runs (POSUM's provisioning). */
  provisioner?: Provisioner;
  /** Nodes lost for a while (outages.ts): what runs there is killed, nothing starts there meanwhile. */
  outages?: readonly NodeOutage[];
}

/** Task life cycle in the simulator. */
export const TaskState = {
  /** Job not released yet, or a predecessor stage still has tasks to finish (map -> reduce barrier). */
  Blocked: 0,
  /** Runnable, waiting for the driver (first launch or relaunch after a kill). */
  Ready: 1,
  /**
   * Launched, fetching its inputs: its chunk from another node, its predecessors' output (a reduce's
   * shuffle), or, launched early, waiting for predecessor tasks still running to write theirs.
   */
  Transfer: 2,
  Running: 3,
  Done: 4,
  /** Its job was rejected: never runs. */
  Skipped: 5,
} as const;
