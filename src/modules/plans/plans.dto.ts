import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class AssignmentRowDto {
  @ApiProperty() job!: string;
  @ApiProperty() stage!: string;
  @ApiProperty() task!: number;
  @ApiProperty() node!: string;
  @ApiProperty() start!: number;
  @ApiProperty({ description: 'start + duration on that node' }) end!: number;
}

export class AssignmentPageDto {
  @ApiProperty({ type: [AssignmentRowDto] }) items!: AssignmentRowDto[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor!: string | null;
}

class DiffPlaceDto {
  @ApiProperty() node!: string;
  @ApiProperty({ description: "start slot, in the slots of the plan diffed (the {id} plan's window)" }) start!: number;
  @ApiProperty({ description: 'end slot: start + its duration on that node (+ fetchSlots in a priced plan)' }) end!: number;
}

class DiffTaskDto {
  @ApiProperty() job!: string;
  @ApiProperty() stage!: string;
  @ApiProperty() task!: number;
}

class PlacedTaskDto extends DiffTaskDto {
  @ApiProperty() node!: string;
  @ApiProperty() start!: number;
  @ApiProperty() end!: number;
}

class MovedTaskDto extends DiffTaskDto {
  @ApiProperty({ type: DiffPlaceDto, description: 'in the plan diffed against' }) before!: DiffPlaceDto;
  @ApiProperty({ type: DiffPlaceDto, description: 'in this plan' }) after!: DiffPlaceDto;
}

class JobStateDto {
  @ApiProperty({ description: 'run (every task planned) or rejected' }) accepted!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: "the end of its last task; null when rejected" }) endSlot!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'what it earns (onTime by its deadline, else late; 0 rejected); null without a revenue function' }) revenue!: number | null;
}

class JobChangeDto {
  @ApiProperty() job!: string;
  @ApiProperty({ type: JobStateDto, nullable: true, description: 'in the plan diffed against; null: not its job' }) before!: JobStateDto | null;
  @ApiProperty({ type: JobStateDto, nullable: true, description: 'in this plan; null: not its job' }) after!: JobStateDto | null;
  @ApiProperty({ type: Number, nullable: true, description: 'after.endSlot - before.endSlot (positive: later) when it runs in both' }) endChange!: number | null;
}

class DiffCountsDto {
  @ApiProperty({ description: 'tasks of both plans on another node or at another start' }) moved!: number;
  @ApiProperty({ description: 'tasks this plan runs and the other does not' }) added!: number;
  @ApiProperty({ description: 'tasks the other plan runs and this one does not (their job rejected, or not in this plan)' }) dropped!: number;
  @ApiProperty({ description: 'tasks of both plans where they were' }) kept!: number;
  @ApiProperty({ description: 'jobs whose acceptance, end or revenue differ' }) jobsChanged!: number;
}

class DiffTotalsDto {
  @ApiProperty() before!: number;
  @ApiProperty() after!: number;
}

class DiffRevenueDto extends DiffTotalsDto {
  @ApiProperty({ description: 'after - before' }) change!: number;
}

/** GET /v1/plans/{id}/diff?against=: what changed from the plan `against` to the plan `id`. */
export class PlanDiffDto {
  @ApiProperty({ format: 'uuid', description: 'the plan diffed (after)' }) planId!: string;
  @ApiProperty({ format: 'uuid', description: 'the plan it is diffed against (before)' }) against!: string;
  @ApiProperty({ description: "slots of the plan against are read in this plan's slots: its slot t is this plan's t + offsetSlots (0 for the versions of one plan)" }) offsetSlots!: number;
  @ApiProperty({ type: DiffCountsDto, description: 'whole counts, whatever limit lists' }) counts!: DiffCountsDto;
  @ApiProperty({ type: [MovedTaskDto] }) moved!: MovedTaskDto[];
  @ApiProperty({ type: [PlacedTaskDto] }) added!: PlacedTaskDto[];
  @ApiProperty({ type: [PlacedTaskDto] }) dropped!: PlacedTaskDto[];
  @ApiProperty({ type: [JobChangeDto], description: 'the jobs whose acceptance, end or revenue changed' }) jobs!: JobChangeDto[];
  @ApiProperty({ type: DiffTotalsDto, description: 'makespan in slots' }) makespan!: DiffTotalsDto;
  @ApiProperty({ type: DiffRevenueDto, nullable: true, description: "the jobs' total revenue; null when no job of either plan has a revenue function" }) revenue!: DiffRevenueDto | null;
  @ApiProperty({ description: 'whether moved, added, dropped or jobs were cut at limit entries each' }) truncated!: boolean;
}
