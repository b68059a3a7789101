import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import { ClustersService } from '../clusters/clusters.service';
import { pageOf } from '../common/keyset-page';
import { invalid } from '../common/problem';
import { AutoReplanDto, ReplanningDto } from './replanning.dto';
import { AutoReplanEntity, ReplanningSettingsEntity } from './replanning.entity';
import { ReplanningRepository } from './replanning.repository';
import { REPLANNING_DEFAULTS, settingsIssues } from './settings-issues';

/**
 * A cluster's automatic re-planning as its farmer (or an operator) sets and reads it, and the re-plans it
 * requested (AutoReplanner requests them).
 */
@Injectable()
export class ReplanningService {
  constructor(
    private readonly repo: ReplanningRepository,
    private readonly clusters: ClustersService,
  ) {}

  /** Sets (replaces) the cluster's settings, defaults filling what is left out; every bad field named at once, nothing written then. */
  async put(p: Principal, clusterId: string, body: unknown): Promise<ReplanningDto> {
    await this.clusters.find(p, clusterId);
    const { issues, settings } = settingsIssues(body);
    if (!settings) throw invalid(issues);
    return toReplanningDto(clusterId, await this.repo.putSettings({ clusterId, ...settings }));
  }

  /** The cluster's settings; the defaults (automatic re-planning off) when never set. */
  async get(p: Principal, clusterId: string): Promise<ReplanningDto> {
    await this.clusters.find(p, clusterId);
    return toReplanningDto(clusterId, await this.repo.settingsOf(clusterId));
  }

  /** The automatic re-plans requested on the cluster, newest first. */
  async requests(p: Principal, clusterId: string, limit: number, cursor?: string): Promise<{ items: AutoReplanDto[]; nextCursor: string | null }> {
    await this.clusters.find(p, clusterId);
    const page = pageOf(await this.repo.page(clusterId, limit, cursor), limit, (r) => r);
    return { items: page.items.map(toAutoReplanDto), nextCursor: page.nextCursor };
  }
}

function toReplanningDto(clusterId: string, s: ReplanningSettingsEntity | null): ReplanningDto {
  const d = REPLANNING_DEFAULTS;
  if (!s) return { clusterId, enabled: d.enabled, on: d.on, forecastMissThreshold: d.forecastMissThreshold, forecastMissWindowSeconds: d.forecastMissWindowSeconds, minIntervalSeconds: d.minIntervalSeconds, updatedAt: null };
  return {
    clusterId,
    enabled: s.enabled,
    on: s.triggers,
    forecastMissThreshold: s.forecastMissThreshold,
    forecastMissWindowSeconds: s.forecastMissWindowSeconds,
    minIntervalSeconds: s.minIntervalSeconds,
    updatedAt: s.updatedAt.toISOString(),
  };
}

function toAutoReplanDto(r: AutoReplanEntity): AutoReplanDto {
  return {
    id: r.id,
    clusterId: r.clusterId,
    planId: r.planId,
    trigger: r.trigger,
    reason: r.reason,
    detail: r.detail,
    status: r.status,
    solveId: r.solveId,
    error: r.error,
    requestedAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
