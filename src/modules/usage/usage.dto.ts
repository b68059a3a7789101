import { ApiProperty } from '@nestjs/swagger';
import { MAX_SAMPLES_PER_REQUEST } from './usage-samples';

export class UsageSampleDto {
  @ApiProperty({ type: 'integer', example: 1704067200, description: 'whole Unix seconds (UTC) when the sample was taken' }) timestamp!: number;
  @ApiProperty({ example: 'h01', description: 'a node of the cluster\'s current version' }) node!: string;
  @ApiProperty({ example: 'cpu', description: 'a metric of the cluster\'s current version' }) metric!: string;
  @ApiProperty({ example: 0.42, minimum: 0, maximum: 1, description: 'utilisation by the regular customers, a fraction of the node\'s capacity (not a percentage)' }) value!: number;
}

/** Documents the JSON form; the body is checked sample by sample by parseJsonSamples (paths `samples[i].field`). */
export class PostUsageDto {
  @ApiProperty({ type: [UsageSampleDto], minItems: 1, maxItems: MAX_SAMPLES_PER_REQUEST, description: 'in any order; a repeated (node, metric, timestamp) keeps its first value' })
  samples!: UsageSampleDto[];
}

export class UsageIngestResultDto {
  @ApiProperty({ type: 'integer', description: 'samples stored now' }) accepted!: number;
  @ApiProperty({ type: 'integer', description: 'samples ignored: already stored, or repeated in the request (a stored value is never changed)' }) duplicates!: number;
  @ApiProperty({ type: 'integer', description: 'distinct nodes in the request' }) nodes!: number;
  @ApiProperty({ type: [String], example: ['cpu', 'ram'], description: 'distinct metrics in the request' }) metrics!: string[];
  @ApiProperty({ format: 'date-time', description: 'the earliest sample in the request' }) from!: string;
  @ApiProperty({ format: 'date-time', description: 'the latest sample in the request' }) to!: string;
}

export class UsageSeriesSummaryDto {
  @ApiProperty({ example: 'h01' }) node!: string;
  @ApiProperty({ example: 'cpu' }) metric!: string;
  @ApiProperty({ type: 'integer' }) samples!: number;
  @ApiProperty({ format: 'date-time', description: 'the first stored sample' }) from!: string;
  @ApiProperty({ format: 'date-time', description: 'the last stored sample' }) to!: string;
}

export class UsageSummaryDto {
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ type: 'integer', description: 'stored samples over every series' }) samples!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'the first stored sample; null without history' }) from!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'the last stored sample; null without history' }) to!: string | null;
  @ApiProperty({ type: [UsageSeriesSummaryDto], description: 'per node and metric, ordered by node then metric' }) series!: UsageSeriesSummaryDto[];
}
