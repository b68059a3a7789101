import { Injectable } from '@nestjs/common';
import { SCHEDULE_CHARTS } from '../../charts/charts';
import type { ScheduleChartInput } from '../../charts/schedule';
import { slotTimeMs } from '../../engine/commitments/holds';
import { ClusterSchedule, clusterSchedule, scheduleGrid, ScheduleGrid } from '../../engine/commitments/schedule';
import type { Principal } from '../auth/principal';
import { ChartRenderer } from '../charts/chart-renderer';
import type { ClusterEntity } from '../clusters/cluster.entity';
import { ClustersService } from '../clusters/clusters.service';
import { ChartBody, chartFile } from '../common/chart-response';
import { invalid, notFound } from '../common/problem';
import { CommitmentsService, CommittedPlan, TenantHold } from '../commitments/commitments.service';
import type { ForecastEntity } from '../forecasts/forecast.entity';
import { forecastEndsAt, ForecastsService } from '../forecasts/forecasts.service';
import { ClusterScheduleDto } from './schedule.dto';
import { parseScheduleQuery } from './schedule-query';

type View = ClusterScheduleDto['view'];

/** Everything one schedule answer is made of, already cut to what the caller may see. */
interface Computed {
  cluster: ClusterEntity;
  version: number;
  metrics: string[];
  view: View;
  grid: ScheduleGrid;
  forecast: ForecastEntity | null;
  schedule: ClusterSchedule;
  plans: CommittedPlan[];
  tasks: TenantHold[];
}

/**
 * A cluster's schedule (issue 37, point 3): over a window of slots, its committed plans, what they hold per
 * node, metric and slot, the regular customers' forecast load and what is still free, and a chart of it.
 * The cluster's farmer and operators see every plan and task; a customer (on a lendable cluster, as it may
 * solve there) sees only its own, and the capacity figures, which count every customer's without saying whose.
 */
@Injectable()
export class ScheduleService {
  constructor(
    private readonly clusters: ClustersService,
    private readonly forecasts: ForecastsService,
    private readonly commitments: CommitmentsService,
    private readonly renderer: ChartRenderer,
  ) {}

  async schedule(p: Principal, clusterId: string, q: { from?: unknown; to?: unknown }): Promise<ClusterScheduleDto> {
    const c = await this.compute(p, await this.visible(p, clusterId), q);
    const iso = (ms: number) => new Date(ms).toISOString();
    const { window } = c.grid;
    return {
      clusterId: c.cluster.id,
      clusterVersion: c.version,
      view: c.view,
      from: iso(window.startsAtMs),
      to: iso(slotTimeMs(window, window.slots)),
      slotSeconds: window.slotSeconds,
      slots: window.slots,
      forecast: c.forecast && { id: c.forecast.id, startsAt: c.forecast.startsAt.toISOString(), endsAt: forecastEndsAt(c.forecast).toISOString(), slots: c.grid.forecastSlots },
      metrics: c.metrics,
      plans: c.plans.map((pl) => ({
        id: pl.id,
        customerId: pl.tenantId,
        status: pl.status,
        window: { startsAt: pl.windowStartsAt.toISOString(), slotSeconds: pl.slotSeconds, slots: pl.slots },
        committedAt: pl.committedAt?.toISOString() ?? null,
        endsAt: pl.endsAt.toISOString(),
        borrowing: pl.borrowing,
        tasks: pl.tasks,
        tasksInWindow: pl.tasksInWindow,
      })),
      tasks: c.tasks.map((h) => ({ planId: h.planId, job: h.job, node: h.node, from: iso(h.fromMs), to: iso(h.toMs), demand: h.demand })),
      nodes: c.schedule.nodes.map((n) => ({ id: n.node, metrics: n.metrics, tasks: n.tasks })),
      totals: { metrics: c.schedule.totals, tasks: c.schedule.taskTotals },
    };
  }

  /** The chart of the schedule (SCHEDULE_CHARTS), drawn from its totals only; made on the chart threads, never kept (every commit changes it). */
  async chart(p: Principal, clusterId: string, file: string, q: { from?: unknown; to?: unknown }): Promise<ChartBody> {
    const visible = await this.visible(p, clusterId);
    const { format } = chartFile(file, SCHEDULE_CHARTS);
    const c = await this.compute(p, visible, q);
    const { window } = c.grid;
    const input: ScheduleChartInput = {
      title: `Schedule of cluster ${c.cluster.name} (version ${c.version}): regular load, reserved by committed plans, free`,
      startsAtMs: window.startsAtMs,
      slotSeconds: window.slotSeconds,
      slots: window.slots,
      forecast: c.forecast && { id: c.forecast.id, slots: c.grid.forecastSlots },
      metrics: c.metrics,
      totals: c.schedule.totals,
      taskTotals: c.schedule.taskTotals,
    };
    const text = await this.renderer.make(async () => ({ kind: 'schedule', format, input }));
    return format === 'json' ? { format, json: text } : { format, svg: text };
  }

  /** The cluster and how much of its schedule the caller sees; 404 for a cluster it may not see at all. */
  private async visible(p: Principal, clusterId: string): Promise<{ cluster: ClusterEntity; view: View }> {
    const cluster = await this.clusters.findById(clusterId);
    const own = cluster?.tenantId === p.tenantId;
    if (cluster && (p.role === 'operator' || (p.role === 'farmer' && own))) return { cluster, view: 'cluster' };
    if (cluster && p.role === 'customer' && (cluster.lendable || own)) return { cluster, view: 'customer' };
    throw notFound('cluster', clusterId);
  }

  private async compute(p: Principal, { cluster, view }: { cluster: ClusterEntity; view: View }, q: { from?: unknown; to?: unknown }): Promise<Computed> {
    const query = parseScheduleQuery(q, Date.now());
    const version = await this.clusters.findVersion(cluster.id, cluster.version);
    if (!version) throw new Error(`cluster ${cluster.id} has no row for its version ${cluster.version}`);
    const forecast = (await this.forecasts.chooseFor(cluster.id, cluster.version, new Date(query.fromMs), false))?.forecast ?? null;
    const grid = scheduleGrid(query.fromMs, query.toMs, forecast && { startsAtMs: forecast.startsAt.getTime(), slotSeconds: forecast.slotSeconds, slots: forecast.slots });
    if ('error' in grid) throw invalid([{ path: 'query:to', message: grid.error }]);
    const own = view === 'customer' ? p.tenantId : null;
    const { holds, plans } = await this.commitments.committedIn(cluster.id, grid.window, own);
    const regular = forecast && grid.forecastOffset !== null ? { usage: forecast.usage, offset: grid.forecastOffset } : null;
    const schedule = clusterSchedule(grid.window, version.nodes, version.metrics, holds, regular);
    const tasks = holds
      .filter((h) => own === null || h.tenantId === own)
      .sort((a, b) => a.fromMs - b.fromMs || a.node.localeCompare(b.node) || a.planId.localeCompare(b.planId) || a.job.localeCompare(b.job));
    return { cluster, version: version.version, metrics: version.metrics, view, grid, forecast, schedule, plans, tasks };
  }
}

