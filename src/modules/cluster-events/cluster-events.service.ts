import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { NodeLoss, nodeLosses } from '../../engine/commitments/node-loss';
import type { Principal } from '../auth/principal';
import type { ClusterEntity } from '../clusters/cluster.entity';
import { ClustersService } from '../clusters/clusters.service';
import { ClusterSignals } from '../cluster-signals/cluster-signals';
import { pageOf } from '../common/keyset-page';
import { invalid, notFound } from '../common/problem';
import { eventWindow } from '../executions/event-validation';
import { ClusterEventEntity } from './cluster-event.entity';
import { ClusterEventDto } from './cluster-event.dto';
import { ClusterEventsRepository } from './cluster-events.repository';
import { WebhooksService } from '../webhooks/webhooks.service';
import { clusterEventIssues } from './event-issues';

/**
 * Nodes lost and back (issue 39): the cluster's farmer (or an operator) reports them, solves on the cluster see
 * a lost node as unavailable over its loss (`losses`), and a node-lost is signalled (automatic re-planning).
 */
@Injectable()
export class ClusterEventsService {
  constructor(
    private readonly events: ClusterEventsRepository,
    private readonly clusters: ClustersService,
    private readonly signals: ClusterSignals,
    private readonly webhooks: WebhooksService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /**
   * Checks the event against the cluster's current version (every problem at once, nothing written then), stores
   * it, then, for a node-lost, tells the cluster's farmer's webhooks (node.lost) and signals it (automatic re-planning).
   */
  async post(p: Principal, clusterId: string, body: unknown): Promise<ClusterEventEntity> {
    const { cluster, version } = await this.clusters.get(p, clusterId); // the farmer's own, or an operator: 404 otherwise
    const now = new Date();
    const { issues, event } = clusterEventIssues(body, version.nodes.map((n) => n.id), eventWindow(now.getTime(), this.config.input), now);
    if (!event) throw invalid(issues);
    const stored = await this.events.insert({ clusterId, tenantId: p.tenantId, ...event });
    if (stored.type === 'node-lost') {
      await this.webhooks.publish('node.lost', { tenantIds: [cluster.tenantId], clusterId, payload: { event: toClusterEventDto(stored) } });
      await this.signals.emit({ kind: 'node-lost', clusterId, eventId: stored.id, node: stored.node, fromMs: stored.at.getTime(), untilMs: stored.until?.getTime() ?? null });
    }
    return stored;
  }

  /** The cluster's events, newest posted first, for whoever may see its schedule (visible). */
  async list(p: Principal, clusterId: string, limit: number, cursor?: string): Promise<{ items: ClusterEventEntity[]; nextCursor: string | null }> {
    await this.visible(p, clusterId);
    return pageOf(await this.events.page(clusterId, limit, cursor), limit, (e) => e);
  }

  /**
   * The nodes lost over [fromMs, toMs) (or part of it), from every event of the cluster dated before toMs:
   * what a solve, quote or commit on the cluster plans around (node-loss.ts, withLostNodes).
   */
  async losses(clusterId: string, fromMs: number, toMs: number): Promise<NodeLoss[]> {
    const events = await this.events.before(clusterId, new Date(toMs));
    const all = nodeLosses(events.map((e) => ({ type: e.type, node: e.node, atMs: e.at.getTime(), untilMs: e.until?.getTime() ?? null })));
    return all.filter((l) => l.toMs === null || l.toMs > fromMs);
  }

  /**
   * As the cluster's schedule decides: its farmer and operators, and customers on a lendable cluster (they may
   * solve there, and their plans are made around these losses) or on their own; 404 for anyone else.
   */
  private async visible(p: Principal, clusterId: string): Promise<ClusterEntity> {
    const cluster = await this.clusters.findById(clusterId);
    const own = cluster?.tenantId === p.tenantId;
    if (cluster && (p.role === 'operator' || own || (p.role === 'customer' && cluster.lendable))) return cluster;
    throw notFound('cluster', clusterId);
  }
}

export function toClusterEventDto(e: ClusterEventEntity): ClusterEventDto {
  return {
    id: e.id,
    clusterId: e.clusterId,
    type: e.type,
    node: e.node,
    at: e.at.toISOString(),
    until: e.until?.toISOString() ?? null,
    reason: e.reason,
    createdAt: e.createdAt.toISOString(),
  };
}
