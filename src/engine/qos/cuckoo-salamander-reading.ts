import { killForMetric, killThreshold } from './kill-order';
import { isCpu } from './salamander';
import { QosController, QosNodeView } from './types';

/**
 * Cuckoo's QoS controller as *Salamander* describes it, the "previous version" its RQ3 (IV-C, Fig. 5)
 * compares against: it "relaunches tasks for any resource violation (i.e., CPU, RAM)" (Salamander III-A
 * item 4). Every metric, CPU included, is handled like RAM in Salamander Alg. 3: tasks are killed latest
 * first until the regular customers have half the safety margin back, all of them when less than the
 * margin is left. CPU is still throttled by the simulator's physics in between. Cuckoo's own text
 * (Cuckoo III-D) throttles CPU instead: see cuckoo.ts.
 */
export const cuckooSalamanderReadingQos: QosController = {
  name: 'cuckoo-salamander-reading',
  compressible: isCpu,
  check(view: QosNodeView): number[] {
    const out: number[] = [];
    const killed = new Set<number>();
    view.metrics.forEach((_, mi) => killForMetric(view, mi, killed, out));
    return out;
  },
  threshold: killThreshold,
};
