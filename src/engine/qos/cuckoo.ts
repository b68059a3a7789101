import { byLatestFirst, killDownTo, killThreshold, usageLeft } from './kill-order';
import { isCpu } from './salamander';
import { QOS_EPS, QosController, QosNodeView } from './types';

/**
 * Cuckoo's QoS controller as Cuckoo III-D states it (the `cuckoo` QoS; Salamander's different reading of
 * it is cuckoo-salamander-reading.ts):
 *   - "checks if the regular customers workloads are using more than a predefined threshold of the safety
 *     margin (tuned to 50% in our experiments). In this case, the allocated resources for the ephemeral
 *     customers jobs must be reduced or completely released";
 *   - CPU is throttled, never killed for: "The CPU control is done by adjusting dynamically the hard limits
 *     of the CPU cycles that a container is able to consume ... the map or reduce tasks will be slowed
 *     down" (the simulator's throttling physics, `compressible`);
 *   - memory (and any other metric, which cannot be throttled either): "Cuckoo has a more aggressive
 *     strategy and it acts as a system memory killer. Cuckoo kills proportionally the amount of map or
 *     reduce tasks necessary to free the safety margin related to memory occupation": once the regular
 *     customers eat more than half the margin, tasks are killed until the *whole* margin is free again
 *     (usage <= C(1 - U) - sm; Salamander Alg. 3 stops at half of it). The text names no order; a system
 *     memory killer (Linux's OOM killer scores processes by their memory footprint) kills the largest
 *     first, which also frees the margin with the fewest kills; among equal demands, the latest launched
 *     first (the order Salamander III-D gives for the RAM kills it says are "like in Cuckoo");
 *   - starvation, CPU included: "In case of CPU and/or memory starvation (i.e., only the safety margin
 *     resources are available) the container is killed": when the regular customers leave the margin or
 *     less of any metric, C(1 - U) <= sm, every task of the node's TaskTracker container is killed.
 */
export const cuckooQos: QosController = {
  name: 'cuckoo',
  compressible: isCpu,
  check(view: QosNodeView): number[] {
    if (view.tasks.length === 0) return [];
    for (let m = 0; m < view.metrics.length; m++) if (starved(view, m)) return byLatestFirst(view, [...view.tasks]);
    const out: number[] = [];
    const killed = new Set<number>();
    view.metrics.forEach((metric, m) => {
      if (!isCpu(metric)) memoryKiller(view, m, killed, out);
    });
    return out;
  },
  threshold(view: QosNodeView, m: number): number {
    if (view.tasks.length === 0 || !(view.capacity[m] > 0)) return Infinity;
    const starvation = 1 - view.margin[m];
    return isCpu(view.metrics[m]) ? starvation : Math.min(starvation, killThreshold(view, m));
  },
};

/** Only the safety margin, or less, of metric m is left by the regular customers: C(1 - U) <= sm. */
function starved(view: QosNodeView, m: number): boolean {
  const C = view.capacity[m];
  return C > 0 && C * Math.max(0, 1 - view.regular[m]) <= C * view.margin[m] + QOS_EPS;
}

/** Past half the margin of m, kills the largest users of m first until the whole margin is free. */
function memoryKiller(view: QosNodeView, m: number, killed: Set<number>, out: number[]): void {
  const C = view.capacity[m];
  const free = C * Math.max(0, 1 - view.regular[m]);
  const sm = C * view.margin[m];
  const usage = usageLeft(view, m, killed);
  if (usage <= QOS_EPS || usage <= free - sm / 2 + QOS_EPS) return;
  const alive = byLatestFirst(view, view.tasks.filter((i) => !killed.has(i)));
  // Array.prototype.sort is stable: equal demands keep the latest-first order.
  alive.sort((x, y) => view.demand(y, m) - view.demand(x, m));
  killDownTo(view, m, alive, free - sm, usage, killed, out);
}
