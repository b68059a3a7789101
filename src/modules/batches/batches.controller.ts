import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { pageLimit } from '../common/cursor';
import { ApiPage } from '../common/api-page';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { BatchDto, BatchPageDto, BatchPredictionsDto, CreateBatchDto } from './batch.dto';
import { PREDICTOR_CHOICES, PredictorChoice } from '../../engine/predict';
import { invalid } from '../common/problem';
import { BatchesService, toBatchDto } from './batches.service';

/** A customer's batches of MapReduce-style jobs, solved on a cluster by reference (POST /v1/solves). */
@ApiTags('batches')
@ApiBearerAuth()
@Roles('customer')
@Controller('v1/batches')
export class BatchesController {
  constructor(private readonly batches: BatchesService) {}

  @Post()
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({ operationId: 'createBatch', summary: 'Submit a batch of jobs; Location names it', description: 'The jobs (stages, tasks, demands, durations or work, deadlines, revenue) are checked whole; a 422 lists every problem with its path. Solves and policy simulations refer to the batch by id.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiCreatedResponse({ type: BatchDto })
  @ApiProblems(400, 401, 403, 413, 422, 429)
  async create(@CurrentPrincipal() p: Principal, @Body() dto: CreateBatchDto, @Res({ passthrough: true }) res: Response): Promise<BatchDto> {
    const batch = await this.batches.create(p, dto);
    res.location(`/v1/batches/${batch.id}`);
    return toBatchDto(batch);
  }

  @Get()
  @ApiOperation({ operationId: 'listBatches', summary: 'Batches, newest first (without their jobs)', description: 'Your batches (an operator: everyone\'s) with their job counts.' })
  @ApiPage('batches')
  @ApiOkResponse({ type: BatchPageDto })
  @ApiProblems(401, 403, 422, 429)
  async list(@CurrentPrincipal() p: Principal, @Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<BatchPageDto> {
    return this.batches.list(p, pageLimit(limit), cursor);
  }

  @Get(':id/predictions')
  @ApiOperation({
    operationId: 'predictBatch',
    summary: 'The durations a solve would predict for the batch\'s stages without work or durationSeconds, from your execution history, without solving',
    description: 'Stages that give work or durationSeconds need no prediction and are not listed.',
  })
  @ApiUuidPath('id', 'the batch')
  @ApiQuery({ name: 'predictor', required: false, enum: PREDICTOR_CHOICES, description: 'default auto' })
  @ApiOkResponse({ type: BatchPredictionsDto })
  @ApiProblems(400, 401, 403, 404, 422, 429)
  async predictions(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Query('predictor') predictor?: string): Promise<BatchPredictionsDto> {
    const choice = predictor ?? 'auto';
    if (!(PREDICTOR_CHOICES as readonly string[]).includes(choice))
      throw invalid([{ path: 'predictor', message: `must be one of ${PREDICTOR_CHOICES.join(', ')}, got ${JSON.stringify(predictor)}` }]);
    return this.batches.predictions(p, id, choice as PredictorChoice);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getBatch', summary: 'A batch with its jobs', description: 'The batch as submitted, with every job.' })
  @ApiUuidPath('id', 'the batch')
  @ApiOkResponse({ type: BatchDto })
  @ApiProblems(400, 401, 403, 404, 429)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<BatchDto> {
    return toBatchDto(await this.batches.get(p, id));
  }
}
