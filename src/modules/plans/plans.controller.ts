import { UuidParam } from '../common/uuid-param';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { pageLimit } from '../common/cursor';
import { ApiProblems } from '../common/api-problems';
import { PlanDto } from '../common/format.dto';
import { AssignmentPageDto } from './plans.dto';
import { PlansService } from './plans.service';

@ApiTags('plans')
@ApiBearerAuth()
@Controller('v1/plans')
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  @Get(':id')
  @ApiOperation({ operationId: 'getPlan', summary: 'The fallow.plan/v1 document with KPIs, bound, gap and why each rejected job was left out' })
  @ApiOkResponse({ type: PlanDto })
  @ApiProblems(401, 404)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<PlanDto> {
    const plan = await this.plans.get(p, id);
    return { ...(plan.document as unknown as PlanDto), id: plan.id, solveId: plan.solveId, createdAt: plan.createdAt.toISOString() };
  }

  @Get(':id/assignments')
  @ApiOperation({ operationId: 'listPlanAssignments', summary: 'Page through a plan\'s assignments, optionally of one node or one job' })
  @ApiQuery({ name: 'node', required: false })
  @ApiQuery({ name: 'job', required: false })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiOkResponse({ type: AssignmentPageDto })
  @ApiProblems(401, 404, 422)
  async assignments(
    @CurrentPrincipal() p: Principal,
    @Param('id', UuidParam) id: string,
    @Query('node') node?: string,
    @Query('job') job?: string,
    @Query('cursor') cursor?: string,
    @Query('limit') limit?: string,
  ): Promise<AssignmentPageDto> {
    const page = await this.plans.pageAssignments(p, id, { node, job, cursor, limit: pageLimit(limit, 100, 5000) });
    return { items: page.items.map(({ job, stage, task, node, start, end }) => ({ job, stage, task, node, start, end })), nextCursor: page.nextCursor };
  }
}
