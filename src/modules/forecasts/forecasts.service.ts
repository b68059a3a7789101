import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CONFIG, Config } from '../../config';
import { clampedDate } from '../../engine/model/input-bounds';
import { Principal, tenantScope } from '../auth/principal';
import { ClustersService } from '../clusters/clusters.service';
import { pageOf } from '../common/keyset-page';
import { invalid, notFound } from '../common/problem';
import { ForecastEntity } from './forecast.entity';
import { CreateForecastDto, ForecastDto, ForecastSummaryDto } from './forecast.dto';
import { ForecastChoice } from './forecast-choice';
import { forecastIssues } from './forecast-issues';
import { ForecastsRepository } from './forecasts.repository';

// Re-exported while other modules still import these from here; their home is forecast-issues.ts.
export { forecastIssues, MAX_FORECAST_SLOTS } from './forecast-issues';

/** Utilisation forecasts of a farmer's cluster, validated against (and tagged with) its current version. */
@Injectable()
export class ForecastsService {
  constructor(
    private readonly repo: ForecastsRepository,
    private readonly clusters: ClustersService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async create(p: Principal, clusterId: string, dto: CreateForecastDto): Promise<ForecastEntity> {
    const { cluster, version } = await this.clusters.get(p, clusterId);
    const issues = forecastIssues(dto, version, this.config.input.maxForecastPoints);
    if (issues.length) throw invalid(issues);
    // The forecast belongs to the cluster's owner, also when an operator posts it.
    return this.repo.insert({
      tenantId: cluster.tenantId,
      clusterId: cluster.id,
      clusterVersion: version.version,
      slotSeconds: dto.slotSeconds,
      slots: dto.slots,
      quantile: dto.quantile ?? 0.5,
      startsAt: dto.startsAt ? new Date(dto.startsAt) : new Date(),
      usage: dto.usage,
      provenance: null,
    });
  }

  async get(p: Principal, id: string): Promise<ForecastEntity> {
    const forecast = await this.repo.findOne(id, tenantScope(p).tenantId);
    if (!forecast) throw notFound('forecast', id);
    return forecast;
  }

  /** The forecast if it is one of that cluster's, whoever owns it (the caller has checked the cluster). */
  findOfCluster(id: string, clusterId: string): Promise<ForecastEntity | null> {
    return this.repo.findOfCluster(id, clusterId);
  }

  /** Stores a built forecast in the caller's transaction, so the build's status commits with it. */
  insertBuilt(manager: EntityManager, fields: Partial<ForecastEntity>): Promise<ForecastEntity> {
    return this.repo.insertWith(manager, fields);
  }

  /**
   * The forecast a run by reference uses when the request names none: the cluster version's newest forecast
   * covering `startsAt` (what GET /v1/offered-clusters shows for now), else, when the request allows a stale
   * forecast, the version's newest whatever it covers; null when there is none to use.
   */
  async chooseFor(clusterId: string, version: number, startsAt: Date, allowStale: boolean): Promise<{ forecast: ForecastEntity; choice: ForecastChoice } | null> {
    const covering = await this.repo.newestOfVersion(clusterId, version, startsAt);
    if (covering) return { forecast: covering, choice: 'newest-covering-start' };
    const newest = allowStale ? await this.repo.newestOfVersion(clusterId, version, null) : null;
    return newest && { forecast: newest, choice: 'newest' };
  }

  /** Per cluster (at its given version), the newest forecast covering `at`, without the series. */
  currentFor(clusters: { id: string; version: number }[], at: Date): Promise<ForecastEntity[]> {
    return this.repo.currentFor(clusters, at);
  }

  /** A cluster's forecasts, newest first, without their series. */
  async list(p: Principal, clusterId: string, limit: number, cursor?: string): Promise<{ items: ForecastEntity[]; nextCursor: string | null }> {
    await this.clusters.find(p, clusterId);
    const rows = await this.repo.listOfCluster(clusterId, limit, cursor);
    return pageOf(rows, limit, (f) => f);
  }
}

/** The end of a forecast's last slot: startsAt + slots x slotSeconds (clamped to a showable date: a row stored before the bounds may overflow). */
export function forecastEndsAt(f: Pick<ForecastEntity, 'startsAt' | 'slots' | 'slotSeconds'>): Date {
  return clampedDate(f.startsAt.getTime() + f.slots * f.slotSeconds * 1000);
}

export function toForecastSummaryDto(f: ForecastEntity): ForecastSummaryDto {
  return {
    id: f.id,
    clusterId: f.clusterId,
    clusterVersion: f.clusterVersion,
    slotSeconds: f.slotSeconds,
    slots: f.slots,
    quantile: f.quantile,
    startsAt: f.startsAt.toISOString(),
    endsAt: forecastEndsAt(f).toISOString(),
    // forecasts built before headroom existed have none in their provenance
    provenance: f.provenance ? { ...f.provenance, headroom: f.provenance.headroom ?? 0 } : null,
    createdAt: f.createdAt.toISOString(),
  };
}

export function toForecastDto(f: ForecastEntity): ForecastDto {
  return { ...toForecastSummaryDto(f), usage: f.usage };
}
