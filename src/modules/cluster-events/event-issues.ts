import { CLUSTER_EVENT_TYPES, ClusterEventType } from '../../engine/commitments/node-loss';
import { parseIsoDateTime } from '../../engine/model/input-bounds';
import type { Issue } from '../../engine/model/types';
import { isObject, show } from '../../engine/model/validate';
import type { EventWindow } from '../executions/event-validation';

export const CLUSTER_EVENT_FIELDS = ['type', 'node', 'at', 'until', 'reason'] as const;
export const MAX_REASON_LENGTH = 2000;

/** A valid cluster event, ready to store. */
export interface ClusterEventInput {
  type: ClusterEventType;
  node: string;
  at: Date;
  until: Date | null;
  reason: string | null;
}

/**
 * Every problem of a posted cluster event at once, by field: a type other than node-lost or node-back, a node
 * the cluster's current version does not have (`nodes` null: not known here, checked later), an `at` outside
 * the instants events may be dated (FALLOW_EVENT_MAX_AGE_DAYS back, FALLOW_EVENT_MAX_AHEAD_SECONDS ahead:
 * a farmer may announce a node taken back soon), an `until` on a node-back or not after `at`, a reason that
 * is not a string of at most MAX_REASON_LENGTH characters. `at` defaults to `now`.
 */
export function clusterEventIssues(body: unknown, nodes: readonly string[] | null, window: EventWindow, now: Date): { issues: Issue[]; event?: ClusterEventInput } {
  if (!isObject(body)) return { issues: [{ path: 'body', message: 'must be an object {type, node, at?, until?, reason?}' }] };
  const e = body as Record<string, unknown>;
  const issues: Issue[] = [];
  const bad = (path: string, message: string) => issues.push({ path, message });
  const type = e.type as ClusterEventType;
  if (!CLUSTER_EVENT_TYPES.includes(type)) bad('type', `must be one of ${CLUSTER_EVENT_TYPES.join(', ')}, got ${show(e.type)}`);
  if (typeof e.node !== 'string' || !e.node) bad('node', `must be a node id of the cluster, got ${show(e.node)}`);
  else if (nodes && !nodes.includes(e.node)) bad('node', `unknown node ${show(e.node)}: the cluster's nodes are ${listed(nodes)}`);
  const date = (field: 'at' | 'until'): Date | undefined => {
    const t = parseIsoDateTime(e[field]);
    if (!t) bad(field, `must be an ISO 8601 date-time with a zone of a real calendar day, e.g. 2030-01-01T10:15:00Z, got ${show(e[field])}`);
    return t;
  };
  let at: Date | undefined = now;
  if (e.at !== undefined && e.at !== null) {
    at = date('at');
    if (at && (at < window.from || at > window.to)) {
      bad('at', `must be between ${window.from.toISOString()} and ${window.to.toISOString()} (FALLOW_EVENT_MAX_AGE_DAYS back, FALLOW_EVENT_MAX_AHEAD_SECONDS ahead), got ${show(e.at)}`);
      at = undefined;
    }
  }
  let until: Date | null | undefined = null;
  if (e.until !== undefined && e.until !== null) {
    if (type === 'node-back') bad('until', 'only a node-lost event says when the node is expected back');
    else if ((until = date('until')) && at && until <= at) bad('until', `must be after at (${at.toISOString()}), got ${show(e.until)}`);
  }
  if (e.reason !== undefined && e.reason !== null && (typeof e.reason !== 'string' || e.reason.length > MAX_REASON_LENGTH))
    bad('reason', `must be a string of at most ${MAX_REASON_LENGTH} characters`);
  if (issues.length) return { issues };
  return { issues, event: { type, node: e.node as string, at: at!, until: until ?? null, reason: (e.reason as string | undefined) ?? null } };
}

/** The first few node ids, for a message. */
function listed(nodes: readonly string[]): string {
  return nodes.slice(0, 10).map((n) => JSON.stringify(n)).join(', ') + (nodes.length > 10 ? `, ... (${nodes.length} in all)` : '');
}
