import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { PlanWindowDto } from '../common/format.dto';

const series = (description: string) => ({ type: 'array', items: { type: 'number', minimum: 0 }, description }) as const;

export class ScheduleMetricDto {
  @ApiProperty({ minimum: 0 }) capacity!: number;
  @ApiProperty(series('per slot, capacity x the forecast\'s utilisation: the regular customers\' load (0 without a forecast, and past its end)')) regular!: number[];
  @ApiProperty(series('per slot, what committed plans hold (a task counts in every slot it overlaps); more than is left when the cluster shrank after the commits')) reserved!: number[];
  @ApiProperty(series('per slot, max(0, capacity - regular - reserved)')) free!: number[];
}

export class ScheduleTaskSlotsDto {
  @ApiProperty({ type: 'integer', minimum: 0 }) maxTasks!: number;
  @ApiProperty(series('per slot, task slots committed tasks hold (at most maxTasks)')) reserved!: number[];
  @ApiProperty(series('per slot, maxTasks - reserved')) free!: number[];
}

const metricMap = (description: string) => ({ type: 'object', additionalProperties: { $ref: getSchemaPath(ScheduleMetricDto) }, description }) as const;

export class ScheduleNodeDto {
  @ApiProperty() id!: string;
  @ApiProperty(metricMap('metric -> its capacity, regular load, reserved and free per slot')) metrics!: Record<string, ScheduleMetricDto>;
  @ApiProperty({ type: ScheduleTaskSlotsDto, nullable: true, description: 'the node\'s task slots; null when it has no maxTasks' }) tasks!: ScheduleTaskSlotsDto | null;
}

export class ScheduleTotalsDto {
  @ApiProperty(metricMap('metric -> the nodes\' figures summed (free: the sum of each node\'s free)')) metrics!: Record<string, ScheduleMetricDto>;
  @ApiProperty({ type: ScheduleTaskSlotsDto, nullable: true, description: 'the task slots of the nodes with maxTasks, summed; null when none has any' }) tasks!: ScheduleTaskSlotsDto | null;
}

export class ScheduleForecastDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time', description: 'the forecast\'s slot 0' }) startsAt!: string;
  @ApiProperty({ format: 'date-time' }) endsAt!: string;
  @ApiProperty({ type: 'integer', description: 'the schedule\'s slots [0, slots) lie inside the forecast; past them the regular load counts as 0' }) slots!: number;
}

export class SchedulePlanDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'the customer (tenant) whose plan it is' }) customerId!: string;
  @ApiProperty({ enum: ['committed', 'completed'] }) status!: 'committed' | 'completed';
  @ApiProperty({ type: PlanWindowDto }) window!: PlanWindowDto;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) committedAt!: string | null;
  @ApiProperty({ format: 'date-time', description: 'when its last task ends' }) endsAt!: string;
  @ApiProperty({ description: 'committed beyond its customer\'s quota: a customer within its quota may take the capacity back (the plan is then released)' }) borrowing!: boolean;
  @ApiProperty({ type: 'integer', description: 'tasks it holds on the cluster' }) tasks!: number;
  @ApiProperty({ type: 'integer', description: 'of those, the tasks overlapping the schedule\'s window (listed in tasks)' }) tasksInWindow!: number;
}

export class ScheduleTaskDto {
  @ApiProperty({ format: 'uuid' }) planId!: string;
  @ApiProperty() job!: string;
  @ApiProperty() node!: string;
  @ApiProperty({ format: 'date-time' }) from!: string;
  @ApiProperty({ format: 'date-time', description: 'exclusive' }) to!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, description: 'metric -> what the task holds (and one task slot on a node with maxTasks)' }) demand!: Record<string, number>;
}

/** GET /v1/clusters/{id}/schedule. */
export class ClusterScheduleDto {
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ type: 'integer', description: 'the cluster\'s current version: its nodes and capacities are the ones shown' }) clusterVersion!: number;
  @ApiProperty({
    enum: ['cluster', 'customer'],
    description: 'cluster: every committed plan and task (the cluster\'s farmer, operators); customer: only the caller\'s own plans and tasks, while nodes and totals count every customer\'s, anonymously',
  })
  view!: 'cluster' | 'customer';
  @ApiProperty({ format: 'date-time', description: 'slot 0 of the schedule: from, floored to the forecast\'s slot grid' }) from!: string;
  @ApiProperty({ format: 'date-time', description: 'the end of the last slot (from + slots x slotSeconds)' }) to!: string;
  @ApiProperty({ description: 'the forecast\'s slot length, else 3600' }) slotSeconds!: number;
  @ApiProperty({ type: 'integer' }) slots!: number;
  @ApiProperty({ type: ScheduleForecastDto, nullable: true, description: 'the cluster version\'s newest forecast covering from, whose utilisation is the regular load; null when none does' }) forecast!: ScheduleForecastDto | null;
  @ApiProperty({ type: [String] }) metrics!: string[];
  @ApiProperty({ type: [SchedulePlanDto], description: 'committed (or completed) plans with a task in the window, first-starting first' }) plans!: SchedulePlanDto[];
  @ApiProperty({ type: [ScheduleTaskDto], description: 'their tasks overlapping the window, by start' }) tasks!: ScheduleTaskDto[];
  @ApiProperty({ type: [ScheduleNodeDto] }) nodes!: ScheduleNodeDto[];
  @ApiProperty({ type: ScheduleTotalsDto }) totals!: ScheduleTotalsDto;
}
