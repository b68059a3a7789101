import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { pageLimit, PageLimits } from '../common/cursor';
import { ApiPage } from '../common/api-page';
import { ApiProblems } from '../common/api-problems';
import { PlanDto } from '../common/format.dto';
import { AssignmentPageDto } from './plans.dto';
import { PlansService } from './plans.service';

/** A plan's assignments come in larger pages than other listings: they are small rows read in bulk. */
const ASSIGNMENT_PAGE: PageLimits = { fallback: 100, max: 5000 };

/** Plans a solve stored: the whole document, or its assignments a page at a time. Whoever sees the solve sees its plan. */
@ApiTags('plans')
@ApiBearerAuth()
@Controller('v1/plans')
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  @Get(':id')
  @ApiOperation({
    operationId: 'getPlan',
    summary: 'The fallow.plan/v1 document with KPIs, bound, gap and why each rejected job was left out',
    description: 'The whole plan as the solve stored it (docs/FORMAT.md), with its id, solve and creation time. Large plans are easier read a page of assignments at a time (listPlanAssignments).',
  })
  @ApiUuidPath('id', 'the plan (a solve\'s planId)')
  @ApiOkResponse({ type: PlanDto })
  @ApiProblems(401, 404)
  async get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<PlanDto> {
    const plan = await this.plans.get(p, id);
    return { ...(plan.document as unknown as PlanDto), id: plan.id, solveId: plan.solveId, createdAt: plan.createdAt.toISOString() };
  }

  @Get(':id/assignments')
  @ApiOperation({
    operationId: 'listPlanAssignments',
    summary: 'Page through a plan\'s assignments, optionally of one node or one job',
    description: 'Assignments in the order the plan lists them, each with its end slot; node and job narrow the page to one node\'s or one job\'s tasks (both: the job\'s tasks on that node).',
  })
  @ApiUuidPath('id', 'the plan')
  @ApiQuery({ name: 'node', required: false, description: 'only the assignments on this node id (as the instance names it)' })
  @ApiQuery({ name: 'job', required: false, description: 'only the assignments of this job id (as the batch or instance names it)' })
  @ApiPage('assignments', ASSIGNMENT_PAGE)
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
    const page = await this.plans.pageAssignments(p, id, { node, job, cursor, limit: pageLimit(limit, ASSIGNMENT_PAGE) });
    return { items: page.items.map(({ job, stage, task, node, start, end }) => ({ job, stage, task, node, start, end })), nextCursor: page.nextCursor };
  }
}
