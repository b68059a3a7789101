import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ChartFormat, PLAN_CHARTS, planChartSpec, SIMULATION_CHARTS } from '../../charts/charts';
import { ChartInputError } from '../../charts/plan-data';
import { load as loadRenderer, renderSvg } from '../../charts/render';
import { plannedEnds, ReportForChart, simulationSpec } from '../../charts/simulation';
import { ChartSpec } from '../../charts/spec';
import { compile, Model } from '../../engine/model/model';
import { Principal } from '../auth/principal';
import { ChartBody, chartFile } from '../common/chart-response';
import { conflict } from '../common/problem';
import type { PlanEntity } from '../plans/plan.entity';
import { PlansService } from '../plans/plans.service';
import { SimulationsService } from '../simulations/simulations.service';
import { SolvesService } from '../solves/solves.service';
import { RenderCache } from './render-cache';

/**
 * The charts of a plan and of a simulation. Visibility is the plan's and the simulation's own (PlansService.get,
 * SimulationsService.get: 404 for what the key may not see), checked before anything else, the cache included.
 * Plans and finished simulations never change, so a rendered chart is kept (RenderCache) and a page reload
 * does not render again.
 */
@Injectable()
export class ChartsService implements OnApplicationBootstrap {
  private readonly cache = new RenderCache(32);

  constructor(
    private readonly plans: PlansService,
    private readonly solves: SolvesService,
    private readonly simulations: SimulationsService,
  ) {}

  /** The first chart a person asks for should not also wait for vega to load (bench/CHARTS.md: fresh process). */
  onApplicationBootstrap(): void {
    loadRenderer().catch(() => undefined); // a failure shows, with its reason, on the first chart request
  }

  async planChart(p: Principal, planId: string, file: string): Promise<ChartBody> {
    const plan = await this.plans.get(p, planId);
    const which = chartFile(file, PLAN_CHARTS);
    return this.body(`plan/${plan.id}/${which.chart}`, which.format, async () => planChartSpec(which.chart, await this.modelOf(plan), plan.document));
  }

  async simulationChart(p: Principal, simulationId: string, file: string): Promise<ChartBody> {
    const sim = await this.simulations.get(p, simulationId);
    const which = chartFile(file, SIMULATION_CHARTS);
    if (sim.status !== 'succeeded' || !sim.report)
      throw conflict(`simulation ${sim.id} is ${sim.status}: its charts exist once it has succeeded with a report`);
    return this.body(`simulation/${sim.id}/${which.chart}`, which.format, async () => {
      const report = sim.report as unknown as ReportForChart;
      if (sim.planId === null) return simulationSpec(report, null, `policy ${sim.policy ?? report.driver}, simulation ${sim.id}`);
      const plan = await this.plans.byId(sim.planId);
      return simulationSpec(report, plannedEnds(await this.modelOf(plan), plan.document), `${plan.document.strategy} plan ${plan.id}`);
    });
  }

  private async body(key: string, format: ChartFormat, spec: () => Promise<ChartSpec>): Promise<ChartBody> {
    if (format === 'json') return { format, spec: await this.safely(spec) };
    return { format, svg: await this.cache.get(key, async () => renderSvg(await this.safely(spec))) };
  }

  /** A stored plan that does not fit its stored instance is the service's fault, not the caller's: a 500 that says so. */
  private async safely(spec: () => Promise<ChartSpec>): Promise<ChartSpec> {
    try {
      return await spec();
    } catch (e) {
      if (e instanceof ChartInputError) throw new Error(`a stored plan does not fit its solve's instance: ${e.message}`);
      throw e;
    }
  }

  /** The instance the plan was solved for, compiled (it was validated when the solve was accepted). */
  private async modelOf(plan: PlanEntity): Promise<Model> {
    return compile((await this.solves.withInstance(plan.solveId)).instance);
  }
}
