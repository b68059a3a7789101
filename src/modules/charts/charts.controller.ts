import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PLAN_CHARTS, SIMULATION_CHARTS } from '../../charts/charts';
import { CurrentPrincipal, Principal, Public } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { ApiChart, sendChart } from '../common/chart-response';
import { ChartsService } from './charts.service';
import { planPage } from './plan-page';

/** Charts of plans and simulations (src/charts), readable by whoever may read the plan or the simulation. */
@ApiTags('charts')
@Controller('v1')
export class ChartsController {
  constructor(private readonly charts: ChartsService) {}

  @Get('plans/:id/charts/:file')
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'getPlanChart',
    summary: 'A chart of a plan: the Gantt per node (tasks by job, rejected jobs listed) or, per node and metric, the capacity the forecast leaves against what the plan uses',
    description:
      'Large plans are aggregated (per node and time bucket) where one mark per task would be thinner than a pixel. ' +
      'The SVGs of a large plan (FALLOW_CHART_PRERENDER_MIN_TASKS) are rendered by the worker when it stores the plan, ' +
      'so their first request reads them; X-Chart-Source says whether a body was stored so or rendered on request.',
  })
  @ApiUuidPath('id', 'the plan')
  @ApiChart(PLAN_CHARTS, { source: true })
  @ApiProblems(401, 404, 429)
  async planChart(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Param('file') file: string, @Res({ passthrough: true }) res: Response) {
    return sendChart(res, await this.charts.planChart(p, id, file));
  }

  @Get('simulations/:id/charts/:file')
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'getSimulationChart',
    summary: 'A chart of a succeeded simulation: each job\'s planned against realised end, its kills (each relaunched) and remote reads marked',
    description: 'Drawn from the simulation\'s report: SVG (file .svg) or its Vega-Lite spec (file .json).',
  })
  @ApiUuidPath('id', 'the simulation')
  @ApiChart(SIMULATION_CHARTS)
  @ApiProblems(401, 404, 409, 429)
  async simulationChart(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Param('file') file: string, @Res({ passthrough: true }) res: Response) {
    return sendChart(res, await this.charts.simulationChart(p, id, file));
  }

  @Get('plans/:id/page')
  @Public()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'getPlanPage',
    security: [],
    summary: 'A read-only HTML page of a plan for a browser: key facts and charts',
    description:
      'The page holds no plan data, so it needs no key to load; its script asks for the API key once, keeps it in the tab\'s ' +
      'sessionStorage and reads the plan and its charts with `Authorization: Bearer` under those routes\' rules.',
  })
  @ApiUuidPath('id', 'the plan')
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'the page', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiProblems(400)
  page(@Param('id', UuidParam) id: string, @Res({ passthrough: true }) res: Response): string {
    const { html, csp } = planPage(id);
    res.type('html').set('Content-Security-Policy', csp);
    return html;
  }
}
