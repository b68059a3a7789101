import { PlanWindow } from './holds';

/** What a farmer reports about a node (POST /v1/clusters/{id}/events): taken back by the regular customers, or returned. */
export const CLUSTER_EVENT_TYPES = ['node-lost', 'node-back'] as const;
export type ClusterEventType = (typeof CLUSTER_EVENT_TYPES)[number];

/** One cluster event as the losses are computed from it (wall-clock milliseconds). */
export interface NodeEvent {
  type: ClusterEventType;
  node: string;
  atMs: number;
  /** node-lost only: when the node is expected back; null: until a node-back event says so. */
  untilMs: number | null;
}

/** A node lost over [fromMs, toMs); toMs null: not back yet, and no return expected. */
export interface NodeLoss {
  node: string;
  fromMs: number;
  toMs: number | null;
}

/** Usage as an instance has it: node -> metric -> one fraction per slot. */
export type Usage = Record<string, Record<string, number[]>>;

/**
 * When each node is lost, from its events in the order they happened (`atMs`; events at the same instant in
 * the order given, which is the order they were posted). A node-lost starts a loss at `atMs` that lasts until
 * its `untilMs`, or for good; a node-lost while the node is already lost extends that loss (to the later
 * expected return; for good when either says none); a node-back ends the loss it falls in at its `atMs`, and
 * one while the node is not lost changes nothing (the node came back before it was expected, or twice).
 * Overlapping reports thus give the union of their losses, cut where the node was reported back.
 */
export function nodeLosses(events: readonly NodeEvent[]): NodeLoss[] {
  const ordered = events.map((e, i) => ({ e, i })).sort((a, b) => a.e.atMs - b.e.atMs || a.i - b.i);
  const open = new Map<string, NodeLoss>();
  const out: NodeLoss[] = [];
  const lostAt = (loss: NodeLoss | undefined, t: number): loss is NodeLoss => loss !== undefined && (loss.toMs === null || loss.toMs > t);
  for (const { e } of ordered) {
    const current = open.get(e.node);
    if (e.type === 'node-lost') {
      if (lostAt(current, e.atMs)) current.toMs = current.toMs === null || e.untilMs === null ? null : Math.max(current.toMs, e.untilMs);
      else {
        if (current) out.push(current);
        open.set(e.node, { node: e.node, fromMs: e.atMs, toMs: e.untilMs });
      }
    } else if (lostAt(current, e.atMs)) {
      current.toMs = e.atMs;
      out.push(current);
      open.delete(e.node);
    }
  }
  out.push(...open.values());
  return out.filter((l) => l.toMs === null || l.toMs > l.fromMs).sort((a, b) => a.fromMs - b.fromMs || a.node.localeCompare(b.node));
}

/** The slots [first, last] of a window that a loss overlaps (a slot it touches at all counts whole, as holds do); null: none. */
export function lostSlots(loss: NodeLoss, w: PlanWindow): { first: number; last: number } | null {
  const slotMs = w.slotSeconds * 1000;
  const first = Math.max(0, Math.floor((loss.fromMs - w.startsAtMs) / slotMs));
  const last = Math.min(w.slots - 1, loss.toMs === null ? w.slots - 1 : Math.ceil((loss.toMs - w.startsAtMs) / slotMs) - 1);
  return first <= last ? { first, last } : null;
}

/**
 * The usage of a window with every lost node at 1 on every metric in each slot its loss overlaps: nothing of it
 * is available then (available = C x max(0, 1 - U - S), docs/FORMAT.md), whatever the safety margin, and what
 * committed plans hold there comes off nothing. Slots the forecast leaves out count 0 as before; nodes the
 * instance does not have (a later cluster version removed them) are skipped. The input is not changed; it is
 * returned as it is when no loss falls in the window.
 */
export function withLostNodes(usage: Usage | undefined, nodes: readonly string[], metrics: readonly string[], w: PlanWindow, losses: readonly NodeLoss[]): Usage | undefined {
  const known = new Set(nodes);
  const hits = losses.map((l) => ({ l, slots: known.has(l.node) ? lostSlots(l, w) : null })).filter((h) => h.slots !== null);
  if (!hits.length) return usage;
  const out: Usage = { ...(usage ?? {}) };
  const copied = new Set<string>();
  for (const { l, slots } of hits) {
    if (!copied.has(l.node)) {
      const before = out[l.node] ?? {};
      out[l.node] = Object.fromEntries(metrics.map((m) => [m, Array.from({ length: w.slots }, (_, t) => before[m]?.[t] ?? 0)]));
      copied.add(l.node);
    }
    for (const m of metrics) out[l.node][m].fill(1, slots!.first, slots!.last + 1);
  }
  return out;
}
