import { Injectable } from '@nestjs/common';
import { NodeSpec } from '../../engine/model/types';
import { Principal, tenantScope } from '../auth/principal';
import { invalid, notFound } from '../common/problem';
import { ClusterEntity, ClusterVersionEntity } from './cluster.entity';
import { ClusterDto, ClusterSummaryDto, ClusterVersionDto, CreateClusterDto, UpdateClusterDto } from './cluster.dto';
import { clusterIssues } from '../common/document-validation';
import { pageOf } from '../common/keyset-page';
import { ClustersRepository, ClusterWithVersion } from './clusters.repository';

export type { ClusterWithVersion } from './clusters.repository';

/**
 * Clusters are versioned: every update writes a new cluster_versions row and moves `clusters.version` to it,
 * so solves, plans and forecasts keep naming the exact nodes they were made for.
 */
/** A lendable cluster as a customer sees it (ClustersService.listOffered). */
export interface OfferedCluster {
  id: string;
  name: string;
  version: number;
  metrics: string[];
  nodes: Pick<NodeSpec, 'id' | 'capacity' | 'speed' | 'rack' | 'maxTasks'>[];
  updatedAt: string;
}

@Injectable()
export class ClustersService {
  constructor(private readonly repo: ClustersRepository) {}

  /** Validates first (a rejected request writes nothing), then writes the cluster and its version 1 together. */
  async create(p: Principal, dto: CreateClusterDto): Promise<ClusterWithVersion> {
    const issues = clusterIssues(dto.metrics, dto.nodes, dto.network);
    if (issues.length) throw invalid(issues);
    return this.repo.create({ tenantId: p.tenantId, name: dto.name, lendable: dto.lendable ?? true, metrics: dto.metrics, nodes: dto.nodes as unknown as NodeSpec[], network: dto.network ?? null });
  }

  /** Writes version n+1 with the metrics and nodes replaced whole. */
  async update(p: Principal, id: string, dto: UpdateClusterDto): Promise<ClusterWithVersion> {
    await this.find(p, id);
    const issues = clusterIssues(dto.metrics, dto.nodes, dto.network);
    if (issues.length) throw invalid(issues);
    const updated = await this.repo.addVersion(id, { name: dto.name, lendable: dto.lendable }, dto.metrics, dto.nodes as unknown as NodeSpec[], dto.network ?? null);
    if (!updated) throw notFound('cluster', id); // deleted meanwhile
    return updated;
  }

  /** The cluster if the caller may see it (operators: any), else 404. */
  async find(p: Principal, id: string): Promise<ClusterEntity> {
    const cluster = await this.repo.findOne(id, tenantScope(p).tenantId);
    if (!cluster) throw notFound('cluster', id);
    return cluster;
  }

  /** Any tenant's cluster, for checks made on behalf of another resource (a customer solves on any lendable cluster). */
  findById(id: string): Promise<ClusterEntity | null> {
    return this.repo.findOne(id);
  }

  /** One version of a cluster, without a tenant check (the caller has checked the cluster). */
  findVersion(clusterId: string, version: number): Promise<ClusterVersionEntity | null> {
    return this.repo.findVersion(clusterId, version);
  }

  async get(p: Principal, id: string): Promise<ClusterWithVersion> {
    const cluster = await this.find(p, id);
    const version = await this.repo.findVersion(id, cluster.version);
    if (!version) throw new Error(`cluster ${id} has no row for its version ${cluster.version}`);
    return { cluster, version };
  }

  async getVersion(p: Principal, id: string, version: number): Promise<ClusterVersionEntity> {
    await this.find(p, id);
    const row = version >= 1 && version <= 2 ** 31 - 1 ? await this.repo.findVersion(id, version) : null;
    if (!row) throw notFound(`cluster ${id} version`, String(version));
    return row;
  }

  /** Newest first, each with its current version summarised (the nodes themselves are not loaded). */
  /**
   * The clusters offered to customers (lendable, every farmer's), with what a solve on them needs: metrics
   * and per node its id, capacity, speed, rack and task slots; nothing of the farmer's own (tenant, prices,
   * leases, network).
   */
  async listOffered(limit: number, cursor?: string): Promise<{ items: OfferedCluster[]; nextCursor: string | null }> {
    const page = pageOf(await this.repo.listLendable(limit, cursor), limit, (r) => ({ createdAt: r.created_at, id: r.id }));
    return {
      items: page.items.map((r) => ({
        id: r.id,
        name: r.name,
        version: r.version,
        metrics: r.metrics,
        nodes: r.nodes.map((n) => ({ id: n.id, capacity: n.capacity, ...(n.speed !== undefined ? { speed: n.speed } : {}), ...(n.rack !== undefined ? { rack: n.rack } : {}), ...(n.maxTasks !== undefined ? { maxTasks: n.maxTasks } : {}) })),
        updatedAt: r.updated_at.toISOString(),
      })),
      nextCursor: page.nextCursor,
    };
  }

  async list(p: Principal, limit: number, cursor?: string): Promise<{ items: ClusterSummaryDto[]; nextCursor: string | null }> {
    const rows = await this.repo.list(tenantScope(p).tenantId, limit, cursor);
    const page = pageOf(rows, limit, (r) => ({ createdAt: r.created_at, id: r.id }));
    return {
      items: page.items.map((r) => ({
        id: r.id,
        name: r.name,
        lendable: r.lendable,
        version: r.version,
        metrics: r.metrics,
        nodeCount: Number(r.node_count),
        createdAt: r.created_at.toISOString(),
        updatedAt: r.updated_at.toISOString(),
      })),
      nextCursor: page.nextCursor,
    };
  }
}

export function toClusterDto({ cluster, version }: ClusterWithVersion): ClusterDto {
  return {
    id: cluster.id,
    name: cluster.name,
    lendable: cluster.lendable,
    version: version.version,
    metrics: version.metrics,
    nodes: version.nodes,
    network: version.network,
    createdAt: cluster.createdAt.toISOString(),
    updatedAt: version.createdAt.toISOString(),
  };
}

export function toClusterVersionDto(v: ClusterVersionEntity): ClusterVersionDto {
  return { clusterId: v.clusterId, version: v.version, metrics: v.metrics, nodes: v.nodes, network: v.network, createdAt: v.createdAt.toISOString() };
}
