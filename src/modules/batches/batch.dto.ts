import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayNotEmpty, IsArray, IsString, Length } from 'class-validator';
import { PREDICTOR_CHOICES } from '../../engine/predict';
import type { Issue } from '../../engine/model/types';
import { JobDto, ProblemItemDto, StagePredictionDto } from '../common/format.dto';
import { batchIssues } from './batch-issues';

/** class-validator checks the top-level shape; the engine's instance validator checks every job. */
export class CreateBatchDto {
  @ApiProperty({ example: 'nightly-etl', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({ type: [JobDto], minItems: 1, description: 'fallow.instance/v1 jobs; demand metrics are matched to a cluster when a solve uses the batch' })
  @IsArray()
  @ArrayNotEmpty()
  jobs!: JobDto[];

  /** DeepChecked: the jobs' own problems, reported with the decorators' ones. */
  static deepIssues(body: Record<string, unknown>): Issue[] {
    return Array.isArray(body.jobs) ? batchIssues(body.jobs) : [];
  }
}

/** A batch in a listing (without its jobs). */
export class BatchSummaryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', description: 'number of jobs' }) jobCount!: number;
  @ApiProperty() createdAt!: string;
}

export class BatchDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [JobDto] }) jobs!: JobDto[];
  @ApiProperty() createdAt!: string;
}

export class BatchPredictionsDto {
  @ApiProperty({ format: 'uuid' }) batchId!: string;
  @ApiProperty({ enum: PREDICTOR_CHOICES }) predictor!: string;
  @ApiProperty({ type: [StagePredictionDto], description: 'per stage that gives neither work nor durationSeconds: the duration a solve would give it' }) predictions!: StagePredictionDto[];
  @ApiProperty({ type: [ProblemItemDto], description: 'stages nothing could predict (a solve of the batch would be a 422 naming them)' }) unpredictable!: ProblemItemDto[];
}

export class BatchPageDto {
  @ApiProperty({ type: [BatchSummaryDto] }) items!: BatchSummaryDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'pass as ?cursor= for the next page' }) nextCursor!: string | null;
}
