import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { forecastMiss } from '../../engine/forecast/miss';
import { ClusterSignal, ClusterSignals, KilledTask } from '../cluster-signals/cluster-signals';
import { CommitmentsService } from '../commitments/commitments.service';
import type { ForecastEntity } from '../forecasts/forecast.entity';
import { ForecastsService } from '../forecasts/forecasts.service';
import { PlanVersionsService } from '../plans/plan-versions.service';
import { SolvesService } from '../solves/solves.service';
import { UsageService } from '../usage/usage.service';
import { REPLAN_TRIGGER, ReplanTrigger } from './replan-trigger';
import type { ReplanningSettingsEntity, ReplanTriggerKind } from './replanning.entity';
import { ReplanningRepository, ReplanRequest } from './replanning.repository';

/** Killed tasks a request's detail lists at most (a QoS storm may kill hundreds). */
const LISTED_KILLS = 100;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Automatic re-planning (issue 39): when a trigger the cluster has on fires, each running plan it concerns gets
 * a re-plan request, at most one per plan per minIntervalSeconds (ReplanningRepository.request), handed to the
 * ReplanTrigger. What concerns which plans:
 * - node-lost: the committed plans, not ended, with a task held on the node at some time of the loss (a task
 *   the loss cut short already counts: it was killed and runs again);
 * - task-killed: the committed plan, not ended, of each solve a killed task was reported on;
 * - forecast-miss: the committed plans whose window has started and not ended, each against the forecast it
 *   was made on, over the newest usage posted (forecastMiss: the slots' largest samples against the forecast).
 */
@Injectable()
export class AutoReplanner implements OnModuleInit {
  private readonly log = new Logger('auto-replan');

  constructor(
    private readonly signals: ClusterSignals,
    private readonly repo: ReplanningRepository,
    private readonly commitments: CommitmentsService,
    private readonly solves: SolvesService,
    private readonly forecasts: ForecastsService,
    private readonly usage: UsageService,
    private readonly versions: PlanVersionsService,
    @Inject(REPLAN_TRIGGER) private readonly trigger: ReplanTrigger,
  ) {}

  onModuleInit(): void {
    this.signals.on((s) => this.fired(s));
  }

  async fired(s: ClusterSignal): Promise<void> {
    if (s.kind === 'node-lost') return this.nodeLost(s);
    if (s.kind === 'tasks-killed') return this.tasksKilled(s.kills);
    return this.usagePosted(s);
  }

  private async nodeLost(s: Extract<ClusterSignal, { kind: 'node-lost' }>): Promise<void> {
    const settings = await this.settingsFor(s.clusterId, 'node-lost');
    if (!settings) return;
    const plans = await this.commitments.running(s.clusterId, new Date(), { on: { node: s.node, fromMs: s.fromMs, toMs: s.untilMs } });
    const until = s.untilMs === null ? null : iso(s.untilMs);
    for (const plan of plans)
      await this.request(settings, {
        clusterId: s.clusterId,
        planId: plan.id,
        trigger: 'node-lost',
        reason: `node ${s.node} lost from ${iso(s.fromMs)}${until ? ` until ${until}` : ''} (cluster event ${s.eventId})`,
        detail: { eventId: s.eventId, node: s.node, from: iso(s.fromMs), until },
      });
  }

  private async tasksKilled(kills: KilledTask[]): Promise<void> {
    const plans = await this.commitments.runningOfSolves([...new Set(kills.map((k) => k.solveId))], new Date());
    for (const plan of plans) {
      const settings = await this.settingsFor(plan.clusterId, 'task-killed');
      if (!settings) continue;
      const mine = kills.filter((k) => k.solveId === plan.solveId);
      const named = mine.slice(0, 3).map((k) => `${k.job}/${k.stage}/${k.task} on ${k.node} at ${iso(k.atMs)}`);
      await this.request(settings, {
        clusterId: plan.clusterId,
        planId: plan.id,
        trigger: 'task-killed',
        reason: `${mine.length} task${mine.length === 1 ? '' : 's'} killed: ${named.join(', ')}${mine.length > named.length ? ', ...' : ''}`,
        detail: { killed: mine.slice(0, LISTED_KILLS).map((k) => ({ solveId: k.solveId, job: k.job, stage: k.stage, task: k.task, node: k.node, at: iso(k.atMs) })) },
      });
    }
  }

  private async usagePosted(s: Extract<ClusterSignal, { kind: 'usage-posted' }>): Promise<void> {
    const settings = await this.settingsFor(s.clusterId, 'forecast-miss');
    if (!settings) return;
    const now = Date.now();
    const windowMs = settings.forecastMissWindowSeconds * 1000;
    if (s.toMs <= now - windowMs) return; // a back-fill of older history says nothing of the plans running now
    const plans = await this.commitments.running(s.clusterId, new Date(now), { started: true });
    const forecastIds = await this.solves.forecastIds(plans.map((p) => p.solveId));
    const forecasts = new Map<string, ForecastEntity | null>();
    for (const plan of plans) {
      const forecastId = forecastIds.get(plan.solveId) ?? null;
      if (forecastId && !forecasts.has(forecastId)) forecasts.set(forecastId, await this.forecasts.findOfCluster(forecastId, s.clusterId));
      const forecast = forecastId ? forecasts.get(forecastId)! : null;
      if (forecastId && !forecast) continue; // the forecast is gone: nothing to measure against
      const fromMs = Math.max(s.toMs - windowMs, plan.windowStartsAt.getTime());
      const grid = forecast ? { startsAtMs: forecast.startsAt.getTime(), slotSeconds: forecast.slotSeconds } : { startsAtMs: plan.windowStartsAt.getTime(), slotSeconds: plan.slotSeconds };
      const miss = forecastMiss(await this.usage.slotPeaks(s.clusterId, fromMs, s.toMs, grid), forecast);
      if (!miss || !(miss.miss > settings.forecastMissThreshold)) continue;
      const against = forecastId ? `forecast ${forecastId}` : 'idle nodes (no forecast)';
      await this.request(settings, {
        clusterId: s.clusterId,
        planId: plan.id,
        trigger: 'forecast-miss',
        reason: `usage from ${iso(fromMs)} to ${iso(s.toMs)} missed ${against} by ${miss.miss.toFixed(3)} on average over ${miss.slots} node-metric-slots (threshold ${settings.forecastMissThreshold})`,
        detail: { forecastId, miss: miss.miss, slots: miss.slots, from: iso(fromMs), to: iso(s.toMs), threshold: settings.forecastMissThreshold },
      });
    }
  }

  /** The cluster's settings when it re-plans automatically on `trigger`; null otherwise. */
  private async settingsFor(clusterId: string, trigger: ReplanTriggerKind): Promise<ReplanningSettingsEntity | null> {
    const s = await this.repo.settingsOf(clusterId);
    return s?.enabled && s.triggers.includes(trigger) ? s : null;
  }

  /**
   * Records the request, unless the plan was re-planned automatically less than minIntervalSeconds ago (the
   * plan and its versions are one: a re-plan's plan supersedes the plan, and is gated with it), and hands it to
   * the ReplanTrigger.
   */
  private async request(settings: ReplanningSettingsEntity, r: ReplanRequest): Promise<void> {
    const lineage = await this.versions.lineage(r.planId);
    const first = lineage.length ? lineage[lineage.length - 1].id : r.planId;
    const row = await this.repo.request(r, first, settings.minIntervalSeconds);
    if (!row) return void this.log.log(`plan ${r.planId}: ${r.trigger} within ${settings.minIntervalSeconds} s of its last automatic re-plan; nothing requested`);
    try {
      await this.repo.queued(row.id, await this.trigger.replan(r.planId, `${r.trigger}: ${r.reason}`));
    } catch (e) {
      const why = (e as { detail?: string }).detail ?? (e as Error).message ?? String(e);
      this.log.warn(`plan ${r.planId}: the re-plan was refused: ${why}`);
      await this.repo.failed(row.id, why);
    }
  }
}

