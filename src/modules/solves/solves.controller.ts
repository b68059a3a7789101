import { UuidParam } from '../common/uuid-param';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { EventStream } from '../auth/stream-slots';
import { pageLimit } from '../common/cursor';
import { ApiProblems } from '../common/api-problems';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { CreateSolveDto, SolveDto, SolvePageDto } from './solve.dto';
import { SolvesService, toSolveDto } from './solves.service';
import { streamSolve } from './solve-events';

@ApiTags('solves')
@ApiBearerAuth()
@Controller('v1/solves')
export class SolvesController {
  constructor(private readonly solves: SolvesService) {}

  @Post()
  @HttpCode(202)
  @Roles('customer')
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({ operationId: 'createSolve', summary: 'Queue a solve of a whole instance, or of a cluster + forecast + batch' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiAcceptedResponse({ type: SolveDto, description: 'queued; Location names the solve' })
  @ApiProblems(400, 401, 403, 404, 413, 422, 429)
  async create(@CurrentPrincipal() p: Principal, @Body() dto: CreateSolveDto, @Res({ passthrough: true }) res: Response): Promise<SolveDto> {
    const solve = await this.solves.create(p, dto);
    res.location(`/v1/solves/${solve.id}`);
    return toSolveDto(solve);
  }

  @Get()
  @ApiOperation({ operationId: 'listSolves', summary: 'Solves, newest first' })
  @ApiQuery({ name: 'status', required: false, enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiOkResponse({ type: SolvePageDto })
  @ApiProblems(401, 422)
  async list(@CurrentPrincipal() p: Principal, @Query('status') status?: string, @Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<SolvePageDto> {
    const page = await this.solves.list(p, pageLimit(limit), cursor, status);
    return { items: page.items.map(toSolveDto), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getSolve', summary: 'Status, progress (best objective so far) and, when done, the plan id' })
  @ApiOkResponse({ type: SolveDto })
  @ApiProblems(401, 404)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<SolveDto> {
    return toSolveDto(await this.solves.get(p, id));
  }

  @Get(':id/events')
  @ApiOperation({
    operationId: 'followSolve',
    summary: 'The solve as a text/event-stream: a `solve` event (the solve) at each change and at least once a second until it ends, then `end`',
  })
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
  @ApiOperation({ operationId: 'cancelSolve', summary: 'Stop a solve; a running one keeps the best plan found so far' })
  @ApiAcceptedResponse({ type: SolveDto })
  @ApiProblems(401, 403, 404)
  async cancel(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<SolveDto> {
    return toSolveDto(await this.solves.cancel(p, id));
  }
}
