import { killForMetric, killsFor, killThreshold } from './kill-order';
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
    // A node is checked at every launch and every period (POSUM's look-ahead checks millions of times a day), and
    // nearly every check kills nothing: that is told without the set of the killed.
    if (!mayKill(view)) return out;
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
  let cpu = IS_CPU.get(metric);
  if (cpu !== undefined) return cpu;
  cpu = CPU_NAMES.has(metric.toLowerCase());
  if (IS_CPU.size < 256) IS_CPU.set(metric, cpu);
  return cpu;
}

const CPU_NAMES = new Set(['cpu', 'vcpu', 'cpus', 'vcpus', 'cores']);
/** isCpu's answers by metric name, as given (a run asks for the same few names millions of times); a few hundred at most. */
const IS_CPU = new Map<string, boolean>();

/** Whether killForMetric could kill for some incompressible metric: with nothing killed yet, its conditions on the node's whole usage (kills for one metric only lower the others'). */
function mayKill(view: QosNodeView): boolean {
  const metrics = view.metrics;
  for (let mi = 0; mi < metrics.length; mi++) if (!isCpu(metrics[mi]) && killsFor(view, mi)) return true;
  return false;
}
