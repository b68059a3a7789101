import { killForMetric, killThreshold } from './kill-order';
import { QosController, QosNodeView } from './types';

/**
 * Salamander's QoS controller (Alg. 3, III-D): CPU is compressible, so a CPU shortfall throttles the
 * tasks (lines 5-6, the simulator's rate model) instead of killing them; incompressible metrics (RAM and
 * any other) kill tasks in reverse scheduling order down to half the safety margin, or all of them when
 * less than the safety margin is left.
 */
export const salamanderQos: QosController = {
  name: 'salamander',
  compressible: isCpu,
  check(view: QosNodeView): number[] {
    const out: number[] = [];
    const killed = new Set<number>();
    view.metrics.forEach((m, mi) => {
      if (!isCpu(m)) killForMetric(view, mi, killed, out);
    });
    return out;
  },
  threshold: (view, m) => (isCpu(view.metrics[m]) ? Infinity : killThreshold(view, m)),
};

export function isCpu(metric: string): boolean {
  return metric.toLowerCase() === 'cpu';
}
