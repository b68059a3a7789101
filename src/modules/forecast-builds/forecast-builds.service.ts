import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { Principal, tenantScope } from '../auth/principal';
import { ClustersService } from '../clusters/clusters.service';
import { invalid, notFound } from '../common/problem';
import { forecastSizeIssues } from '../forecasts/forecast-issues';
import { UsageService } from '../usage/usage.service';
import { LongWorkService } from '../work/work.service';
import { buildIssues, historyIssues, MAX_TRAINING_DAYS } from './build-issues';
import { ForecastBuildEntity } from './forecast-build.entity';
import { CreateForecastBuildDto, ForecastBuildDto } from './forecast-build.dto';
import { FORECAST_BUILD_WORK } from './forecast-build.kind';
import { ForecastBuildsRepository } from './forecast-builds.repository';

/** Forecast builds: the API stores and queues them; a worker trains and stores the forecast (src/worker). */
@Injectable()
export class ForecastBuildsService {
  constructor(
    private readonly builds: ForecastBuildsRepository,
    private readonly work: LongWorkService,
    private readonly clusters: ClustersService,
    private readonly usage: UsageService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Validates first (a rejected request writes nothing), then stores the build and queues it. */
  async create(p: Principal, clusterId: string, dto: CreateForecastBuildDto): Promise<ForecastBuildEntity> {
    const { cluster, version } = await this.clusters.get(p, clusterId);
    // The forecast it would store is held to the size a posted one is (FALLOW_MAX_FORECAST_POINTS).
    const issues = [...buildIssues(dto), ...forecastSizeIssues(dto.horizonSlots, version, this.config.input.maxForecastPoints, 'horizonSlots')];
    if (issues.length) throw invalid(issues);
    // The history is known now: a GBT without enough of it is refused here rather than failed on a worker.
    const span = await this.usage.trainingSpan(cluster.id, version.nodes.map((n) => n.id), version.metrics, dto.trainingDays ?? MAX_TRAINING_DAYS);
    const short = historyIssues(dto, cluster.id, span);
    if (short.length) throw invalid(short);
    return this.work.enqueue(FORECAST_BUILD_WORK, {
      tenantId: cluster.tenantId,
      clusterId: cluster.id,
      clusterVersion: cluster.version,
      model: dto.model ?? 'gbt',
      quantile: dto.quantile ?? 0.99,
      slotSeconds: dto.slotSeconds,
      horizonSlots: dto.horizonSlots,
      trainingDays: dto.trainingDays ?? MAX_TRAINING_DAYS,
      headroom: dto.headroom ?? 0,
      forecastId: null,
    });
  }

  async get(p: Principal, id: string): Promise<ForecastBuildEntity> {
    const build = await this.builds.findScoped(id, tenantScope(p));
    if (!build) throw notFound('forecast build', id);
    return build;
  }

  /** Stops a build: a queued one is cancelled at once, a running one is terminated; either way no forecast is stored. */
  async cancel(p: Principal, id: string): Promise<ForecastBuildEntity> {
    await this.work.cancel(FORECAST_BUILD_WORK, await this.get(p, id));
    return this.get(p, id);
  }
}

export function toForecastBuildDto(b: ForecastBuildEntity): ForecastBuildDto {
  return {
    id: b.id,
    clusterId: b.clusterId,
    clusterVersion: b.clusterVersion,
    status: b.status,
    model: b.model,
    quantile: b.quantile,
    horizonSlots: b.horizonSlots,
    slotSeconds: b.slotSeconds,
    trainingDays: b.trainingDays,
    headroom: b.headroom,
    forecastId: b.forecastId,
    error: b.error,
    createdAt: b.createdAt.toISOString(),
    startedAt: b.startedAt?.toISOString() ?? null,
    finishedAt: b.finishedAt?.toISOString() ?? null,
  };
}
