import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import type { Issue } from '../../engine/model/types';
import { AUTO_REPLAN_STATUSES, AutoReplanStatus, REPLAN_TRIGGERS, ReplanTriggerKind } from './replanning.entity';
import { MAX_MIN_INTERVAL_SECONDS, MAX_MISS_WINDOW_SECONDS, MIN_MISS_WINDOW_SECONDS, REPLANNING_DEFAULTS, settingsIssues } from './settings-issues';

const d = REPLANNING_DEFAULTS;
const MISS =
  'the mean, over the node-metric-slots of the last forecastMissWindowSeconds before the newest usage sample posted, of |the largest sample ' +
  "posted in the slot - the value the plan's forecast gave that slot| (fractions of capacity; a plan made on idle nodes was forecast 0)";

/* The fields are checked by settingsIssues (ReplanningService.put), so that every problem is named at once. */

export class PutReplanningDto {
  @ApiProperty({ description: "re-plan the cluster's running plans automatically when a trigger of on fires" })
  @Allow()
  enabled!: boolean;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...REPLAN_TRIGGERS] },
    default: d.on,
    description: 'node-lost: a node-lost event posted (the plans with a task on the node during the loss); task-killed: an execution event reports a task of the plan killed; forecast-miss: posted usage shows the forecast the plan was made on missing by more than forecastMissThreshold',
  })
  @Allow()
  on?: ReplanTriggerKind[];

  @ApiPropertyOptional({ minimum: 0, maximum: 1, default: d.forecastMissThreshold, description: `forecast-miss fires when the miss is above it: ${MISS}` })
  @Allow()
  forecastMissThreshold?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: MIN_MISS_WINDOW_SECONDS, maximum: MAX_MISS_WINDOW_SECONDS, default: d.forecastMissWindowSeconds, description: 'how far back from the newest sample posted the miss is measured (usage posted older than that, a back-fill, sets off nothing)' })
  @Allow()
  forecastMissWindowSeconds?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_MIN_INTERVAL_SECONDS, default: d.minIntervalSeconds, description: 'least time between two automatic re-plans of one plan: triggers within it request nothing, whichever API process they reach' })
  @Allow()
  minIntervalSeconds?: number;

  /** The problems the service would find besides an unknown field (DeepChecked). */
  static deepIssues(body: Record<string, unknown>): Issue[] {
    return settingsIssues(body).issues;
  }
}

export class ReplanningDto {
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...REPLAN_TRIGGERS] } }) on!: ReplanTriggerKind[];
  @ApiProperty() forecastMissThreshold!: number;
  @ApiProperty({ type: 'integer' }) forecastMissWindowSeconds!: number;
  @ApiProperty({ type: 'integer' }) minIntervalSeconds!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null: never set (the defaults, automatic re-planning off)' }) updatedAt!: string | null;
}

export class AutoReplanDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ format: 'uuid', description: 'the running plan re-planned' }) planId!: string;
  @ApiProperty({ enum: REPLAN_TRIGGERS }) trigger!: ReplanTriggerKind;
  @ApiProperty({ description: 'what fired, in words' }) reason!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'what fired: node-lost {eventId, node, from, until}; task-killed {killed: [{solveId, job, stage, task, node, at}]}; forecast-miss {forecastId, miss, slots, from, to, threshold}' })
  detail!: Record<string, unknown>;
  @ApiProperty({ enum: AUTO_REPLAN_STATUSES, description: 'requested: recorded, not handed on yet; queued: the re-plan (solveId) is queued; failed: the re-planning service refused it (error)' })
  status!: AutoReplanStatus;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "the re-plan's solve" }) solveId!: string | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) requestedAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: string;
}

export class AutoReplanPageDto {
  @ApiProperty({ type: [AutoReplanDto] }) items!: AutoReplanDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'pass as ?cursor= for the next page' }) nextCursor!: string | null;
}
