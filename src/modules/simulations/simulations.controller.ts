import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { pageLimit } from '../common/cursor';
import { ApiPage } from '../common/api-page';
import { ApiProblems } from '../common/api-problems';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { CreatePolicySimulationDto, CreateSimulationDto, SimulationDto, SimulationPageDto } from './simulation.dto';
import { SimulationsService, toSimulationDto } from './simulations.service';
import { PLAN_SIMULATION_DEFAULTS, POLICY_SIMULATION_DEFAULTS } from './simulation-defaults';

/** Replays of a plan against an actual utilisation, on a worker (src/engine/simulate). Whoever sees the plan may simulate it. */
@ApiTags('plans')
@ApiBearerAuth()
@Controller('v1')
export class SimulationsController {
  constructor(private readonly simulations: SimulationsService) {}

  @Post('plans/:planId/simulations')
  @HttpCode(202)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({
    operationId: 'simulatePlan',
    summary: 'Replay a plan against the actual utilisation on a worker; Location names the simulation',
    description:
      'The worker replays the plan in the discrete-event simulator (what `fallow simulate` does) against actualUsage, the usage of ' +
      'forecast actualForecastId, or, with neither, the plan\'s own forecast (a perfect forecast; actualSource says which), with the ' +
      'QoS controller `qos`, and stores the report: makespan, job execution times, relaunched and remote tasks, bytes moved, deadline ' +
      'misses, revenue, interference and each job\'s outcome.',
  })
  @ApiUuidPath('planId', 'the plan to replay (a solve\'s planId)')
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiAcceptedResponse({ type: SimulationDto, description: 'queued; Location names the simulation' })
  @ApiProblems(400, 401, 404, 413, 422, 429)
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('planId', UuidParam) planId: string,
    @Body() dto: CreateSimulationDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SimulationDto> {
    const simulation = await this.simulations.create(p, planId, dto);
    res.location(`/v1/simulations/${simulation.id}`);
    return toSimulationDto(simulation);
  }

  @Post('simulations')
  @HttpCode(202)
  @Roles('customer')
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({
    operationId: 'simulatePolicy',
    summary: 'Run an online policy on a cluster, batch and forecast on a worker; Location names the simulation',
    description:
      'The worker composes the instance a solve of the same clusterId, batchId, forecastId and horizon would solve and runs the online ' +
      'policy on it in the discrete-event simulator (what `fallow simulate --policy` does): hadoop, cuckoo, fair (the Fair Scheduler with ' +
      'delay scheduling), fair-nodelay, rws, hmjs or aco-bp; one of POSUM\'s allocation policies edls-sh, edls-pr, hsrtf or locf (with ' +
      '`provision`, one member of its portfolio: plus-x, minus-x, dlx or maxbsd); or posum, which chooses among its members every ' +
      'periodSeconds (and at arrivals) by simulating each over the look-ahead, its decisions in the report. It runs against actualUsage, ' +
      `the usage of forecast actualForecastId, or the forecast itself, with the QoS controller \`qos\` (default ${POLICY_SIMULATION_DEFAULTS.qos}, ` +
      `where a plan replay\'s is ${PLAN_SIMULATION_DEFAULTS.qos}). The report is the same as a plan replay\'s, with the utilisation series, RU ` +
      'per node, Jain\'s fairness index and the locality of maps whose blocks the batch gives.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiAcceptedResponse({ type: SimulationDto, description: 'queued; Location names the simulation' })
  @ApiProblems(400, 401, 403, 404, 413, 422, 429)
  async createForPolicy(@CurrentPrincipal() p: Principal, @Body() dto: CreatePolicySimulationDto, @Res({ passthrough: true }) res: Response): Promise<SimulationDto> {
    const simulation = await this.simulations.createForPolicy(p, dto);
    res.location(`/v1/simulations/${simulation.id}`);
    return toSimulationDto(simulation);
  }

  @Get('plans/:planId/simulations')
  @ApiOperation({ operationId: 'listPlanSimulations', summary: 'A plan\'s simulations, newest first', description: 'Every replay of the plan, whoever asked for it among those who see the plan, with its status and, once succeeded, its report.' })
  @ApiUuidPath('planId', 'the plan')
  @ApiPage('simulations')
  @ApiOkResponse({ type: SimulationPageDto })
  @ApiProblems(400, 401, 404, 422, 429)
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('planId', UuidParam) planId: string,
    @Query('cursor') cursor?: string,
    @Query('limit') limit?: string,
  ): Promise<SimulationPageDto> {
    const page = await this.simulations.list(p, planId, pageLimit(limit), cursor);
    return { items: page.items.map(toSimulationDto), nextCursor: page.nextCursor };
  }

  @Get('simulations/:id')
  @ApiOperation({
    operationId: 'getSimulation',
    summary: 'A simulation: queued, running, succeeded (with its report) or failed (with error)',
    description: 'A plan replay or a policy run, with the settings it was queued with (defaults applied) and, once succeeded, the simulator\'s report.',
  })
  @ApiUuidPath('id', 'the simulation (the Location of simulatePlan or simulatePolicy)')
  @ApiOkResponse({ type: SimulationDto })
  @ApiProblems(400, 401, 404, 429)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<SimulationDto> {
    return toSimulationDto(await this.simulations.get(p, id));
  }

  @Delete('simulations/:id')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'cancelSimulation',
    summary: 'Stop a simulation: it ends cancelled and stores no report',
    description: 'A queued simulation is cancelled at once; a running one is terminated on its worker within a moment (poll it). One that had already ended is returned unchanged.',
  })
  @ApiUuidPath('id', 'the simulation')
  @ApiAcceptedResponse({ type: SimulationDto })
  @ApiProblems(400, 401, 404, 429)
  async cancel(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<SimulationDto> {
    return toSimulationDto(await this.simulations.cancel(p, id));
  }
}
