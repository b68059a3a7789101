import { applyDecorators, Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { SCHEDULE_CHARTS } from '../../charts/charts';
import { MAX_SCHEDULE_SLOTS } from '../../engine/commitments/schedule';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ApiProblems } from '../common/api-problems';
import { ApiChart, sendChart } from '../common/chart-response';
import { ApiUuidPath, UuidParam } from '../common/uuid-param';
import { ClusterScheduleDto, ScheduleMetricDto } from './schedule.dto';
import { ScheduleService } from './schedule.service';

/** The window both routes take. */
const ApiWindow = () =>
  applyDecorators(
    ApiQuery({
      name: 'from',
      required: false,
      description: 'ISO 8601 date-time, default now; floored to the slot grid of the cluster version\'s newest forecast covering it (without one: hourly slots from from itself)',
      example: '2030-05-01T00:00:00Z',
    }),
    ApiQuery({
      name: 'to',
      required: false,
      description: `exclusive ISO 8601 date-time after from; default the forecast's end (without one: from + 24 h); at most ${MAX_SCHEDULE_SLOTS} slots`,
    }),
  );

const WHO =
  'The cluster\'s farmer and operators see every committed plan and task; a customer (any, on a lendable cluster: it may solve there) ' +
  'sees only its own plans and tasks, and the capacity figures, which count every customer\'s without saying whose. 404 for anyone else.';

/** A cluster's schedule: committed plans, what they reserve, what is free. Thin: ScheduleService decides. */
@ApiTags('clusters')
@ApiBearerAuth()
@ApiExtraModels(ScheduleMetricDto)
@Roles('farmer', 'customer')
@Controller('v1/clusters')
export class ScheduleController {
  constructor(private readonly schedule: ScheduleService) {}

  @Get(':id/schedule')
  @ApiOperation({
    operationId: 'getClusterSchedule',
    summary: 'The cluster\'s schedule over a window: committed plans, per node, metric and slot the capacity, regular load, reserved and free',
    description:
      'On the cluster\'s current version: per node and metric its capacity, the regular customers\' forecast load (capacity x utilisation; 0 without a forecast ' +
      'and past its end), what committed plans hold (a task counts in every slot it overlaps) and what is free (never below 0); task slots for nodes with maxTasks; ' +
      'the same summed over the nodes. ' + WHO + ' A bad from or to, to not after from, or too many slots is a 422 naming query:from / query:to.',
  })
  @ApiUuidPath('id', 'the cluster')
  @ApiWindow()
  @ApiOkResponse({ type: ClusterScheduleDto })
  @ApiProblems(400, 401, 403, 404, 422, 429)
  get(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Query() q: Record<string, unknown>): Promise<ClusterScheduleDto> {
    return this.schedule.schedule(p, id, q);
  }

  @Get(':id/schedule/charts/:file')
  @ApiOperation({
    operationId: 'getClusterScheduleChart',
    summary: 'The cluster\'s schedule as a chart: per metric over time, regular load, reserved and free stacked, the capacity dashed',
    description: 'The totals of getClusterSchedule (same window and visibility; no customer is named), summed over the nodes, task slots too: SVG (file .svg) or its Vega-Lite spec (file .json).',
  })
  @ApiUuidPath('id', 'the cluster')
  @ApiChart(SCHEDULE_CHARTS)
  @ApiWindow()
  @ApiProblems(400, 401, 403, 404, 422, 429)
  async chart(@CurrentPrincipal() p: Principal, @Param('id', UuidParam) id: string, @Param('file') file: string, @Query() q: Record<string, unknown>, @Res({ passthrough: true }) res: Response) {
    return sendChart(res, await this.schedule.chart(p, id, file, q));
  }
}
