import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { PostExecutionEventsDto, PostExecutionEventsResultDto, SolveExecutionsDto } from './execution.dto';
import { ExecutionsService } from './executions.service';

@ApiTags('executions')
@ApiBearerAuth()
@Controller('v1')
export class ExecutionsController {
  constructor(private readonly executions: ExecutionsService) {}

  @Post('executions/events')
  @HttpCode(200)
  @Roles('farmer', 'customer')
  @ApiOperation({
    operationId: 'postExecutionEvents',
    summary: 'Report what actually happened to planned tasks (started, finished, killed)',
    description:
      'The farmer owning the solve\'s cluster reports (or the customer of a solve of a whole instance, or an operator). ' +
      'Idempotent by event id: a repeated event counts as a duplicate and changes nothing. Every event is checked ' +
      'against the solve\'s instance first; any problem (422, each at events[i].field) or any id already recorded ' +
      'with different content (409) rejects the whole request and nothing is written.',
  })
  @ApiOkResponse({ type: PostExecutionEventsResultDto })
  @ApiProblems(401, 403, 409, 413, 422)
  async post(@CurrentPrincipal() p: Principal, @Body() dto: PostExecutionEventsDto): Promise<PostExecutionEventsResultDto> {
    return this.executions.record(p, dto.events);
  }

  @Get('solves/:id/executions')
  @ApiOperation({ operationId: 'getSolveExecutions', summary: 'Per job of a solve: tasks started, finished and killed, actual end and whether it was on time', description: 'Built from the execution events posted for the solve\'s plan (postExecutionEvents); accounting\'s actual basis reads the same.' })
  @ApiUuidPath('id', 'the solve')
  @ApiOkResponse({ type: SolveExecutionsDto })
  @ApiProblems(401, 404)
  async ofSolve(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<SolveExecutionsDto> {
    return this.executions.ofSolve(p, id);
  }
}
