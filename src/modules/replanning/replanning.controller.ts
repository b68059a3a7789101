import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiPage } from '../common/api-page';
import { ApiProblems } from '../common/api-problems';
import { pageLimit } from '../common/cursor';
import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { AutoReplanPageDto, PutReplanningDto, ReplanningDto } from './replanning.dto';
import { ReplanningService } from './replanning.service';

/** A cluster's automatic re-planning: its farmer or an operator sets it and reads what it requested. Thin: ReplanningService decides. */
@ApiTags('clusters')
@ApiBearerAuth()
@Roles('farmer')
@Controller('v1/clusters/:id/replanning')
export class ReplanningController {
  constructor(private readonly replanning: ReplanningService) {}

  @Put()
  @ApiOperation({
    operationId: 'putClusterReplanning',
    summary: "Turn automatic re-planning of the cluster's running plans on or off, and say on what",
    description:
      'Replaces the settings whole (fields left out take their defaults). When a trigger of on fires, each running plan it concerns is re-planned ' +
      '(a re-plan request, then a re-plan solve), at most once per minIntervalSeconds per plan: on a node-lost event, the committed plans with a task on ' +
      'the node during the loss; on a killed task, its plan; on usage posted, each plan whose window has started, against the forecast it was made on. ' +
      'A 422 names every bad field at once and writes nothing.',
  })
  @ApiUuidPath('id', 'the cluster')
  @ApiOkResponse({ type: ReplanningDto })
  @ApiProblems(400, 401, 403, 404, 422, 429)
  async put(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Body() dto: PutReplanningDto): Promise<ReplanningDto> {
    return this.replanning.put(p, id, dto);
  }

  @Get()
  @ApiOperation({ operationId: 'getClusterReplanning', summary: "The cluster's automatic re-planning settings", description: 'The defaults (off) with updatedAt null until set.' })
  @ApiUuidPath('id', 'the cluster')
  @ApiOkResponse({ type: ReplanningDto })
  @ApiProblems(400, 401, 403, 404, 429)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<ReplanningDto> {
    return this.replanning.get(p, id);
  }

  @Get('requests')
  @ApiOperation({
    operationId: 'listAutoReplans',
    summary: 'The automatic re-plans requested on the cluster, newest first',
    description: 'Each names the plan, the trigger and what fired (reason, detail), and where it is: requested, queued (its solveId) or failed (error).',
  })
  @ApiUuidPath('id', 'the cluster')
  @ApiPage('requests')
  @ApiOkResponse({ type: AutoReplanPageDto })
  @ApiProblems(400, 401, 403, 404, 422, 429)
  async requests(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Query('cursor') cursor?: string, @Query('limit') limit?: string): Promise<AutoReplanPageDto> {
    return this.replanning.requests(p, id, pageLimit(limit), cursor);
  }
}
