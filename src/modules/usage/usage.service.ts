import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { ClustersService } from '../clusters/clusters.service';
import { invalid, ProblemException } from '../common/problem';
import { parseCsvSamples } from './usage-csv';
import { UsageIngestResultDto, UsageSummaryDto } from './usage.dto';
import { parseJsonSamples } from './usage-json';
import { TrainingHistory, UsageRepository } from './usage.repository';
import { MAX_LISTED_PROBLEMS } from './usage-samples';
import { ClusterSignals } from '../cluster-signals/cluster-signals';
import type { SlotPeak } from '../../engine/forecast/miss';

/** What a forecast build trains on; re-exported so other modules need not name the repository's file. */
export type { TrainingHistory } from './usage.repository';

/** A farmer's usage history: what the regular customers used of each node, the input of forecast builds. */
@Injectable()
export class UsageService {
  private readonly log = new Logger('usage');

  constructor(
    private readonly clusters: ClustersService,
    private readonly repo: UsageRepository,
    private readonly signals: ClusterSignals,
  ) {}

  /**
   * Checks every sample against the cluster's current version first (a rejected request writes nothing),
   * then stores the new ones. `body` is the parsed JSON object, or the text of a text/csv body.
   */
  async ingest(p: Principal, clusterId: string, body: unknown): Promise<UsageIngestResultDto> {
    const started = Date.now();
    const { version } = await this.clusters.get(p, clusterId);
    const nodes = new Set(version.nodes.map((n) => n.id));
    const metrics = new Set(version.metrics);
    let parsed;
    if (typeof body === 'string') parsed = parseCsvSamples(body, nodes, metrics);
    else if (body !== undefined && body !== null) parsed = parseJsonSamples(body, nodes, metrics);
    else throw new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'Unsupported media type', 'send application/json ({"samples": [...]}) or text/csv (timestamp,node,metric,value)');
    const { columns, issues } = parsed;
    if (!columns) {
      const listed = issues.count > MAX_LISTED_PROBLEMS ? `; the first ${MAX_LISTED_PROBLEMS} are listed` : '';
      throw invalid(issues.listed, `${issues.count} problem${issues.count === 1 ? '' : 's'} in the samples${listed}; nothing was written`);
    }
    const validatedMs = Date.now() - started;
    const stored = await this.repo.insert(clusterId, columns);
    if ('conflicts' in stored)
      throw new ProblemException(
        HttpStatus.CONFLICT,
        'Conflict',
        'samples already recorded (or repeated in this request) with another value; nothing was written. A retry must send the same values',
        stored.conflicts.map((c) => ({
          path: 'samples',
          message: `node ${JSON.stringify(c.node)} metric ${JSON.stringify(c.metric)} at ${c.timestamp} (${new Date(c.timestamp * 1000).toISOString()}): ${c.stored !== null ? `stored ${c.stored}` : `first sent as ${c.first} in this request`}, now ${c.sent}`,
        })),
      );
    const { accepted } = stored;
    let from = Infinity;
    let to = -Infinity;
    for (const t of columns.ts) {
      if (t < from) from = t;
      if (t > to) to = t;
    }
    const rows = columns.ts.length;
    this.log.log(`cluster ${clusterId}: ${rows} samples (${accepted} new) checked in ${validatedMs} ms, stored in ${Date.now() - started - validatedMs} ms`);
    // New samples may show the forecast running plans were made on missing (automatic re-planning).
    if (accepted > 0) await this.signals.emit({ kind: 'usage-posted', clusterId, fromMs: from * 1000, toMs: to * 1000 });
    return {
      accepted,
      duplicates: rows - accepted,
      nodes: new Set(columns.series.map((s) => s.node)).size,
      metrics: [...new Set(columns.series.map((s) => s.metric))].sort(),
      from: new Date(from * 1000).toISOString(),
      to: new Date(to * 1000).toISOString(),
    };
  }

  async summary(p: Principal, clusterId: string): Promise<UsageSummaryDto> {
    await this.clusters.find(p, clusterId);
    const series = await this.repo.summary(clusterId);
    const from = series.length ? new Date(Math.min(...series.map((s) => s.from.getTime()))).toISOString() : null;
    const to = series.length ? new Date(Math.max(...series.map((s) => s.to.getTime()))).toISOString() : null;
    return {
      clusterId,
      samples: series.reduce((n, s) => n + s.samples, 0),
      from,
      to,
      series: series.map((s) => ({ node: s.node, metric: s.metric, samples: s.samples, from: s.from.toISOString(), to: s.to.toISOString() })),
    };
  }

  /** First and last sample (Unix seconds) of what `history` would load, without loading it; null when there is none. */
  trainingSpan(clusterId: string, nodes: string[], metrics: string[], days: number): Promise<{ from: number; to: number } | null> {
    return this.repo.trainingSpan(clusterId, nodes, metrics, days);
  }

  /** Per node, metric and slot of a grid, the largest sample in (fromMs, toMs] (UsageRepository.slotPeaks): what a forecast miss is measured on. */
  slotPeaks(clusterId: string, fromMs: number, toMs: number, grid: { startsAtMs: number; slotSeconds: number }): Promise<SlotPeak[]> {
    return this.repo.slotPeaks(clusterId, fromMs, toMs, grid);
  }

  /** The usage a forecast build trains on (see UsageRepository.history); null when there is none. */
  history(clusterId: string, nodes: string[], metrics: string[], days: number): Promise<TrainingHistory | null> {
    return this.repo.history(clusterId, nodes, metrics, days);
  }
}
