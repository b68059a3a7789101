import { Body, Controller, Get, HttpCode, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiPage } from '../common/api-page';
import { ApiProblems } from '../common/api-problems';
import { pageLimit } from '../common/cursor';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { ClusterEventDto, ClusterEventPageDto, PostClusterEventDto } from './cluster-event.dto';
import { ClusterEventsService, toClusterEventDto } from './cluster-events.service';

/** Nodes lost and back. Thin: ClusterEventsService decides. */
@ApiTags('clusters')
@ApiBearerAuth()
@Controller('v1/clusters/:id/events')
export class ClusterEventsController {
  constructor(private readonly events: ClusterEventsService) {}

  @Post()
  @HttpCode(201)
  @Roles('farmer')
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({
    operationId: 'postClusterEvent',
    summary: 'Report a node taken back by the regular customers (node-lost) or returned (node-back)',
    description:
      'The cluster\'s farmer (or an operator). From at until until, or until a later node-back, every solve, quote and commit on the cluster sees the node ' +
      'as unavailable (its usage 1 on every metric in each slot the loss touches). A node-lost sets off automatic re-planning when the cluster has it on ' +
      '(putClusterReplanning). A 422 names every bad field at once (unknown node, a date that is not one, until not after at, ...) and writes nothing.',
  })
  @ApiUuidPath('id', 'the cluster')
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiCreatedResponse({ type: ClusterEventDto })
  @ApiProblems(400, 401, 403, 404, 413, 422, 429)
  async post(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Body() dto: PostClusterEventDto): Promise<ClusterEventDto> {
    return toClusterEventDto(await this.events.post(p, id, dto));
  }

  @Get()
  @Roles('farmer', 'customer')
  @ApiOperation({
    operationId: 'listClusterEvents',
    summary: "The cluster's node events, newest posted first",
    description: "Seen by whoever sees the cluster's schedule: its farmer and operators, and customers on a lendable cluster (404 for anyone else).",
  })
  @ApiUuidPath('id', 'the cluster')
  @ApiPage('events')
  @ApiOkResponse({ type: ClusterEventPageDto })
  @ApiProblems(400, 401, 403, 404, 422, 429)
  async list(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<ClusterEventPageDto> {
    const page = await this.events.list(p, id, pageLimit(limit), cursor);
    return { items: page.items.map(toClusterEventDto), nextCursor: page.nextCursor };
  }
}
