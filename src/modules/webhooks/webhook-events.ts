import type { Role } from '../auth/api-key.entity';

/**
 * What a subscription can ask for. Other modules publish them through WebhooksService.publish:
 * - `solve.ended`: a solve reached succeeded, failed or cancelled (payload `{ solve }`: the SolveDto);
 * - `commit.refused`: a commit of a plan was refused with a 409 (payload: the plan and the problem);
 * - `plan.replanned`: a plan was re-planned (published by the re-planning work);
 * - `node.lost`: a node of a cluster was lost (published by the cluster events work).
 */
export const WEBHOOK_EVENTS = ['solve.ended', 'plan.replanned', 'commit.refused', 'node.lost'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * The events each role's subscriptions may ask for: a customer hears about its own solves, plans and commits,
 * a farmer about the nodes of its clusters, an operator about everything (every tenant's).
 */
export const EVENTS_OF_ROLE: Record<Role, readonly WebhookEvent[]> = {
  operator: WEBHOOK_EVENTS,
  farmer: ['node.lost'],
  customer: ['solve.ended', 'plan.replanned', 'commit.refused'],
};

/**
 * Who an event is about, for WebhooksService.publish: the tenants whose subscriptions get it (a solve's or a
 * plan's customer, a cluster's farmer; operators' subscriptions get every event), and the cluster it happened
 * on, if any (a subscription narrowed to a cluster gets only that cluster's events).
 */
export interface WebhookAudience {
  tenantIds: string[];
  clusterId?: string | null;
}

/** Every role, each of which may subscribe (EVENTS_OF_ROLE is a Record over Role, so none is missing). */
export const SUBSCRIBER_ROLES = Object.keys(EVENTS_OF_ROLE) as Role[];
