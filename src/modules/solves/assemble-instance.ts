import type { PlanWindow } from '../../engine/commitments/holds';
import { NodeLoss, withLostNodes } from '../../engine/commitments/node-loss';
import { InstanceDoc, Issue, JobSpec, NetworkSpec, NodeSpec } from '../../engine/model/types';

export interface InstanceParts {
  name: string;
  metrics: string[];
  nodes: NodeSpec[];
  network?: NetworkSpec | null;
  jobs: JobSpec[];
  horizon?: { slots: number; slotSeconds: number };
  usage?: Record<string, Record<string, number[]>>;
  safetyMargin?: Record<string, number>;
  /** What committed plans of other batches hold (docs/FORMAT.md, Reserved capacity). */
  reserved?: Record<string, Record<string, number[]>>;
  /** Jobs without a customer are billed to this one. */
  customer: string;
}

/** Builds the fallow.instance/v1 a solve runs on from a cluster version, a forecast and a batch. */
export function assembleInstance(parts: InstanceParts): InstanceDoc {
  return {
    format: 'fallow.instance/v1',
    name: parts.name,
    horizon: parts.horizon!,
    metrics: parts.metrics,
    ...(parts.safetyMargin ? { safetyMargin: parts.safetyMargin } : {}),
    nodes: parts.nodes,
    ...(parts.network ? { network: parts.network } : {}),
    ...(parts.usage ? { usage: parts.usage } : {}),
    ...(parts.reserved ? { reserved: parts.reserved } : {}),
    jobs: parts.jobs.map((j) => ({ ...j, customer: j.customer ?? parts.customer })),
  };
}

/**
 * The instance with the lost nodes unavailable over its window (slot 0 at window.startsAtMs): usage 1 on every
 * metric in each slot a loss touches (withLostNodes). The same instance when no loss falls in it. Call it once the
 * instance's size has been admitted: it writes a full series for each lost node.
 */
export function lostNodesUnavailable(instance: InstanceDoc, window: PlanWindow, losses: readonly NodeLoss[]): InstanceDoc {
  const usage = withLostNodes(instance.usage, instance.nodes.map((n) => n.id), instance.metrics, window, losses);
  return usage === instance.usage ? instance : { ...instance, usage };
}

/** `safetyMargin` of a solve request: one fraction for every metric, or one per metric. */
export function normaliseSafetyMargin(raw: unknown, metrics: string[]): { margin?: Record<string, number>; issues: Issue[] } {
  if (raw === undefined || raw === null) return { issues: [] };
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw) || raw < 0 || raw > 1) return { issues: [{ path: 'safetyMargin', message: `must be a fraction in [0, 1], got ${raw}` }] };
    return { margin: Object.fromEntries(metrics.map((m) => [m, raw])), issues: [] };
  }
  if (typeof raw === 'object' && !Array.isArray(raw)) return { margin: raw as Record<string, number>, issues: [] }; // checked by the engine
  return { issues: [{ path: 'safetyMargin', message: 'must be a number in [0, 1] or an object of metric -> fraction' }] };
}

/** Engine paths of an assembled instance, renamed to where the caller can fix them. */
export function sourcePath(path: string): string {
  if (path.startsWith('jobs')) return `batch.${path}`;
  if (path.startsWith('nodes') || path.startsWith('metrics')) return `cluster.${path}`;
  if (path.startsWith('usage')) return `forecast.${path}`;
  return path;
}
