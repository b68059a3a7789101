import { Injectable } from '@nestjs/common';
import { PLAN_CHARTS, SIMULATION_CHARTS } from '../../charts/charts';
import type { ChartJob } from '../../charts/chart-job';
import type { ReportForChart } from '../../charts/simulation';
import { Principal } from '../auth/principal';
import { ChartBody, chartFile } from '../common/chart-response';
import { conflict } from '../common/problem';
import { PlansService } from '../plans/plans.service';
import { SimulationsService } from '../simulations/simulations.service';
import { SolvesService } from '../solves/solves.service';
import { ChartRenderer } from './chart-renderer';
import { InFlight } from './in-flight';
import { RenderCache } from './render-cache';

/**
 * The charts of a plan and of a simulation. Visibility is the plan's and the simulation's own (404 for what the
 * key may not see), checked before anything else, the cache included. Plans and finished simulations never
 * change, so a made chart (SVG or spec) is kept (RenderCache): a page reload reads neither the plan nor its
 * instance again. Charts are made on the chart threads (ChartRenderer), never on the event loop.
 */
@Injectable()
export class ChartsService {
  private readonly cache = new RenderCache(64);
  private readonly planTexts = new InFlight<{ plan: string; instance: string }>();

  constructor(
    private readonly plans: PlansService,
    private readonly solves: SolvesService,
    private readonly simulations: SimulationsService,
    private readonly renderer: ChartRenderer,
  ) {}

  async planChart(p: Principal, planId: string, file: string): Promise<ChartBody> {
    const solveId = await this.plans.assertVisible(p, planId);
    const { chart, format } = chartFile(file, PLAN_CHARTS);
    // Both as text, read at once: the chart thread parses them (17 MB at 100,000 tasks), not this event loop; the
    // page's two charts, asked at once, read them once.
    const texts = this.planTexts.join(planId, async () => {
      const [plan, instance] = await Promise.all([this.plans.forCharts(planId), this.solves.instanceText(solveId)]);
      return { plan: plan.json, instance };
    });
    try {
      return await this.body(`plan/${planId}/${chart}.${format}`, format, async () => {
        const { plan, instance } = await texts.get();
        return { kind: 'plan', format, chart, instance: { json: instance }, plan: { json: plan } };
      });
    } finally {
      texts.release();
    }
  }

  async simulationChart(p: Principal, simulationId: string, file: string): Promise<ChartBody> {
    const sim = await this.simulations.get(p, simulationId);
    const { format } = chartFile(file, SIMULATION_CHARTS);
    if (sim.status !== 'succeeded' || !sim.report)
      throw conflict(`simulation ${sim.id} is ${sim.status}: its charts exist once it has succeeded with a report`);
    return this.body(`simulation/${sim.id}/planned-vs-realised.${format}`, format, async () => {
      const report = sim.report as unknown as ReportForChart;
      if (sim.planId === null) return { kind: 'simulation', format, report, planned: null, title: `policy ${sim.policy ?? report.driver}, simulation ${sim.id}` };
      const plan = await this.plans.forCharts(sim.planId);
      return { kind: 'simulation', format, report, planned: { instance: { json: await this.solves.instanceText(plan.solveId) }, plan: { json: plan.json } }, title: `${plan.strategy} plan ${sim.planId}` };
    });
  }

  private async body(key: string, format: ChartBody['format'], job: () => Promise<ChartJob>): Promise<ChartBody> {
    const text = await this.cache.get(key, () => this.renderer.make(job));
    return format === 'json' ? { format, json: text } : { format, svg: text };
  }
}
