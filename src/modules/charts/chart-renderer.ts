import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { join } from 'node:path';
import type { ChartJob, PlanChartsJob } from '../../charts/chart-job';
import { ThreadPool } from '../../engine/threads/thread-pool';
import { Config, CONFIG } from '../../config';

/** Longest one chart may take on its thread (the 10,000-task charts take about a second: bench/CHARTS.md). */
const CHART_TIMEOUT_MS = 60_000;
/** Heap of one chart thread: a spec and its SVG, with room for vega's scene graph of the largest plans. */
const CHART_THREAD_MB = 1024;
/**
 * Its young generation: a chart of 100,000 tasks parses 14 MB of JSON and makes some 200,000 short-lived objects;
 * with V8's default (16 MB semi-spaces) the garbage collector took over a quarter of its time. 64 MB semi-spaces made
 * the Gantt and the utilisation of a 100,000-task plan about a fifth faster (median of 8 charts, alternating runs on
 * the shared 2-core machine: 0.66 -> 0.48 s and 0.55 -> 0.45 s; bench/SERVICE-SCALE.md).
 */
const CHART_THREAD_YOUNG_MB = 192;

/**
 * Makes charts on the process's chart threads (FALLOW_CHART_THREADS), never on its event loop: building the spec of a
 * 12,000-task plan and rendering it held every other request for seconds. The threads start with the first chart
 * and live on between charts, so vega is loaded once per thread: when the API starts (ChartThreadsWarmUp), or
 * with the first large plan a worker stores (whose charts it pre-renders: StoredPlanCharts).
 */
@Injectable()
export class ChartRenderer implements OnModuleDestroy {
  private readonly pool: ThreadPool<ChartJob | PlanChartsJob, string | { body: string; ms: number }[]>;

  constructor(@Inject(CONFIG) config: Config) {
    this.pool = new ThreadPool(join(__dirname, '../../charts/chart.thread.js'), {
      size: config.chartThreads,
      taskTimeoutMs: CHART_TIMEOUT_MS,
      resourceLimits: { maxOldGenerationSizeMb: CHART_THREAD_MB, maxYoungGenerationSizeMb: CHART_THREAD_YOUNG_MB },
    });
  }

  /**
   * The response body of one chart: the SVG, or the Vega-Lite spec as JSON text. `job` reads what the chart is made
   * of (a plan and its instance: megabytes parsed on the event loop), so it is called only when a thread is free:
   * twenty charts asked at once hold one or two plans in memory at a time, not twenty.
   */
  make(job: () => ChartJob | Promise<ChartJob>): Promise<string> {
    return this.pool.runLoaded(job) as Promise<string>;
  }

  /** Several charts of one plan, its documents read once (makePlanCharts): each body, in order, with its time on the thread. */
  makePlanCharts(job: () => PlanChartsJob): Promise<{ body: string; ms: number }[]> {
    return this.pool.runLoaded(job) as Promise<{ body: string; ms: number }[]>;
  }

  /** Loads vega on a thread ahead of the first chart. */
  warmUp(): void {
    const warmUp: ChartJob = { kind: 'revenue', format: 'svg', input: { title: 'warm-up', currency: 'EUR', period: 'day', components: [] } };
    this.pool.run(warmUp).catch(() => undefined); // a failure shows, with its reason, on the first chart request
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}

/** The API's: the first chart a person asks for should not also wait for vega to load (bench/CHARTS.md: fresh process). */
@Injectable()
export class ChartThreadsWarmUp implements OnApplicationBootstrap {
  constructor(private readonly renderer: ChartRenderer) {}

  onApplicationBootstrap(): void {
    this.renderer.warmUp();
  }
}
