import { Inject, Injectable } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { join } from 'node:path';
import type { ThreadError } from '../../engine/threads/run-in-thread';
import { ClustersService } from '../../modules/clusters/clusters.service';
import type { ForecastBuildEntity } from '../../modules/forecast-builds/forecast-build.entity';
import { FORECAST_BUILD_WORK } from '../../modules/forecast-builds/forecast-build.kind';
import { forecastIssues } from '../../modules/forecasts/forecast-issues';
import { ForecastProvenance } from '../../modules/forecasts/forecast-provenance';
import { ForecastsService } from '../../modules/forecasts/forecasts.service';
import { TrainingHistory, UsageService } from '../../modules/usage/usage.service';
import { Completion, Prepared, WorkHandler } from '../../modules/work/work-handler';
import type { BuildOutput, ForecastInput } from '../../work/forecast';
import { forecastBuildDeadline } from './forecast-build-deadline';

type ClusterVersion = NonNullable<Awaited<ReturnType<ClustersService['findVersion']>>>;

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/**
 * A forecast build: the training window is loaded, the model trained in the thread, and the forecast stored
 * (the same table as posted forecasts, so solves use it by id) with the build's end in one transaction.
 */
@Injectable()
export class ForecastBuildHandler implements WorkHandler<ForecastBuildEntity, ForecastInput, never, BuildOutput> {
  readonly kind = FORECAST_BUILD_WORK;
  readonly threadFile = join(__dirname, 'forecast-build.thread.js');
  /** What prepare loaded for each running build (history and cluster version), for the failure message, the check and the provenance. */
  private readonly loaded = new Map<string, { history: TrainingHistory; version: ClusterVersion }>();

  constructor(
    private readonly clusters: ClustersService,
    private readonly usage: UsageService,
    private readonly forecasts: ForecastsService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async prepare(build: ForecastBuildEntity): Promise<Prepared<ForecastInput>> {
    const version = await this.clusters.findVersion(build.clusterId, build.clusterVersion);
    if (!version) return { fail: `cluster ${build.clusterId} has no version ${build.clusterVersion}` };
    const loaded = await this.usage.history(build.clusterId, version.nodes.map((n) => n.id), version.metrics, build.trainingDays);
    if (!loaded) return { fail: `no usage history: cluster ${build.clusterId} has no samples of the nodes and metrics of its version ${version.version}; POST /v1/clusters/${build.clusterId}/usage first` };
    this.loaded.set(build.id, { history: loaded, version });
    return {
      input: { history: loaded.history, model: build.model, quantile: build.quantile, slotSeconds: build.slotSeconds, horizonSlots: build.horizonSlots, headroom: build.headroom },
      deadline: forecastBuildDeadline(loaded, build.slotSeconds, this.config.forecastBuildMaxSeconds),
    };
  }

  /** Both kinds are deterministic (a retry would fail the same way): the build fails now, with the reason. */
  failure(build: ForecastBuildEntity, e: ThreadError): string {
    const loaded = this.loaded.get(build.id)?.history;
    if (e.reason !== 'input' || !loaded) return `the build failed: ${e.message}`;
    const days = ((loaded.to - loaded.from) / 86_400).toFixed(1);
    return `too little usage history for model ${build.model} (${days} days, ${iso(loaded.from)} to ${iso(loaded.to)}): ${e.message}`;
  }

  async complete(build: ForecastBuildEntity, out: BuildOutput): Promise<Completion | { fail: string }> {
    // Read, not taken: a retried store (Postgres away) calls complete again.
    const { history: loaded, version } = this.loaded.get(build.id)!;
    const issues = forecastIssues({ slotSeconds: build.slotSeconds, slots: build.horizonSlots, quantile: build.quantile, usage: out.usage }, version);
    if (issues.length) {
      return { fail: `the built forecast does not fit cluster version ${version.version}: ${issues[0].path}: ${issues[0].message}` };
    }
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
    let forecastId: string | null = null;
    return {
      store: async (tx) => {
        const forecast = await this.forecasts.insertBuilt(tx, {
          tenantId: build.tenantId,
          clusterId: build.clusterId,
          clusterVersion: build.clusterVersion,
          slotSeconds: build.slotSeconds,
          slots: build.horizonSlots,
          quantile: build.quantile,
          startsAt: new Date(out.startsAt * 1000),
          usage: out.usage,
          provenance,
        });
        forecastId = forecast.id;
        return { forecastId };
      },
      summary: `forecast trained in ${Math.round(out.trainMs)} ms`,
      get result() {
        return { forecastId };
      },
    };
  }

  release(build: ForecastBuildEntity): void {
    this.loaded.delete(build.id);
  }
}
