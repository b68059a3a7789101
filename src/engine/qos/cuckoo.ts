import { killForMetric } from './kill-order';
import { isCpu } from './salamander';
import { QosController, QosNodeView } from './types';

/**
 * Cuckoo's QoS controller as Salamander III-D describes it ("relaunches tasks for any resource violation
 * (i.e., CPU, RAM)"): every metric, CPU included, is handled like RAM in Salamander Alg. 3 — tasks are
 * killed latest first until the regular customers have half the safety margin back, all of them when
 * less than the margin is left (Cuckoo III-D: "in case of CPU and/or memory starvation the container is
 * killed"). CPU is still throttled by the simulator's physics in between checks.
 */
export const cuckooQos: QosController = {
  name: 'cuckoo',
  compressible: isCpu,
  check(view: QosNodeView): number[] {
    const out: number[] = [];
    const killed = new Set<number>();
    view.metrics.forEach((_, mi) => killForMetric(view, mi, killed, out));
    return out;
  },
};
