import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { pageLimit, PageLimits } from '../common/cursor';
import { ApiPage } from '../common/api-page';
import { ApiProblems } from '../common/api-problems';
import { PlanDto, PlanSummaryDto } from '../common/format.dto';
import { AssignmentPageDto, PlanDiffDto } from './plans.dto';
import { PlansService, toPlanDto, toPlanSummaryDto } from './plans.service';
import { PlanCommitmentService } from './plan-commitment.service';
import { PlanDiffService } from './plan-diff.service';

/** A diff's lists (moved, added, dropped, jobs): at most this many entries each. */
const DIFF_LIST: PageLimits = { fallback: 1000, max: 10000 };

/** A plan's assignments come in larger pages than other listings: they are small rows read in bulk. */
const ASSIGNMENT_PAGE: PageLimits = { fallback: 100, max: 5000 };

/** Plans a solve stored: the whole document, or its assignments a page at a time. Whoever sees the solve sees its plan. */
@ApiTags('plans')
@ApiBearerAuth()
@Controller('v1/plans')
export class PlansController {
  constructor(
    private readonly plans: PlansService,
    private readonly commitment: PlanCommitmentService,
    private readonly diffs: PlanDiffService,
  ) {}

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
    return toPlanDto(await this.plans.get(p, id));
  }

  @Get(':id/summary')
  @ApiOperation({
    operationId: 'getPlanSummary',
    summary: 'The plan without its assignments and placement: KPIs, bound, gap, rejections, and how many assignments it has',
    description:
      "getPlan's document less its two large lists (a 100,000-task plan's are about 17 MB of JSON; this is under 100 kB, most of it the KPIs of each job), with assignmentCount; " +
      'read the assignments a page at a time (listPlanAssignments). The plan page reads this.',
  })
  @ApiUuidPath('id', 'the plan (a solve\'s planId)')
  @ApiOkResponse({ type: PlanSummaryDto })
  @ApiProblems(401, 404)
  async summary(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<PlanSummaryDto> {
    const { plan, assignments } = await this.plans.summary(p, id);
    return toPlanSummaryDto(plan, assignments);
  }

  @Post(':id/commit')
  @HttpCode(200)
  @Roles('customer')
  @ApiOperation({
    operationId: 'commitPlan',
    summary: 'Commit a proposed plan: its tasks hold their capacity on the cluster',
    description:
      "Checks the plan against what is free now (the cluster's current version and forecast, less the safety margin, less every other " +
      'committed plan) and commits it, one commit at a time per cluster. A plan that no longer fits is a 409 whose conflicts name the ' +
      'node, metric (or tasks), slot and excess, and nothing changes: solve again. Committing a committed plan changes nothing. A ' +
      "re-plan's plan whose previous version (supersedes) is committed takes that commitment over: the previous version is released " +
      'in the same transaction, its tasks held once; the tasks the re-plan froze are not refused as late.',
  })
  @ApiUuidPath('id', 'the plan')
  @ApiOkResponse({ type: PlanDto, description: 'the plan, committed' })
  @ApiProblems(401, 403, 404, 409)
  async commit(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<PlanDto> {
    return toPlanDto(await this.commitment.commit(p, id));
  }

  @Post(':id/release')
  @HttpCode(200)
  @Roles('customer')
  @ApiOperation({
    operationId: 'releasePlan',
    summary: "Release a committed plan: its capacity goes back to the cluster and its figures leave the accounts",
    description: 'Only a committed plan can be released (409 otherwise); releasing a released plan changes nothing.',
  })
  @ApiUuidPath('id', 'the plan')
  @ApiOkResponse({ type: PlanDto, description: 'the plan, released' })
  @ApiProblems(401, 403, 404, 409)
  async release(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string): Promise<PlanDto> {
    return toPlanDto(await this.commitment.release(p, id));
  }

  @Get(':id/diff')
  @ApiOperation({
    operationId: 'diffPlan',
    summary: 'What changed from another plan to this one: moved, added and dropped tasks, job ends, revenue',
    description:
      "against: a plan of the same cluster you can see (a re-plan's previous version is its supersedes), or a version of the same plan of an " +
      "inline instance; its slots are read in this plan's (offsetSlots). Tasks are named job/stage/task; a task of both plans is moved when its " +
      'node or start differs, kept otherwise. Each list holds at most limit entries (default 1000, at most 10000); the counts are whole. ' +
      'A missing or unusable against is a 422 naming query:against.',
  })
  @ApiUuidPath('id', 'the plan (after)')
  @ApiQuery({ name: 'against', required: true, description: 'the plan to compare with (before), e.g. this plan\'s supersedes' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: DIFF_LIST.max, default: DIFF_LIST.fallback }, description: 'most entries in each list' })
  @ApiOkResponse({ type: PlanDiffDto })
  @ApiProblems(401, 404, 422)
  async diff(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Query('against') against?: string, @Query('limit') limit?: string): Promise<PlanDiffDto> {
    return this.diffs.diff(p, id, against, pageLimit(limit, DIFF_LIST));
  }

  @Get(':id/assignments')
  @ApiOperation({
    operationId: 'listPlanAssignments',
    summary: 'Page through a plan\'s assignments, optionally of one node, one job or one window of slots',
    description:
      'Assignments with their end slot, in the order the plan lists them (order=plan) or by start slot (order=start, ties in plan order). ' +
      'node and job narrow the page to one node\'s or one job\'s tasks (both: the job\'s tasks on that node); from and to to the tasks ' +
      'running in some slot of [from, to) (end > from and start < to), so node=h01&from=120&to=140&order=start is what h01 runs in those ' +
      'slots, in time order. A 100,000-task plan is read 5,000 assignments a page (bench/SERVICE-SCALE.md). A node or job the plan does ' +
      'not have, a slot that is not a whole number, to not after from, or a cursor of the other order is a 422 naming the parameter.',
  })
  @ApiUuidPath('id', 'the plan')
  @ApiQuery({ name: 'node', required: false, description: 'only the assignments on this node id (as the instance names it)' })
  @ApiQuery({ name: 'job', required: false, description: 'only the assignments of this job id (as the batch or instance names it)' })
  @ApiQuery({ name: 'from', required: false, schema: { type: 'integer', minimum: 0 }, description: 'only the assignments still running at this slot or later (end > from)' })
  @ApiQuery({ name: 'to', required: false, schema: { type: 'integer', minimum: 1 }, description: 'only the assignments starting before this slot (start < to); after from when both are given' })
  @ApiQuery({ name: 'order', required: false, schema: { type: 'string', enum: ['plan', 'start'], default: 'plan' }, description: 'plan: the order the plan lists them; start: by start slot, ties in plan order' })
  @ApiPage('assignments', ASSIGNMENT_PAGE)
  @ApiOkResponse({ type: AssignmentPageDto })
  @ApiProblems(401, 404, 422)
  async assignments(
    @CurrentPrincipal() p: Principal,
    @Param('id', UuidParam) id: string,
    @Query('node') node?: string,
    @Query('job') job?: string,
    @Query('from') from?: string,
    @Query('to') to?: string,
    @Query('order') order?: string,
    @Query('cursor') cursor?: string,
    @Query('limit') limit?: string,
  ): Promise<AssignmentPageDto> {
    const page = await this.plans.pageAssignments(p, id, { node, job, from, to, order, cursor, limit: pageLimit(limit, ASSIGNMENT_PAGE) });
    return { items: page.items.map(({ job, stage, task, node, start, end }) => ({ job, stage, task, node, start, end })), nextCursor: page.nextCursor };
  }
}
