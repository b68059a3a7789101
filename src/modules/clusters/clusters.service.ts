import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { NodeSpec } from '../../engine/model/types';
import { Principal, tenantScope } from '../auth/principal';
import { invalid, notFound } from '../common/problem';
import { ClusterEntity, ClusterVersionEntity } from './cluster.entity';
import { ClusterDto, ClusterSummaryDto, ClusterVersionDto, CreateClusterDto, UpdateClusterDto } from './cluster.dto';
import { clusterIssues } from '../common/document-validation';
import { newestFirst, pageOf } from '../common/keyset-page';

export interface ClusterWithVersion {
  cluster: ClusterEntity;
  version: ClusterVersionEntity;
}

/**
 * Clusters are versioned: every update writes a new cluster_versions row and moves `clusters.version` to it,
 * so solves, plans and forecasts keep naming the exact nodes they were made for.
 */
@Injectable()
export class ClustersService {
  constructor(
    @InjectRepository(ClusterEntity) private readonly clusters: Repository<ClusterEntity>,
    @InjectRepository(ClusterVersionEntity) private readonly versions: Repository<ClusterVersionEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Validates first (a rejected request writes nothing), then writes the cluster and its version 1 together. */
  async create(p: Principal, dto: CreateClusterDto): Promise<ClusterWithVersion> {
    const issues = clusterIssues(dto.metrics, dto.nodes);
    if (issues.length) throw invalid(issues);
    return this.dataSource.transaction(async (m) => {
      const cluster = await m.save(m.create(ClusterEntity, { tenantId: p.tenantId, name: dto.name, lendable: dto.lendable ?? true, version: 1 }));
      const version = await m.save(
        m.create(ClusterVersionEntity, { clusterId: cluster.id, version: 1, metrics: dto.metrics, nodes: dto.nodes as unknown as NodeSpec[] }),
      );
      return { cluster, version };
    });
  }

  /** Writes version n+1. The version is bumped by one UPDATE, so concurrent updates queue on the row lock. */
  async update(p: Principal, id: string, dto: UpdateClusterDto): Promise<ClusterWithVersion> {
    await this.find(p, id);
    const issues = clusterIssues(dto.metrics, dto.nodes);
    if (issues.length) throw invalid(issues);
    return this.dataSource.transaction(async (m) => {
      const bumped = await m
        .createQueryBuilder()
        .update(ClusterEntity)
        .set({ version: () => 'version + 1', ...(dto.name !== undefined ? { name: dto.name } : {}), ...(dto.lendable !== undefined ? { lendable: dto.lendable } : {}) })
        .where('id = :id', { id })
        .returning('version')
        .execute();
      const n = (bumped.raw as { version: number }[])[0]?.version;
      if (n === undefined) throw notFound('cluster', id); // deleted meanwhile
      const version = await m.save(m.create(ClusterVersionEntity, { clusterId: id, version: n, metrics: dto.metrics, nodes: dto.nodes as unknown as NodeSpec[] }));
      const cluster = await m.findOneByOrFail(ClusterEntity, { id });
      return { cluster, version };
    });
  }

  /** The cluster if the caller may see it (operators: any), else 404. */
  async find(p: Principal, id: string): Promise<ClusterEntity> {
    const cluster = await this.clusters.findOneBy({ id, ...tenantScope(p) });
    if (!cluster) throw notFound('cluster', id);
    return cluster;
  }

  async get(p: Principal, id: string): Promise<ClusterWithVersion> {
    const cluster = await this.find(p, id);
    return { cluster, version: await this.versions.findOneByOrFail({ clusterId: id, version: cluster.version }) };
  }

  async getVersion(p: Principal, id: string, version: number): Promise<ClusterVersionEntity> {
    await this.find(p, id);
    const row = version >= 1 && version <= 2 ** 31 - 1 ? await this.versions.findOneBy({ clusterId: id, version }) : null;
    if (!row) throw notFound(`cluster ${id} version`, String(version));
    return row;
  }

  /** Newest first, each with its current version summarised (the nodes themselves are not loaded). */
  async list(p: Principal, limit: number, cursor?: string): Promise<{ items: ClusterSummaryDto[]; nextCursor: string | null }> {
    const q = this.clusters
      .createQueryBuilder('c')
      .innerJoin(ClusterVersionEntity, 'v', 'v.cluster_id = c.id AND v.version = c.version')
      .select(['c.id AS id', 'c.name AS name', 'c.lendable AS lendable', 'c.version AS version', 'c.created_at AS created_at'])
      .addSelect('v.metrics', 'metrics')
      .addSelect('jsonb_array_length(v.nodes)', 'node_count')
      .addSelect('v.created_at', 'updated_at');
    const scope = tenantScope(p);
    if (scope.tenantId) q.where('c.tenant_id = :t', { t: scope.tenantId });
    const rows = await newestFirst(q, 'c', limit, cursor).getRawMany<{
      id: string;
      name: string;
      lendable: boolean;
      version: number;
      created_at: Date;
      metrics: string[];
      node_count: number;
      updated_at: Date;
    }>();
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
    createdAt: cluster.createdAt.toISOString(),
    updatedAt: version.createdAt.toISOString(),
  };
}

export function toClusterVersionDto(v: ClusterVersionEntity): ClusterVersionDto {
  return { clusterId: v.clusterId, version: v.version, metrics: v.metrics, nodes: v.nodes, createdAt: v.createdAt.toISOString() };
}
