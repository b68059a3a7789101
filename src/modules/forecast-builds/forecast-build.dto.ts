import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { BUILD_MODELS, BuildModel } from '../forecasts/forecast-provenance';
import { BUILD_STATUSES, BuildStatus } from './forecast-build.entity';
import { MAX_BUILD_HORIZON_SECONDS, MAX_TRAINING_DAYS } from './build-issues';

/* Checked by buildIssues so that every problem is reported at once; `@Allow()` lets the fields through the whitelist. */
export class CreateForecastBuildDto {
  @ApiPropertyOptional({ example: 0.99, default: 0.99, exclusiveMinimum: true, exclusiveMaximum: true, minimum: 0, maximum: 1, description: 'the quantile of future usage to forecast (0.99: exceeded in about 1% of slots)' })
  @Allow()
  quantile?: number;

  @ApiProperty({ type: 'integer', example: 288, minimum: 1, description: `slots to forecast, from the slot after the last sample; at most ${MAX_BUILD_HORIZON_SECONDS / 86_400} days` })
  @Allow()
  horizonSlots!: number;

  @ApiProperty({ type: 'integer', example: 300, minimum: 1, maximum: 86_400, description: 'slot length of the forecast, in seconds (the solve\'s horizon.slotSeconds)' })
  @Allow()
  slotSeconds!: number;

  @ApiPropertyOptional({ enum: BUILD_MODELS, default: 'gbt', description: 'gbt: gradient-boosted quantile regression (needs more history than the horizon, at least one day more); last-day, slot-quantile, max: baselines' })
  @Allow()
  model?: BuildModel;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_TRAINING_DAYS, default: MAX_TRAINING_DAYS, description: 'days of history, ending with the last sample, to train on (default: all of it, at most the last 28 days)' })
  @Allow()
  trainingDays?: number;

  @ApiPropertyOptional({
    example: 0.2,
    default: 0,
    minimum: 0,
    maximum: 1,
    description:
      "gbt only: raise the forecast by this share of capacity, never above each node's history maximum - the history maximum's safety with more capacity to lend (fallow forecast-eval reports the headroom that matches the maximum's coverage)",
  })
  @Allow()
  headroom?: number;
}

export class ForecastBuildDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ type: 'integer', description: 'the cluster version whose nodes and metrics are forecast' }) clusterVersion!: number;
  @ApiProperty({ enum: BUILD_STATUSES }) status!: BuildStatus;
  @ApiProperty({ enum: BUILD_MODELS }) model!: BuildModel;
  @ApiProperty() quantile!: number;
  @ApiProperty({ type: 'integer' }) horizonSlots!: number;
  @ApiProperty({ type: 'integer' }) slotSeconds!: number;
  @ApiProperty({ type: 'integer' }) trainingDays!: number;
  @ApiProperty() headroom!: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'the forecast built (GET /v1/forecasts/{id}; a solve uses it as forecastId) once succeeded' }) forecastId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'why the build failed' }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt!: string | null;
}
