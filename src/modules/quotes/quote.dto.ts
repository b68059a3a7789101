import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsArray, IsOptional, IsString, IsUUID } from 'class-validator';
import { PlanWindowDto } from '../common/format.dto';

export class CreateQuoteDto {
  @ApiProperty({ format: 'uuid', description: 'a lendable cluster (or one of your own)' })
  @IsUUID()
  clusterId!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'one of your batches; or give jobs' })
  @IsOptional()
  @IsUUID()
  batchId?: string;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'jobs as a batch gives them (one job is a batch of one); or give batchId' })
  @IsOptional()
  @IsArray()
  jobs?: Record<string, unknown>[];

  @ApiPropertyOptional({ format: 'date-time', description: 'when the jobs would start (default: now)' })
  @IsOptional()
  @IsString()
  startsAt?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "the forecast to plan on (default: the cluster version's newest covering startsAt)" })
  @IsOptional()
  @IsUUID()
  forecastId?: string;

  @ApiPropertyOptional({ description: 'S(m): one fraction for every metric or one per metric, as for a solve' })
  @Allow()
  safetyMargin?: number | Record<string, number>;
}

export class QuotedJobDto {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'the quote plans it' }) accepted!: boolean;
  @ApiProperty({ description: 'accepted and, with a deadline, on time' }) fits!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: "the slot its last task ends, in the quote's window" }) endSlot!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when its last task would end' }) plannedEnd!: string | null;
  @ApiProperty({ type: Number, nullable: true }) deadlineSlot!: number | null;
  @ApiProperty({ type: Boolean, nullable: true }) onTime!: boolean | null;
  @ApiProperty({ description: 'what it would earn (its revenue terms; 0 without any)' }) revenue!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['capacity', 'deadline', 'quota', null],
    description: "null when it fits; capacity: what is free (after committed plans) cannot hold it; deadline: it cannot end within the window or its deadline; quota: it would fit but for the customer's quota",
  })
  reason!: 'capacity' | 'deadline' | 'quota' | null;
  @ApiProperty({ type: String, nullable: true, description: 'the reason for people' }) detail!: string | null;
}

export class QuoteDto {
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ type: PlanWindowDto }) window!: PlanWindowDto;
  @ApiProperty({ description: 'how the quote planned: quote-greedy, the best of a deadline-first and a few Random First Fit Decreasing builds (a solve may do better)' }) strategy!: string;
  @ApiProperty() acceptedJobs!: number;
  @ApiProperty() rejectedJobs!: number;
  @ApiProperty({ description: 'revenue of the accepted jobs' }) revenue!: number;
  @ApiProperty({ type: [QuotedJobDto] }) jobs!: QuotedJobDto[];
  @ApiProperty({ type: [String] }) warnings!: string[];
}
