import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { CLUSTER_EVENT_TYPES, ClusterEventType } from '../../engine/commitments/node-loss';
import type { Issue } from '../../engine/model/types';
import { clusterEventIssues, MAX_REASON_LENGTH } from './event-issues';

/* The fields are checked by clusterEventIssues (ClusterEventsService.post), against the cluster's nodes, so that every problem is named at once. */

export class PostClusterEventDto {
  @ApiProperty({ enum: CLUSTER_EVENT_TYPES, description: 'node-lost: the regular customers took the node back (nothing of it can be lent); node-back: it is lendable again' })
  @Allow()
  type!: ClusterEventType;

  @ApiProperty({ example: 'h01', description: "a node of the cluster's current version" })
  @Allow()
  node!: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2030-01-01T10:15:00Z', description: 'when it happened (or will, up to FALLOW_EVENT_MAX_AHEAD_SECONDS ahead); default: now' })
  @Allow()
  at?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'node-lost only: when the node is expected back (after at); without it the node stays lost until a node-back event' })
  @Allow()
  until?: string;

  @ApiPropertyOptional({ maxLength: MAX_REASON_LENGTH, example: 'the regular customer needs it for its nightly batch' })
  @Allow()
  reason?: string;

  /** The problems the service would find besides an unknown field (DeepChecked): the node is checked by the service. */
  static deepIssues(body: Record<string, unknown>): Issue[] {
    return clusterEventIssues(body, null, { from: new Date(-8.64e15), to: new Date(8.64e15) }, new Date()).issues;
  }
}

export class ClusterEventDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ enum: CLUSTER_EVENT_TYPES }) type!: ClusterEventType;
  @ApiProperty() node!: string;
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'node-lost: when the node is expected back; null: until a node-back event' }) until!: string | null;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', description: 'when it was posted' }) createdAt!: string;
}

export class ClusterEventPageDto {
  @ApiProperty({ type: [ClusterEventDto] }) items!: ClusterEventDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'pass as ?cursor= for the next page' }) nextCursor!: string | null;
}
