import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { NetworkSpec, NodeSpec } from '../../engine/model/types';
import { newestFirst } from '../common/keyset-page';
import { ClusterEntity, ClusterVersionEntity } from './cluster.entity';

export interface ClusterWithVersion {
  cluster: ClusterEntity;
  version: ClusterVersionEntity;
}

/** A cluster's current version summarised, as the listing reads it (snake_case: raw rows). */
export interface ClusterSummaryRow {
  id: string;
  name: string;
  lendable: boolean;
  version: number;
  created_at: Date;
  metrics: string[];
  node_count: number;
  updated_at: Date;
}

/** The clusters and cluster_versions tables. */
@Injectable()
export class ClustersRepository {
  constructor(
    @InjectRepository(ClusterEntity) private readonly clusters: Repository<ClusterEntity>,
    @InjectRepository(ClusterVersionEntity) private readonly versions: Repository<ClusterVersionEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Writes the cluster and its version 1 together. */
  create(fields: { tenantId: string; name: string; lendable: boolean; metrics: string[]; nodes: NodeSpec[]; network: NetworkSpec | null }): Promise<ClusterWithVersion> {
    return this.dataSource.transaction(async (m) => {
      const cluster = await m.save(m.create(ClusterEntity, { tenantId: fields.tenantId, name: fields.name, lendable: fields.lendable, version: 1 }));
      const version = await m.save(m.create(ClusterVersionEntity, { clusterId: cluster.id, version: 1, metrics: fields.metrics, nodes: fields.nodes, network: fields.network }));
      return { cluster, version };
    });
  }

  /**
   * Writes version n+1; null when the cluster is gone. The version is bumped by one UPDATE, so concurrent
   * updates queue on the row lock.
   */
  addVersion(id: string, changes: { name?: string; lendable?: boolean }, metrics: string[], nodes: NodeSpec[], network: NetworkSpec | null): Promise<ClusterWithVersion | null> {
    return this.dataSource.transaction(async (m) => {
      const bumped = await m
        .createQueryBuilder()
        .update(ClusterEntity)
        .set({ version: () => 'version + 1', ...(changes.name !== undefined ? { name: changes.name } : {}), ...(changes.lendable !== undefined ? { lendable: changes.lendable } : {}) })
        .where('id = :id', { id })
        .returning('version')
        .execute();
      const n = (bumped.raw as { version: number }[])[0]?.version;
      if (n === undefined) return null; // deleted meanwhile
      const version = await m.save(m.create(ClusterVersionEntity, { clusterId: id, version: n, metrics, nodes, network }));
      const cluster = await m.findOneByOrFail(ClusterEntity, { id });
      return { cluster, version };
    });
  }

  /** The cluster, within a tenant when `tenantId` is given. */
  findOne(id: string, tenantId?: string): Promise<ClusterEntity | null> {
    return this.clusters.findOneBy({ id, ...(tenantId !== undefined ? { tenantId } : {}) });
  }

  findVersion(clusterId: string, version: number): Promise<ClusterVersionEntity | null> {
    return this.versions.findOneBy({ clusterId, version });
  }

  /** Newest first (one extra row: see newestFirst), each with its current version summarised (the nodes themselves are not loaded). */
  list(tenantId: string | undefined, limit: number, cursor?: string): Promise<ClusterSummaryRow[]> {
    const q = this.summaries();
    if (tenantId) q.where('c.tenant_id = :t', { t: tenantId });
    return newestFirst(q, 'c', limit, cursor).getRawMany<ClusterSummaryRow>();
  }

  /** Every tenant's lendable clusters, newest first, with the nodes of their current version. */
  listLendable(limit: number, cursor?: string): Promise<(ClusterSummaryRow & { nodes: NodeSpec[] })[]> {
    const q = this.summaries().addSelect('v.nodes', 'nodes').where('c.lendable = true');
    return newestFirst(q, 'c', limit, cursor).getRawMany();
  }

  /** Clusters with their current version summarised (ClusterSummaryRow's columns). */
  private summaries() {
    return this.clusters
      .createQueryBuilder('c')
      .innerJoin(ClusterVersionEntity, 'v', 'v.cluster_id = c.id AND v.version = c.version')
      .select(['c.id AS id', 'c.name AS name', 'c.lendable AS lendable', 'c.version AS version', 'c.created_at AS created_at'])
      .addSelect('v.metrics', 'metrics')
      .addSelect('jsonb_array_length(v.nodes)', 'node_count')
      .addSelect('v.created_at', 'updated_at');
  }
}
