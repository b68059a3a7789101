import type { InstanceDoc } from '../model/types';
import { Hold, PlanWindow, reservedFromHolds } from './holds';
import { capToQuota, Quota, totals } from './quota';

/** A hold with the customer whose plan holds it and whether that plan is borrowing beyond its quota. */
export type CustomerHold = Hold & { tenantId: string; borrowing: boolean };

/** A hold another customer's plan took beyond its quota: a customer within its own quota may take it back. */
export function borrowedFrom(h: CustomerHold, customer: string): boolean {
  return h.borrowing && h.tenantId !== customer;
}

/**
 * The instance a customer's solve on a cluster plans on: what committed plans hold is `reserved`, except what
 * borrowers hold when this customer keeps to its quota (it may take that back at commit);
 * and a customer that may not borrow is capped to its quota (its share of the lendable capacity less what it
 * holds already). The instance comes without `reserved`; nothing held and no quota: it is returned as it is.
 */
export function planAround(instance: InstanceDoc, holds: readonly CustomerHold[], window: PlanWindow, customer: string, quota: Quota | null): InstanceDoc {
  // A customer that cannot pass its quota (none, or one without borrowing) commits within it, so it may
  // plan on what borrowers hold; one that may borrow plans around them (its commit may itself borrow).
  const keepsToQuota = quota === null || !quota.borrow;
  const kept = keepsToQuota ? holds.filter((h) => !borrowedFrom(h, customer)) : holds;
  const reserved = reservedFromHolds(kept, window, instance.nodes, instance.metrics);
  let out: InstanceDoc = Object.keys(reserved).length ? { ...instance, reserved } : instance;
  if (quota && !quota.borrow) {
    const own = reservedFromHolds(
      holds.filter((h) => h.tenantId === customer),
      window,
      instance.nodes,
      instance.metrics,
    );
    out = capToQuota(out, quota, totals(own, instance.metrics, window.slots));
  }
  return out;
}
