import type { InstanceDoc } from '../model/types';
import { Reserved } from './holds';

/**
 * A customer's quota on a cluster (Kueue's nominal quota): per metric, the share of the cluster's lendable
 * capacity it may hold at once; metrics left out are not limited. `borrow`: it may go beyond while the
 * capacity is idle, and what it borrowed can be taken back.
 */
export interface Quota {
  shares: Record<string, number>;
  borrow: boolean;
}

const EPS = 1e-9;

/**
 * Lendable capacity per metric and slot, over every node: sum of C(k,m) * max(0, 1 - U(k,m,t) - S(m)), the
 * instance's available capacity before anything is reserved (docs/FORMAT.md).
 */
export function lendable(instance: InstanceDoc, metric: string): number[] {
  const T = instance.horizon.slots;
  const margin = instance.safetyMargin?.[metric] ?? 0;
  const out = new Array<number>(T).fill(0);
  for (const node of instance.nodes) {
    const c = node.capacity[metric] ?? 0;
    const u = instance.usage?.[node.id]?.[metric];
    for (let t = 0; t < T; t++) out[t] += c * Math.max(0, 1 - (u?.[t] ?? 0) - margin);
  }
  return out;
}

/** Per metric, amounts per slot summed over the nodes (the `tasks` counts left out). */
export function totals(reserved: Reserved, metrics: readonly string[], slots: number): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const m of metrics) {
    const sum = new Array<number>(slots).fill(0);
    for (const per of Object.values(reserved)) per[m]?.forEach((q, t) => (sum[t] += q));
    out[m] = sum;
  }
  return out;
}

/** Where a customer's holds plus a plan would pass its quota: metric, slot, what it holds, what the plan adds, the quota. */
export interface QuotaExcess {
  metric: string;
  slot: number;
  held: number;
  adds: number;
  quota: number;
}

/**
 * Where `own` (what the customer holds already) plus `adds` (the plan) passes share * lendable, first slots
 * first. Metrics the quota leaves out are not limited.
 */
export function quotaExcess(instance: InstanceDoc, quota: Quota, own: Record<string, number[]>, adds: Record<string, number[]>): QuotaExcess[] {
  const out: QuotaExcess[] = [];
  for (const [m, share] of Object.entries(quota.shares)) {
    if (!instance.metrics.includes(m)) continue;
    const L = lendable(instance, m);
    for (let t = 0; t < L.length; t++) {
      const held = own[m]?.[t] ?? 0;
      const plus = adds[m]?.[t] ?? 0;
      if (plus > 0 && held + plus > share * L[t] + EPS * Math.max(1, share * L[t])) out.push({ metric: m, slot: t, held, adds: plus, quota: share * L[t] });
    }
  }
  return out.sort((a, b) => a.slot - b.slot || a.metric.localeCompare(b.metric));
}

/**
 * The instance a customer with this quota plans on: its `reserved` grown so that, per metric and slot, what is
 * left free over all nodes is at most its allowance, share * lendable less what it holds already. The
 * allowance goes to whole nodes, the largest first (the same order for every metric and slot, so that one
 * node keeps room on every metric a task needs), rather than a sliver of every node that no task would fit
 * in. An instance within the allowance is returned unchanged.
 */
export function capToQuota(instance: InstanceDoc, quota: Quota, own: Record<string, number[]>): InstanceDoc {
  const T = instance.horizon.slots;
  const reserved: Reserved = structuredClone(instance.reserved ?? {});
  const capped = Object.keys(quota.shares).filter((m) => instance.metrics.includes(m));
  const size = (n: InstanceDoc['nodes'][number]) => capped.reduce((s, m) => s + (n.capacity[m] ?? 0) / Math.max(EPS, totalCapacity(instance, m)), 0);
  const order = instance.nodes.map((n, k) => ({ n, k, size: size(n) })).sort((a, b) => b.size - a.size || a.k - b.k);
  let changed = false;
  for (const m of capped) {
    const L = lendable(instance, m);
    const margin = instance.safetyMargin?.[m] ?? 0;
    for (let t = 0; t < T; t++) {
      let left = Math.max(0, quota.shares[m] * L[t] - (own[m]?.[t] ?? 0));
      for (const { n } of order) {
        const c = n.capacity[m] ?? 0;
        const free = Math.max(0, c * Math.max(0, 1 - (instance.usage?.[n.id]?.[m]?.[t] ?? 0) - margin) - (reserved[n.id]?.[m]?.[t] ?? 0));
        const keep = Math.min(free, left);
        left -= keep;
        if (free - keep <= EPS) continue;
        const per = (reserved[n.id] ??= {});
        const series = (per[m] ??= []);
        while (series.length < T) series.push(0);
        series[t] += free - keep;
        changed = true;
      }
    }
  }
  return changed ? { ...instance, reserved } : instance;
}

function totalCapacity(instance: InstanceDoc, metric: string): number {
  return instance.nodes.reduce((s, n) => s + (n.capacity[metric] ?? 0), 0);
}
