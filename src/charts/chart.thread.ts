/** Thread entry of the API's chart threads (src/modules/charts/chart-renderer.ts): makes one chart a message (or several of one plan: the worker's pre-rendering). */
import { servePool } from '../engine/threads/thread-pool';
import { ChartJob, makeChart, makePlanCharts, PlanChartsJob } from './chart-job';

servePool<ChartJob | PlanChartsJob, string | { body: string; ms: number }[]>((job) => (job.kind === 'plan-charts' ? makePlanCharts(job) : makeChart(job)));
