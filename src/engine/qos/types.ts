/**
 * What a QoS controller sees of one node at one check (Salamander III-D, Cuckoo III-D): capacities,
 * the regular customers' actual utilisation, the safety margin and the ephemeral tasks it may kill.
 * Controllers are pure: they return the tasks to kill, the simulator kills them.
 */
export interface QosNodeView {
  metrics: readonly string[];
  /** C(k,m) per metric. */
  capacity: ArrayLike<number>;
  /** Actual regular-customer utilisation U(k,m,t) per metric, fractions. */
  regular: ArrayLike<number>;
  /** Safety margin S(m) per metric, fractions. */
  margin: ArrayLike<number>;
  /** Demand of the ephemeral tasks on the node per metric (their containers' reservations). */
  used: ArrayLike<number>;
  /** The node's ephemeral tasks (any order). */
  tasks: readonly number[];
  /** Rq(i, m) of task i. */
  demand(task: number, metric: number): number;
  /** Scheduling order of task i on this node: larger = scheduled later (killed first). */
  order(task: number): number;
}

export interface QosController {
  name: string;
  /**
   * Metrics the simulator throttles rather than kills for (compressible: CPU). The throttling itself is
   * the simulator's physics (a container never gets more CPU than the regular customers leave).
   */
  compressible(metric: string): boolean;
  /** Tasks to kill now, in the order they are killed. */
  check(view: QosNodeView): number[];
  /**
   * The smallest regular-customer utilisation U(k,m) (a fraction) above which check() would kill on this
   * node as it is now, everything else unchanged; Infinity when no U(k,m) makes it act. The simulator
   * solves for when the within-slot load first crosses it, instead of polling every 100 ms (simulate/qos-clock.ts).
   * `view.regular` is not read.
   */
  threshold(view: QosNodeView, metric: number): number;
}

/** The QoS threshold of both papers: regular customers may eat into half the safety margin. */
export const SAFETY_MARGIN_THRESHOLD = 0.5;

/** Numerical slack of the resource comparisons (same as the evaluator's capacity check). */
export const QOS_EPS = 1e-9;
