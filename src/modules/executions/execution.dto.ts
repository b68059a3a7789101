import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { SLA_STATUSES, SlaStatus } from '../accounting/ledger';
import { EVENT_LOCALITIES, EVENT_TYPES, EventType } from './execution-event.entity';
import { MAX_EVENTS_PER_REQUEST } from './event-validation';

/** Documented here; checked field by field by eventIssues, so every problem of every event is reported at once. */
export class ExecutionEventInputDto {
  @ApiProperty({ example: 'w01-42-finished', description: 'the reporter\'s id of the event, unique per tenant: a retry with the same id and content is a duplicate' }) id!: string;
  @ApiProperty({ format: 'uuid' }) solveId!: string;
  @ApiProperty({ example: 'j1', description: 'a job of the solve\'s instance' }) job!: string;
  @ApiProperty({ example: 'map' }) stage!: string;
  @ApiProperty({ example: 0, description: '0-based task index within the stage' }) task!: number;
  @ApiProperty({ example: 'w01', description: 'a node of the solve\'s instance' }) node!: string;
  @ApiProperty({ enum: EVENT_TYPES, description: 'killed: the regular load took the capacity back (an interference incident)' }) type!: EventType;
  @ApiProperty({ format: 'date-time', example: '2030-01-01T10:15:00Z' }) at!: string;
  @ApiPropertyOptional({ maxLength: 2000, example: 'memory pressure from the regular load' }) reason?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, example: 134217728, description: 'bytes the task read (a map\'s block, a reduce\'s share of the map output); the runtime predictors learn rates from it' }) inputBytes?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, example: 67108864, description: 'bytes the task wrote (a map\'s output: its selectivity)' }) outputBytes?: number;
  @ApiPropertyOptional({ enum: EVENT_LOCALITIES, description: 'where a map read its block: on its node, in its rack, or from another rack' }) locality?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'a reduce\'s finished event: when its shuffle ended (not before it started)' }) shuffleEndAt?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'a reduce\'s finished event: when its merge ended (between shuffleEndAt and at)' }) mergeEndAt?: string;
}

export class PostExecutionEventsDto {
  @ApiProperty({ type: [ExecutionEventInputDto], minItems: 1, maxItems: MAX_EVENTS_PER_REQUEST })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_EVENTS_PER_REQUEST)
  events!: unknown[];
}

export class PostExecutionEventsResultDto {
  @ApiProperty({ description: 'events recorded now' }) accepted!: number;
  @ApiProperty({ description: 'events already recorded with the same id and content (nothing changed)' }) duplicates!: number;
}

export class JobExecutionDto {
  @ApiProperty() job!: string;
  @ApiProperty() totalTasks!: number;
  @ApiProperty({ description: 'tasks with a started event' }) startedTasks!: number;
  @ApiProperty({ description: 'tasks with a finished event (also when killed before)' }) finishedTasks!: number;
  @ApiProperty({ description: 'tasks with a killed event' }) killedTasks!: number;
  @ApiProperty({ enum: SLA_STATUSES, description: 'on-time / late once every task has finished; rejected when the plan rejected it and it never ran; pending otherwise' }) sla!: SlaStatus;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'the last finished event, once every task has finished' }) endAt!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'startsAt + deadlineSlot * slotSeconds' }) deadlineAt!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'the plan\'s end of the job' }) plannedEndAt!: string | null;
}

export class SolveExecutionsDto {
  @ApiProperty({ format: 'uuid' }) solveId!: string;
  @ApiProperty({ format: 'date-time' }) startsAt!: string;
  @ApiProperty({ type: [JobExecutionDto] }) jobs!: JobExecutionDto[];
}
