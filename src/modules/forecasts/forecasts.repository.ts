import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { ForecastEntity } from './forecast.entity';
import { slotEndSql } from '../common/sql-time';

/** The forecasts table. */
@Injectable()
export class ForecastsRepository {
  constructor(@InjectRepository(ForecastEntity) private readonly forecasts: Repository<ForecastEntity>) {}

  insert(fields: Partial<ForecastEntity>): Promise<ForecastEntity> {
    return this.forecasts.save(this.forecasts.create(fields));
  }

  /** Inserts through another module's transaction (a forecast build stores its forecast and its own status together). */
  insertWith(manager: EntityManager, fields: Partial<ForecastEntity>): Promise<ForecastEntity> {
    return manager.save(manager.create(ForecastEntity, fields));
  }

  /** The forecast, within a tenant when `tenantId` is given. */
  findOne(id: string, tenantId?: string): Promise<ForecastEntity | null> {
    return this.forecasts.findOneBy({ id, ...(tenantId !== undefined ? { tenantId } : {}) });
  }

  findOfCluster(id: string, clusterId: string): Promise<ForecastEntity | null> {
    return this.forecasts.findOneBy({ id, clusterId });
  }

  /** A cluster's forecasts without their series, newest first (one extra row: see newestFirst). */
  /** Per cluster, the newest forecast of its version `versions[i]` whose window contains `at` (without the series). */
  async currentFor(clusters: { id: string; version: number }[], at: Date): Promise<ForecastEntity[]> {
    if (!clusters.length) return [];
    return this.forecasts
      .createQueryBuilder('f')
      .distinctOn(['f.cluster_id'])
      .select(['f.id', 'f.clusterId', 'f.clusterVersion', 'f.slotSeconds', 'f.slots', 'f.quantile', 'f.startsAt', 'f.createdAt'])
      .where('(f.cluster_id, f.cluster_version) IN (SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:versions AS int[])))', { ids: clusters.map((c) => c.id), versions: clusters.map((c) => c.version) })
      .andWhere(`f.starts_at <= :at AND ${slotEndSql('f.starts_at', 'f.slots', 'f.slot_seconds')} > :at`, { at })
      .orderBy('f.cluster_id')
      .addOrderBy('f.created_at', 'DESC')
      .getMany();
  }

  listOfCluster(clusterId: string, limit: number, cursor?: string): Promise<ForecastEntity[]> {
    const q = this.forecasts
      .createQueryBuilder('f')
      .select(['f.id', 'f.tenantId', 'f.clusterId', 'f.clusterVersion', 'f.slotSeconds', 'f.slots', 'f.quantile', 'f.startsAt', 'f.provenance', 'f.createdAt'])
      .where('f.cluster_id = :clusterId', { clusterId });
    return newestFirst(q, 'f', limit, cursor).getMany();
  }
}
