import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Job } from 'bullmq';
import { DataSource, In, Repository } from 'typeorm';
import { ClusterVersionEntity } from '../modules/clusters/cluster.entity';
import { ForecastBuildEntity } from '../modules/forecast-builds/forecast-build.entity';
import { ForecastEntity } from '../modules/forecasts/forecast.entity';
import { ForecastProvenance } from '../modules/forecasts/forecast-provenance';
import { forecastIssues } from '../modules/forecasts/forecasts.service';
import { ForecastBuildJobData } from '../modules/queue/forecast-build-jobs';
import { TrainingHistory, UsageRepository } from '../modules/usage/usage.repository';
import { BuildOutput } from './forecast-build-compute';
import { BuildInputError, runBuildInThread } from './forecast-build-runner';

export interface ForecastBuildJobResult {
  buildId: string;
  status: string;
  forecastId: string | null;
  elapsedMs: number;
}

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/**
 * Runs one queued forecast build: loads the training window, trains in a thread, and stores the forecast
 * (the same table as posted forecasts, so solves use it by id) and the build's outcome in one transaction.
 */
@Injectable()
export class ForecastBuildProcessor {
  private readonly log = new Logger('forecast-builds');

  constructor(
    @InjectRepository(ForecastBuildEntity) private readonly builds: Repository<ForecastBuildEntity>,
    @InjectRepository(ClusterVersionEntity) private readonly versions: Repository<ClusterVersionEntity>,
    @InjectDataSource() private readonly db: DataSource,
    private readonly usage: UsageRepository,
  ) {}

  async process(job: Job<ForecastBuildJobData>): Promise<ForecastBuildJobResult> {
    const id = job.data.buildId;
    const startedAt = Date.now();
    // `running` is claimable too: that is a retry after the worker that had it died.
    const claim = await this.builds.update({ id, status: In(['queued', 'running']) }, { status: 'running', startedAt: new Date(), attempts: () => 'attempts + 1' });
    if (!claim.affected) return { buildId: id, status: 'skipped', forecastId: null, elapsedMs: 0 };
    const result = (status: string, forecastId: string | null = null) => ({ buildId: id, status, forecastId, elapsedMs: Date.now() - startedAt });
    try {
      const build = await this.builds.findOneByOrFail({ id });
      const version = await this.versions.findOneByOrFail({ clusterId: build.clusterId, version: build.clusterVersion });
      const loaded = await this.usage.history(build.clusterId, version.nodes.map((n) => n.id), version.metrics, build.trainingDays);
      if (!loaded) return result(await this.fail(id, `no usage history: cluster ${build.clusterId} has no samples of the nodes and metrics of its version ${version.version}; POST /v1/clusters/${build.clusterId}/usage first`));
      this.log.log(`forecast build ${id}: ${build.model} q=${build.quantile} on ${loaded.samples} samples, ${build.horizonSlots} slots of ${build.slotSeconds} s`);
      let output: BuildOutput;
      try {
        output = await runBuildInThread({ history: loaded.history, model: build.model, quantile: build.quantile, slotSeconds: build.slotSeconds, horizonSlots: build.horizonSlots, headroom: build.headroom });
      } catch (e) {
        // Both are deterministic (a retry would fail the same way): the build fails now, with the reason.
        const days = ((loaded.to - loaded.from) / 86_400).toFixed(1);
        const message = e instanceof BuildInputError ? `too little usage history for model ${build.model} (${days} days, ${iso(loaded.from)} to ${iso(loaded.to)}): ${e.message}` : `the build failed: ${(e as Error).message}`;
        if (!(e instanceof BuildInputError)) this.log.error(`forecast build ${id}: ${(e as Error).stack}`);
        return result(await this.fail(id, message));
      }
      const issues = forecastIssues({ slotSeconds: build.slotSeconds, slots: build.horizonSlots, quantile: build.quantile, usage: output.usage }, version);
      if (issues.length) return result(await this.fail(id, `the built forecast does not fit cluster version ${version.version}: ${issues[0].path}: ${issues[0].message}`));
      const forecastId = await this.store(build, output, loaded);
      this.log.log(`forecast build ${id}: succeeded, forecast ${forecastId}, trained in ${Math.round(output.trainMs)} ms`);
      return result('succeeded', forecastId);
    } catch (e) {
      // Database or Redis trouble: BullMQ retries; after the last attempt the build must not stay running.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.fail(id, `the build failed: ${(e as Error).message}`).catch(() => undefined);
      throw e;
    }
  }

  private async store(build: ForecastBuildEntity, out: BuildOutput, loaded: TrainingHistory): Promise<string> {
    const provenance: ForecastProvenance = {
      buildId: build.id,
      model: build.model,
      quantile: build.quantile,
      headroom: build.headroom,
      training: { from: iso(loaded.from), to: iso(loaded.to), samples: loaded.samples, series: Object.values(loaded.history).reduce((n, m) => n + Object.keys(m).length, 0) },
      inSample: out.inSample,
      holdout: out.holdout && { from: iso(out.holdout.from), to: iso(out.holdout.to), scores: out.holdout.scores },
      trainMs: Math.round(out.trainMs),
    };
    return this.db.transaction(async (m) => {
      const forecast = await m.save(
        m.create(ForecastEntity, {
          tenantId: build.tenantId,
          clusterId: build.clusterId,
          clusterVersion: build.clusterVersion,
          slotSeconds: build.slotSeconds,
          slots: build.horizonSlots,
          quantile: build.quantile,
          usage: out.usage,
          provenance,
        }),
      );
      await m.update(ForecastBuildEntity, { id: build.id, status: 'running' }, { status: 'succeeded', forecastId: forecast.id, error: null, finishedAt: new Date() });
      return forecast.id;
    });
  }

  private async fail(id: string, error: string): Promise<string> {
    this.log.log(`forecast build ${id} failed: ${error}`); // an outcome the farmer reads on the build, not a fault
    await this.builds.update({ id, status: 'running' }, { status: 'failed', error, finishedAt: new Date() });
    return 'failed';
  }
}
