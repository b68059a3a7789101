import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { EventStream } from '../auth/stream-slots';
import { pageLimit } from '../common/cursor';
import { ApiPage } from '../common/api-page';
import { ApiProblems } from '../common/api-problems';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { CreateSolveDto, SolveDto, SolvePageDto } from './solve.dto';
import { InstanceDto } from '../common/format.dto';
import type { InstanceDoc } from '../../engine/model/types';
import { SolvesService, toSolveDto } from './solves.service';
import { SOLVE_STATUSES } from './solve.entity';
import { streamSolve } from './solve-events';

/** Solves: long work a worker runs within its time budget, stored with the plan it found. */
@ApiTags('solves')
@ApiBearerAuth()
@Controller('v1/solves')
export class SolvesController {
  constructor(private readonly solves: SolvesService) {}

  @Post()
  @HttpCode(202)
  @Roles('customer')
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({
    operationId: 'createSolve',
    summary: 'Queue a solve of a whole instance, or of a cluster + forecast + batch',
    description:
      'Everything is checked before anything is stored (a 422 lists every problem with its path). A worker runs the strategy within ' +
      'timeBudgetMs and stores the best plan it found; poll getSolve or follow followSolve. Fields left out take the defaults the schema ' +
      'gives; the solve returned says what was applied.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiAcceptedResponse({ type: SolveDto, description: 'queued; Location names the solve' })
  @ApiProblems(400, 401, 403, 404, 413, 422, 429)
  async create(@CurrentPrincipal() p: Principal, @Body() dto: CreateSolveDto, @Res({ passthrough: true }) res: Response): Promise<SolveDto> {
    const solve = await this.solves.create(p, dto);
    res.location(`/v1/solves/${solve.id}`);
    return toSolveDto(solve);
  }

  @Get()
  @ApiOperation({ operationId: 'listSolves', summary: 'Solves, newest first', description: 'Your solves (an operator: everyone\'s), optionally only those in one status.' })
  @ApiQuery({ name: 'status', required: false, enum: SOLVE_STATUSES, description: 'only the solves in this status; omitted: every status' })
  @ApiPage('solves')
  @ApiOkResponse({ type: SolvePageDto })
  @ApiProblems(401, 422)
  async list(@CurrentPrincipal() p: Principal, @Query('status') status?: string, @Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<SolvePageDto> {
    const page = await this.solves.list(p, pageLimit(limit), cursor, status);
    return { items: page.items.map(toSolveDto), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getSolve',
    summary: 'Status, progress (best objective so far) and, when done, the plan id',
    description: 'queued, running (progress rewritten at least once a second), succeeded (planId set), failed (error says why) or cancelled (planId set when a plan had been found).',
  })
  @ApiUuidPath('id', 'the solve (the Location of createSolve)')
  @ApiOkResponse({ type: SolveDto })
  @ApiProblems(401, 404)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<SolveDto> {
    return toSolveDto(await this.solves.get(p, id));
  }

  @Get(':id/instance')
  @ApiOperation({
    operationId: 'getSolveInstance',
    summary: 'The instance the solve solved (fallow.instance/v1), as the engine got it',
    description:
      'The inline instance, or the one assembled from the cluster, the forecast and the batch when the solve was created (durations predicted, ' +
      'the window and safety margin applied): check its plan against it with `fallow check` or check-plan.py. Its customer\'s, or an operator\'s.',
  })
  @ApiUuidPath('id', 'the solve')
  @ApiOkResponse({ type: InstanceDto })
  @ApiProblems(401, 404)
  async instance(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<InstanceDoc> {
    return this.solves.instance(p, id);
  }

  @Get(':id/events')
  @ApiOperation({
    operationId: 'followSolve',
    summary: 'The solve as a text/event-stream: a `solve` event (the solve) at each change and at least once a second until it ends, then `end`',
    description: 'The same solve getSolve returns, pushed instead of polled; the stream closes after `end`. A solve that has already ended gets one `solve` event and `end`.',
  })
  @ApiUuidPath('id', 'the solve')
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'event: solve / data: the solve as GET /v1/solves/{id} returns it; event: end once it has ended', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiProblems(401, 404, 429)
  @EventStream()
  async events(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const first = await this.solves.get(p, id); // a 404 before the stream starts
    await streamSolve(req, res, first, () => this.solves.get(p, id));
  }

  @Delete(':id')
  @HttpCode(202)
  @Roles('customer')
  @ApiOperation({
    operationId: 'cancelSolve',
    summary: 'Stop a solve; a running one keeps the best plan found so far',
    description: 'A queued solve ends cancelled at once; a running one stops its search within a moment and stores the best plan found (poll it). One that had already ended is returned unchanged.',
  })
  @ApiUuidPath('id', 'the solve')
  @ApiAcceptedResponse({ type: SolveDto })
  @ApiProblems(401, 403, 404)
  async cancel(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<SolveDto> {
    return toSolveDto(await this.solves.cancel(p, id));
  }
}
