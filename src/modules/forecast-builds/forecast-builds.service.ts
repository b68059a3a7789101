import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { Repository } from 'typeorm';
import { Principal, tenantScope } from '../auth/principal';
import { ClustersService } from '../clusters/clusters.service';
import { invalid, notFound, ProblemException } from '../common/problem';
import { FORECAST_BUILD_QUEUE } from '../queue/queue.module';
import { ForecastBuildJobData, forecastBuildJobOptions } from '../queue/forecast-build-jobs';
import { buildIssues, MAX_TRAINING_DAYS } from './build-issues';
import { ForecastBuildEntity } from './forecast-build.entity';
import { CreateForecastBuildDto, ForecastBuildDto } from './forecast-build.dto';

/** Forecast builds: the API stores and queues them; a worker trains and stores the forecast (src/worker). */
@Injectable()
export class ForecastBuildsService {
  private readonly log = new Logger('forecast-builds');

  constructor(
    @InjectRepository(ForecastBuildEntity) private readonly builds: Repository<ForecastBuildEntity>,
    @Inject(FORECAST_BUILD_QUEUE) private readonly queue: Queue<ForecastBuildJobData>,
    private readonly clusters: ClustersService,
  ) {}

  /** Validates first (a rejected request writes nothing), then stores the build and queues it. */
  async create(p: Principal, clusterId: string, dto: CreateForecastBuildDto): Promise<ForecastBuildEntity> {
    const { cluster } = await this.clusters.get(p, clusterId);
    const issues = buildIssues(dto);
    if (issues.length) throw invalid(issues);
    const build = await this.builds.save(
      this.builds.create({
        tenantId: cluster.tenantId,
        clusterId: cluster.id,
        clusterVersion: cluster.version,
        status: 'queued',
        model: dto.model ?? 'gbt',
        quantile: dto.quantile ?? 0.99,
        slotSeconds: dto.slotSeconds,
        horizonSlots: dto.horizonSlots,
        trainingDays: dto.trainingDays ?? MAX_TRAINING_DAYS,
        headroom: dto.headroom ?? 0,
        forecastId: null,
        error: null,
        startedAt: null,
        finishedAt: null,
      }),
    );
    try {
      await this.queue.add('build', { buildId: build.id }, forecastBuildJobOptions(build.id));
    } catch (e) {
      await this.builds.update(build.id, { status: 'failed', error: 'could not be queued', finishedAt: new Date() });
      this.log.error(`queueing forecast build ${build.id} failed: ${(e as Error).message}`);
      throw new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, 'Queue unavailable', 'the build could not be queued; try again');
    }
    return build;
  }

  async get(p: Principal, id: string): Promise<ForecastBuildEntity> {
    const build = await this.builds.findOneBy({ id, ...tenantScope(p) });
    if (!build) throw notFound('forecast build', id);
    return build;
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
