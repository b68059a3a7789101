import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { ForecastEntity } from './forecast.entity';
import { slotEndSql } from '../common/sql-time';

/** A forecast's window [startsAt, startsAt + slots x slotSeconds) contains the time `:at`. */
/** A forecast covers `at` from its slot 0 to the end of its last slot (clamped: a stored slot length never overflows the date). */
const COVERS = `f.starts_at <= :at AND ${slotEndSql('f.starts_at', 'f.slots', 'f.slot_seconds')} > :at`;

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

  /**
   * The newest forecast (with its series) of a cluster version whose window contains `at`; with `at` null,
   * the newest of that version whatever it covers.
   */
  newestOfVersion(clusterId: string, version: number, at: Date | null): Promise<ForecastEntity | null> {
    const q = this.forecasts
      .createQueryBuilder('f')
      .where('f.cluster_id = :clusterId AND f.cluster_version = :version', { clusterId, version })
      .orderBy('f.created_at', 'DESC')
      .addOrderBy('f.id', 'DESC');
    if (at) q.andWhere(COVERS, { at });
    return q.getOne();
  }

  /** Per cluster, the newest forecast of its version `versions[i]` whose window contains `at` (without the series). */
  async currentFor(clusters: { id: string; version: number }[], at: Date): Promise<ForecastEntity[]> {
    if (!clusters.length) return [];
    return this.forecasts
      .createQueryBuilder('f')
      .distinctOn(['f.cluster_id'])
      .select(['f.id', 'f.clusterId', 'f.clusterVersion', 'f.slotSeconds', 'f.slots', 'f.quantile', 'f.startsAt', 'f.createdAt'])
      .where('(f.cluster_id, f.cluster_version) IN (SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:versions AS int[])))', { ids: clusters.map((c) => c.id), versions: clusters.map((c) => c.version) })
      .andWhere(COVERS, { at })
      .orderBy('f.cluster_id')
      .addOrderBy('f.created_at', 'DESC')
      .getMany();
  }

  /** A cluster's forecasts without their series, newest first (one extra row: see newestFirst). */
  listOfCluster(clusterId: string, limit: number, cursor?: string): Promise<ForecastEntity[]> {
    const q = this.forecasts
      .createQueryBuilder('f')
      .select(['f.id', 'f.tenantId', 'f.clusterId', 'f.clusterVersion', 'f.slotSeconds', 'f.slots', 'f.quantile', 'f.startsAt', 'f.provenance', 'f.createdAt'])
      .where('f.cluster_id = :clusterId', { clusterId });
    return newestFirst(q, 'f', limit, cursor).getMany();
  }
}
