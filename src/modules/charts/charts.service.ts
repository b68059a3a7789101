import { Injectable } from '@nestjs/common';
import { PLAN_CHARTS, SIMULATION_CHARTS } from '../../charts/charts';
import type { ChartJob } from '../../charts/chart-job';
import type { ReportForChart } from '../../charts/simulation';
import { Principal } from '../auth/principal';
import { ChartBody, chartFile, ChartSource } from '../common/chart-response';
import { conflict } from '../common/problem';
import { PlansService } from '../plans/plans.service';
import { SimulationsService } from '../simulations/simulations.service';
import { SolvesService } from '../solves/solves.service';
import { ChartRenderer } from './chart-renderer';
import { InFlight } from './in-flight';
import { RenderCache } from './render-cache';
import { chartParamsKey, StoredPlanCharts } from './stored-plan-charts';

/** A made chart as the cache keeps it: the body, and where it was made. */
interface Made {
  text: string;
  source: ChartSource;
}

/**
 * The charts of a plan and of a simulation. Visibility is the plan's and the simulation's own (404 for what the
 * key may not see), checked before anything else, the cache included. Plans and finished simulations never
 * change, so a made chart (SVG or spec) is kept (RenderCache): a page reload reads neither the plan nor its
 * instance again. A large plan's charts that the plan page shows were rendered by the worker when it stored the
 * plan (StoredPlanCharts): served from there when one matches the request exactly, so their first request does not
 * wait for a rendering on a loaded API. Else charts are made on the chart threads (ChartRenderer), never on the
 * event loop.
 */
@Injectable()
export class ChartsService {
  private readonly cache = new RenderCache<Made>(64);
  private readonly planTexts = new InFlight<{ plan: string; instance: string }>();

  constructor(
    private readonly plans: PlansService,
    private readonly solves: SolvesService,
    private readonly simulations: SimulationsService,
    private readonly renderer: ChartRenderer,
    private readonly stored: StoredPlanCharts,
  ) {}

  async planChart(p: Principal, planId: string, file: string): Promise<ChartBody> {
    const solveId = await this.plans.assertVisible(p, planId);
    const { chart, format } = chartFile(file, PLAN_CHARTS);
    const params = chartParamsKey(); // the routes' parameters that change the body (none yet): part of every key
    return this.body(`plan/${planId}/${chart}.${format}?${params}`, format, async () => {
      const stored = await this.stored.find(planId, chart, format, params);
      if (stored !== null) return { text: stored, source: 'stored' };
      // Both as text, read at once: the chart thread parses them (17 MB at 100,000 tasks), not this event loop;
      // the page's two charts, asked at once, read them once.
      const texts = this.planTexts.join(planId, async () => {
        const [plan, instance] = await Promise.all([this.plans.forCharts(planId), this.solves.instanceText(solveId)]);
        return { plan: plan.json, instance };
      });
      try {
        return await this.render(async () => {
          const { plan, instance } = await texts.get();
          return { kind: 'plan', format, chart, instance: { json: instance }, plan: { json: plan } };
        });
      } finally {
        texts.release();
      }
    }, true);
  }

  async simulationChart(p: Principal, simulationId: string, file: string): Promise<ChartBody> {
    const sim = await this.simulations.get(p, simulationId);
    const { format } = chartFile(file, SIMULATION_CHARTS);
    if (sim.status !== 'succeeded' || !sim.report)
      throw conflict(`simulation ${sim.id} is ${sim.status}: its charts exist once it has succeeded with a report`);
    return this.body(`simulation/${sim.id}/planned-vs-realised.${format}`, format, () => this.render(async () => {
      const report = sim.report as unknown as ReportForChart;
      if (sim.planId === null) return { kind: 'simulation', format, report, planned: null, title: `policy ${sim.policy ?? report.driver}, simulation ${sim.id}` };
      const plan = await this.plans.forCharts(sim.planId);
      return { kind: 'simulation', format, report, planned: { instance: { json: await this.solves.instanceText(plan.solveId) }, plan: { json: plan.json } }, title: `${plan.strategy} plan ${sim.planId}` };
    }));
  }

  private async render(job: () => Promise<ChartJob>): Promise<Made> {
    return { text: await this.renderer.make(job), source: 'rendered' };
  }

  /** The chart under `key`, kept or made; `withSource`: the answer says where it was made (the plan routes' X-Chart-Source). */
  private async body(key: string, format: ChartBody['format'], make: () => Promise<Made>, withSource = false): Promise<ChartBody> {
    const made = await this.cache.get(key, make);
    const source = withSource ? { source: made.source } : {};
    return format === 'json' ? { format, json: made.text, ...source } : { format, svg: made.text, ...source };
  }
}
