import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { getStrategy, strategyNames } from '../../engine/strategies';
import { MAX_TIME_BUDGET_MS } from '../solves/solve.dto';
import { REPLAN_REFRESH } from '../solves/solve-replan.dto';
import { REPLAN_DEFAULTS } from './replan-defaults';

/** Most explicit frozen assignments one request may give (a plan of 200,000 tasks, FALLOW_MAX_TASKS). */
export const MAX_EXPLICIT_FROZEN = 200_000;

/** A task that has started and must stay: its node, start slot and, optionally, the slots it fetched first. */
export class FrozenAssignmentDto {
  @ApiProperty({ example: 'j1' }) @IsString() job!: string;
  @ApiProperty({ example: 'map' }) @IsString() stage!: string;
  @ApiProperty({ minimum: 0, description: 'the task of the stage, 0-based' }) @IsInt() @Min(0) task!: number;
  @ApiProperty({ example: 'h01' }) @IsString() node!: string;
  @ApiProperty({ minimum: 0, description: "the plan's slot it started in: at most nowSlot" }) @IsInt() @Min(0) start!: number;
  @ApiPropertyOptional({ minimum: 0, description: 'slots it fetched its input before computing (docs/FORMAT.md, Transfers priced in plans); kept as given' })
  @IsOptional()
  @IsInt()
  @Min(0)
  fetchSlots?: number;
}

/**
 * POST /v1/plans/{id}/replan: what changed, or nothing to take what the service knows. Every field is
 * optional; `{}` re-plans the plan from the current time with the cluster as it is now, the execution events
 * reported so far and the plan's own options. The service calls the same with a reason of its own
 * (ReplansService.replan, for the automatic re-plans of lost nodes and missed forecasts).
 */
export class CreateReplanDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      "the slot of the plan's window to re-plan from (every task not frozen starts at or after it); its start is then now for the " +
      'execution events (those after it are not counted). Not with at. Default: the slot the current time falls in. A slot outside ' +
      'the window is a 422',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  nowSlot?: number;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2030-01-01T01:30:00Z',
    description: "the instant taken as now (default: the current time): nowSlot is the slot of the plan's window it falls in, a 422 outside the window; events after it are not counted. Not with nowSlot",
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date-time with a zone, e.g. 2030-01-01T00:00:00Z' })
  at?: string;

  @ApiPropertyOptional({
    default: REPLAN_DEFAULTS.assumeStartedAsPlanned,
    description:
      'a task the plan started before nowSlot that has no execution event (started, finished or killed) by now is taken to have started ' +
      'as planned (the farmer reports late, or not at all) and is frozen where the plan put it; false: it is planned again',
  })
  @IsOptional()
  @IsBoolean()
  assumeStartedAsPlanned?: boolean;

  @ApiPropertyOptional({
    type: [FrozenAssignmentDto],
    description:
      'tasks you know have started, frozen as given (node, start, fetchSlots) whatever the events say; the service adds those the events ' +
      'and assumeStartedAsPlanned give. Problems are named frozen[i].field',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_EXPLICIT_FROZEN)
  @ValidateNested({ each: true })
  @Type(() => FrozenAssignmentDto)
  frozen?: FrozenAssignmentDto[];

  @ApiPropertyOptional({
    enum: REPLAN_REFRESH,
    default: REPLAN_DEFAULTS.refresh,
    description:
      "current: plan on the cluster as it is now (its current version's nodes, lost ones gone and new ones added, and the regular load of " +
      'its newest forecast covering now, from where that forecast starts; the plan\'s own forecast elsewhere, or everywhere when none covers ' +
      "now, with a warning); none: on the plan's instance as its solve assembled it. Either way what other committed plans hold is read now, " +
      "and the jobs, window and safety margin are the plan's",
  })
  @IsOptional()
  @IsIn(REPLAN_REFRESH as unknown as string[])
  refresh?: (typeof REPLAN_REFRESH)[number];

  @ApiPropertyOptional({
    enum: strategyNames(),
    description: `default: the strategy of the plan's solve. ${strategyNames()
      .map((name) => `${name}: ${getStrategy(name).description}`)
      .join('; ')}`,
  })
  @IsOptional()
  @IsIn(strategyNames())
  strategy?: string;

  @ApiPropertyOptional({ minimum: 100, maximum: MAX_TIME_BUDGET_MS, description: "wall-clock budget of the search; default: the plan's solve's" })
  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(MAX_TIME_BUDGET_MS)
  timeBudgetMs?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 2 ** 31 - 1, description: "random seed; default: the plan's solve's" })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2 ** 31 - 1)
  seed?: number;
}
