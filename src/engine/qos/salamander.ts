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

/**
 * The metric that is CPU, which the simulator throttles (compressible) rather than kills for: `cpu`, or as
 * clusters often name it `vcpu`, `cpus`, `vcpus` or `cores`, in any case. Matching `cpu` alone let the ACO-BP
 * set-up's `vcpu` go unthrottled: a policy with 20 fixed slots on a 1-vCPU VM then ran 20 tasks at full speed.
 */
export function isCpu(metric: string): boolean {
  return CPU_NAMES.has(metric.toLowerCase());
}

const CPU_NAMES = new Set(['cpu', 'vcpu', 'cpus', 'vcpus', 'cores']);
