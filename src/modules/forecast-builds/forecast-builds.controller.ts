import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res, UseInterceptors } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { CreateForecastBuildDto, ForecastBuildDto } from './forecast-build.dto';
import { ForecastBuildsService, toForecastBuildDto } from './forecast-builds.service';

/** Forecasts built by the service from a cluster's usage history, on a worker. */
@ApiTags('forecasts')
@ApiBearerAuth()
@Roles('farmer')
@Controller('v1')
export class ForecastBuildsController {
  constructor(private readonly builds: ForecastBuildsService) {}

  /* `\\:` is a literal colon (a custom method, AIP-136 style), not a route parameter. */
  @Post('clusters/:clusterId/forecasts\\:build')
  @HttpCode(202)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({
    operationId: 'buildForecast',
    summary: 'Build a forecast from the cluster\'s usage history on a worker; Location names the build',
    description:
      'The worker trains the model (or computes the baseline) on the usage history, forecasts the `horizonSlots` slots after the last ' +
      'sample at the quantile, and stores it as a forecast of the cluster (solves use it by forecastId) with its provenance: model, ' +
      'training window and scores (in-sample; and, with 2 days of history or more, the last day held out against every baseline). ' +
      'A cluster without history, or with too little for the model, gives a failed build whose `error` says so.',
  })
  @ApiUuidPath('clusterId', 'the cluster whose usage history is learned from')
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiAcceptedResponse({ type: ForecastBuildDto, description: 'queued; Location names the build' })
  @ApiProblems(400, 401, 403, 404, 422, 429)
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('clusterId', UuidParam) clusterId: string,
    @Body() dto: CreateForecastBuildDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ForecastBuildDto> {
    const build = await this.builds.create(p, clusterId, dto);
    res.location(`/v1/forecast-builds/${build.id}`);
    return toForecastBuildDto(build);
  }

  @Get('forecast-builds/:id')
  @ApiOperation({ operationId: 'getForecastBuild', summary: 'Status of a forecast build: queued, running, succeeded (with forecastId) or failed (with error)', description: 'Poll it until it ends: a succeeded build names the forecast it stored.' })
  @ApiUuidPath('id', 'the forecast build (the Location of buildForecast)')
  @ApiOkResponse({ type: ForecastBuildDto })
  @ApiProblems(400, 401, 403, 404, 429)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<ForecastBuildDto> {
    return toForecastBuildDto(await this.builds.get(p, id));
  }

  @Delete('forecast-builds/:id')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'cancelForecastBuild',
    summary: 'Stop a forecast build: it ends cancelled and stores no forecast',
    description: 'A queued build is cancelled at once; a running one is terminated on its worker within a moment (poll it). A build that had already ended is returned unchanged.',
  })
  @ApiUuidPath('id', 'the forecast build')
  @ApiAcceptedResponse({ type: ForecastBuildDto })
  @ApiProblems(400, 401, 403, 404, 429)
  async cancel(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<ForecastBuildDto> {
    return toForecastBuildDto(await this.builds.cancel(p, id));
  }
}
