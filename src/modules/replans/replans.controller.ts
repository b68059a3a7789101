import { Body, Controller, HttpCode, Param, Post, Res, UseInterceptors } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { IdempotencyInterceptor } from '../common/idempotency.interceptor';
import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { SolveDto } from '../solves/solve.dto';
import { toSolveDto } from '../solves/solves.service';
import { CreateReplanDto } from './replan.dto';
import { ReplansService } from './replans.service';

/** Re-planning a running plan: long work like a solve, whose plan supersedes the plan re-planned. */
@ApiTags('plans')
@ApiBearerAuth()
@Controller('v1/plans')
export class ReplansController {
  constructor(private readonly replans: ReplansService) {}

  @Post(':id/replan')
  @HttpCode(202)
  @Roles('customer')
  @UseInterceptors(IdempotencyInterceptor)
  @ApiOperation({
    operationId: 'replanPlan',
    summary: 'Re-plan a running plan from now: what has started stays, the rest is planned again',
    description:
      "Queues a solve of kind replan (the plan's customer, or an operator). Its instance is the plan's (jobs, window, safety margin) on the " +
      'cluster as it is now (refresh), around what other committed plans hold now, with `frozen`: the tasks that started by now according ' +
      "to the execution events reported on the plan's solves (started and finished tasks stay where they ran; killed ones, and those on nodes " +
      'the cluster no longer has, are planned again), those the plan started before now with no event (assumeStartedAsPlanned), and those the ' +
      'request gives. It runs as a solve does (getSolve, followSolve; cancelSolve keeps the best plan), with the plan as a hint (tasks stay ' +
      "where they were unless moving them improves the objective), and ends with a new plan that supersedes this one (both kept; diffPlan " +
      "compares them). When this plan is committed its commitment moves to the new one in the transaction that stores it, unless the new one " +
      'no longer fits what others hold: then it stays proposed, this one committed, and the solve\'s replan.commitment says why. A plan ' +
      'superseded, released or being re-planned is a 409; a now outside its window, a 422.',
  })
  @ApiUuidPath('id', 'the plan to re-plan (its newest version)')
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'a retry with the same key returns the first response' })
  @ApiAcceptedResponse({ type: SolveDto, description: 'queued; Location names the solve (kind replan)' })
  @ApiProblems(400, 401, 403, 404, 409, 413, 422, 429)
  async replan(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Body() dto: CreateReplanDto, @Res({ passthrough: true }) res: Response): Promise<SolveDto> {
    const solve = await this.replans.replan(id, p, dto);
    res.location(`/v1/solves/${solve.id}`);
    return toSolveDto(solve);
  }
}
