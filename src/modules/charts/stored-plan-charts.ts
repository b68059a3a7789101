import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ChartFormat, PlanChart } from '../../charts/charts';
import { Config, CONFIG } from '../../config';
import { withTimeout } from '../common/with-timeout';
import { chartRevision } from './chart-revision';
import { ChartRenderer } from './chart-renderer';
import { ChartToStore, PlanChartsRepository } from './plan-charts.repository';

/**
 * The charts the worker makes when it stores a plan: those the plan page asks for as soon as it opens, with the
 * routes' default parameters. The JSON specs are not among them: they need no rendering (the costly part), and a
 * client that renders them itself is not the page.
 */
export const PRERENDERED_PLAN_CHARTS: readonly { chart: PlanChart; format: ChartFormat }[] = [
  { chart: 'gantt', format: 'svg' },
  { chart: 'utilisation', format: 'svg' },
];

/**
 * The canonical form of a chart request's parameters that change its body, the `params` part of a stored chart's
 * key: '' for the defaults. The plan chart routes take none today (their only choice, the format, is a key of its
 * own); a parameter that a route gains and that changes the output (a time window, a size, a theme) must be passed
 * here, by the API and by the worker alike, so that a stored chart is served only for exactly the request it was
 * made for.
 */
export function chartParamsKey(params: Record<string, string | number | undefined> = {}): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

/** Charts being made for a plan the worker is storing. */
export interface PendingPlanCharts {
  /**
   * Stores the charts made, through the plan's transaction, once they are made or the wait is over. Never throws:
   * a chart that could not be made or stored is logged, and the API makes it on request as before.
   */
  storeInTx(tx: EntityManager, planId: string): Promise<PrerenderOutcome>;
}

/** What became of a plan's pre-rendered charts (for the log and the solve's job result). */
export interface PrerenderOutcome {
  stored: number;
  /** From the plan's result to its charts made (or given up). */
  madeMs: number;
  /** How long the plan's store waited for them after the plan itself was written. */
  waitedMs: number;
  bytes: number;
  error?: string;
}

/** A plan's charts in plan_charts: read by the API's ChartsService, written by the worker with each large plan. */
@Injectable()
export class StoredPlanCharts {
  private readonly log = new Logger('plan-charts');

  constructor(
    private readonly charts: PlanChartsRepository,
    private readonly renderer: ChartRenderer,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** The stored body of this chart of this plan for exactly these parameters, made by this process's chart code; null if none. */
  find(planId: string, chart: PlanChart, format: ChartFormat, params: string): Promise<string | null> {
    return this.charts.body({ planId, chart, format, params, revision: chartRevision() });
  }

  /**
   * A solve of `tasks` tasks starts: if its plan may be large enough for its charts to be pre-rendered, vega is
   * loaded on the chart thread now, while the engine searches, rather than when the plan's store waits for them.
   */
  solveStarts(tasks: number): void {
    if (tasks >= this.config.chartPrerender.minTasks) this.renderer.warmUp();
  }

  /**
   * Starts making the pre-rendered charts of a plan on the chart threads (ChartRenderer, as the API does, from the
   * same texts), while its caller stores the plan; null when the plan is smaller than FALLOW_CHART_PRERENDER_MIN_TASKS
   * (its charts are quick to make on request). `document` is the plan's stored document as JSON text; `instance`
   * its solve's instance.
   */
  start(scheduledTasks: number, document: string, instance: () => string): PendingPlanCharts | null {
    if (scheduledTasks < this.config.chartPrerender.minTasks) return null;
    const startedAt = Date.now();
    const timeoutMs = this.config.chartPrerender.timeoutMs;
    const instanceText = instance();
    const made = this.renderer
      .makePlanCharts(() => ({ kind: 'plan-charts', charts: [...PRERENDERED_PLAN_CHARTS], instance: { json: instanceText }, plan: { json: document } }))
      .then((bodies) => PRERENDERED_PLAN_CHARTS.map(({ chart, format }, i): ChartToStore => ({ chart, format, params: chartParamsKey(), body: bodies[i].body, renderMs: bodies[i].ms })));
    made.catch(() => undefined); // awaited in storeInTx; a failure there is reported, never unhandled
    return {
      storeInTx: async (tx, planId) => {
        const writtenAt = Date.now();
        const outcome = (stored: number, bytes: number, error?: string): PrerenderOutcome => ({ stored, madeMs: Date.now() - startedAt, waitedMs: Date.now() - writtenAt, bytes, ...(error ? { error } : {}) });
        let charts: ChartToStore[];
        try {
          charts = await withTimeout(made, Math.max(0, startedAt + timeoutMs - Date.now()), `not made within FALLOW_CHART_PRERENDER_TIMEOUT_MS (${timeoutMs} ms)`);
        } catch (e) {
          this.log.warn(`plan ${planId}: its charts were not pre-rendered (${(e as Error).message}); the API renders them on request`);
          return outcome(0, 0, (e as Error).message);
        }
        try {
          await this.charts.insertInTx(tx, planId, chartRevision(), charts);
        } catch (e) {
          this.log.warn(`plan ${planId}: its pre-rendered charts were not stored (${(e as Error).message}); the API renders them on request`);
          return outcome(0, 0, (e as Error).message);
        }
        const bytes = charts.reduce((n, c) => n + Buffer.byteLength(c.body), 0);
        const done = outcome(charts.length, bytes);
        this.log.log(`plan ${planId}: ${charts.map((c) => `${c.chart}.${c.format} ${c.renderMs} ms`).join(', ')} pre-rendered (${(bytes / 1e6).toFixed(1)} MB), ${done.madeMs} ms from the result, waited ${done.waitedMs} ms`);
        return done;
      },
    };
  }
}

