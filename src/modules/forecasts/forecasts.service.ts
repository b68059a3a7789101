import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Issue } from '../../engine/model/types';
import { show } from '../../engine/model/validate';
import { Principal, tenantScope } from '../auth/principal';
import { ClusterVersionEntity } from '../clusters/cluster.entity';
import { engineIssues } from '../common/document-validation';
import { ClustersService } from '../clusters/clusters.service';
import { newestFirst, pageOf } from '../common/keyset-page';
import { invalid, notFound } from '../common/problem';
import { ForecastEntity } from './forecast.entity';
import { CreateForecastDto, ForecastDto, ForecastSummaryDto } from './forecast.dto';

export const MAX_FORECAST_SLOTS = 1_000_000;

/** Utilisation forecasts of a farmer's cluster, validated against (and tagged with) its current version. */
@Injectable()
export class ForecastsService {
  constructor(
    @InjectRepository(ForecastEntity) private readonly forecasts: Repository<ForecastEntity>,
    private readonly clusters: ClustersService,
  ) {}

  async create(p: Principal, clusterId: string, dto: CreateForecastDto): Promise<ForecastEntity> {
    const { cluster, version } = await this.clusters.get(p, clusterId);
    const issues = forecastIssues(dto, version);
    if (issues.length) throw invalid(issues);
    // The forecast belongs to the cluster's owner, also when an operator posts it.
    return this.forecasts.save(
      this.forecasts.create({
        tenantId: cluster.tenantId,
        clusterId: cluster.id,
        clusterVersion: version.version,
        slotSeconds: dto.slotSeconds,
        slots: dto.slots,
        quantile: dto.quantile ?? 0.5,
        usage: dto.usage,
        provenance: null,
      }),
    );
  }

  async get(p: Principal, id: string): Promise<ForecastEntity> {
    const forecast = await this.forecasts.findOneBy({ id, ...tenantScope(p) });
    if (!forecast) throw notFound('forecast', id);
    return forecast;
  }

  /** A cluster's forecasts, newest first, without their series. */
  async list(p: Principal, clusterId: string, limit: number, cursor?: string): Promise<{ items: ForecastEntity[]; nextCursor: string | null }> {
    await this.clusters.find(p, clusterId);
    const q = this.forecasts
      .createQueryBuilder('f')
      .select(['f.id', 'f.tenantId', 'f.clusterId', 'f.clusterVersion', 'f.slotSeconds', 'f.slots', 'f.quantile', 'f.provenance', 'f.createdAt'])
      .where('f.cluster_id = :clusterId', { clusterId });
    const rows = await newestFirst(q, 'f', limit, cursor).getMany();
    return pageOf(rows, limit, (f) => f);
  }
}

/**
 * Everything wrong with a forecast for a cluster version. The series are checked by the engine's instance
 * validator on a wrapper instance (the version's metrics and nodes, the forecast's window and usage, no
 * jobs); its `horizon.*` paths are renamed to the request's top-level `slots` and `slotSeconds`.
 */
export function forecastIssues(dto: CreateForecastDto, version: Pick<ClusterVersionEntity, 'metrics' | 'nodes'>): Issue[] {
  const issues: Issue[] = [];
  if (dto.quantile !== undefined && !(typeof dto.quantile === 'number' && dto.quantile > 0 && dto.quantile < 1))
    issues.push({ path: 'quantile', message: `must be a number strictly between 0 and 1, got ${show(dto.quantile)}` });
  if (Number.isInteger(dto.slots) && dto.slots > MAX_FORECAST_SLOTS) issues.push({ path: 'slots', message: `must be at most ${MAX_FORECAST_SLOTS}, got ${dto.slots}` });
  if (dto.usage === undefined || dto.usage === null) issues.push({ path: 'usage', message: 'required: an object of node -> metric -> fractions, one per slot' });
  const wrapper = {
    name: 'forecast',
    horizon: { slots: dto.slots, slotSeconds: dto.slotSeconds },
    metrics: version.metrics,
    nodes: version.nodes,
    usage: dto.usage ?? undefined,
    jobs: [],
  };
  for (const i of engineIssues(wrapper, /^(usage|horizon)(\[|\.|$)/))
    issues.push({ path: i.path.replace(/^horizon\./, ''), message: i.message.replace('horizon.slots', 'slots') });
  const rank = (path: string) => ['slots', 'slotSeconds', 'quantile'].indexOf(path) >>> 0; // the window first, then the series
  return issues.sort((a, b) => rank(a.path) - rank(b.path));
}

export function toForecastSummaryDto(f: ForecastEntity): ForecastSummaryDto {
  return {
    id: f.id,
    clusterId: f.clusterId,
    clusterVersion: f.clusterVersion,
    slotSeconds: f.slotSeconds,
    slots: f.slots,
    quantile: f.quantile,
    // forecasts built before headroom existed have none in their provenance
    provenance: f.provenance ? { ...f.provenance, headroom: f.provenance.headroom ?? 0 } : null,
    createdAt: f.createdAt.toISOString(),
  };
}

export function toForecastDto(f: ForecastEntity): ForecastDto {
  return { ...toForecastSummaryDto(f), usage: f.usage };
}
