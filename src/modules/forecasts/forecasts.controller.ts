import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { pageLimit } from '../common/cursor';
import { ApiPage } from '../common/api-page';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { CreateForecastDto, ForecastDto, ForecastPageDto } from './forecast.dto';
import { ForecastsService, toForecastDto, toForecastSummaryDto } from './forecasts.service';

/** Utilisation forecasts (U(k,m,t)) a farmer posts for its own clusters. */
@ApiTags('forecasts')
@ApiBearerAuth()
@Roles('farmer')
@Controller('v1')
export class ForecastsController {
  constructor(private readonly forecasts: ForecastsService) {}

  @Post('clusters/:clusterId/forecasts')
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({ operationId: 'createForecast', summary: 'Post a utilisation forecast, checked against the cluster\'s current version', description: 'The forecast\'s usage (node -> metric -> one fraction per slot) must name the cluster\'s current nodes and metrics; a 422 lists every problem with its path. Solves and simulations refer to it by id.' })
  @ApiUuidPath('clusterId', 'the cluster the forecast is of')
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiCreatedResponse({ type: ForecastDto, description: 'stored; Location names the forecast' })
  @ApiProblems(400, 401, 403, 404, 413, 422, 429)
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('clusterId', UuidParam) clusterId: string,
    @Body() dto: CreateForecastDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ForecastDto> {
    const forecast = await this.forecasts.create(p, clusterId, dto);
    res.location(`/v1/forecasts/${forecast.id}`);
    return toForecastDto(forecast);
  }

  @Get('clusters/:clusterId/forecasts')
  @ApiOperation({ operationId: 'listForecasts', summary: 'A cluster\'s forecasts, newest first (without their series)', description: 'Each forecast\'s window (startsAt, slotSeconds, slots), quantile and provenance, without the series.' })
  @ApiUuidPath('clusterId', 'the cluster')
  @ApiPage('forecasts')
  @ApiOkResponse({ type: ForecastPageDto })
  @ApiProblems(400, 401, 403, 404, 422, 429)
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('clusterId', UuidParam) clusterId: string,
    @Query('cursor') cursor?: string,
    @Query('limit') limit?: string,
  ): Promise<ForecastPageDto> {
    const page = await this.forecasts.list(p, clusterId, pageLimit(limit), cursor);
    return { items: page.items.map(toForecastSummaryDto), nextCursor: page.nextCursor };
  }

  @Get('forecasts/:id')
  @ApiOperation({ operationId: 'getForecast', summary: 'A forecast with its series', description: 'The forecast\'s window, quantile, provenance and usage series (node -> metric -> one fraction per slot).' })
  @ApiUuidPath('id', 'the forecast')
  @ApiOkResponse({ type: ForecastDto })
  @ApiProblems(400, 401, 403, 404, 429)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<ForecastDto> {
    return toForecastDto(await this.forecasts.get(p, id));
  }
}
