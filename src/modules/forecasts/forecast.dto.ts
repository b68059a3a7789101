import { MAX_SLOT_SECONDS } from '../../engine/model/input-bounds';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { BUILD_MODELS, BuildModel } from './forecast-provenance';

const usageSchema = {
  type: 'object',
  description: 'U(k,m,t): node -> metric -> one utilisation fraction in [0, 1] per slot (exactly `slots` values); a missing node or metric is idle',
  additionalProperties: { type: 'object', additionalProperties: { type: 'array', items: { type: 'number', minimum: 0, maximum: 1 } } },
  example: { h01: { cpu: [0.12, 0.15, 0.2], ram: [0.3, 0.3, 0.31] } },
} as const;

/*
 * Every field is checked by the service, against the cluster's current version and with the engine's
 * instance validator, so that all problems (slots, quantile and each series) are reported at once.
 * `@Allow()` only lets the field through the global whitelist.
 */
export class CreateForecastDto {
  @ApiProperty({ example: 180, exclusiveMinimum: true, minimum: 0, maximum: MAX_SLOT_SECONDS, description: 'sampling period of the series, in seconds' })
  @Allow()
  slotSeconds!: number;

  @ApiProperty({ type: 'integer', example: 480, minimum: 1, maximum: 1_000_000, description: 'number of slots; every series has this many values' })
  @Allow()
  slots!: number;

  @ApiPropertyOptional({ example: 0.5, default: 0.5, exclusiveMinimum: true, exclusiveMaximum: true, minimum: 0, maximum: 1, description: 'which quantile of the predicted utilisation these fractions are (0.5 = median)' })
  @Allow()
  quantile?: number;

  @ApiPropertyOptional({ format: 'date-time', description: 'wall-clock time slot 0 stands for (default: when the forecast is posted); a solve starting outside the forecast\'s window is refused' })
  @Allow()
  startsAt?: string;

  @ApiProperty(usageSchema)
  @Allow()
  usage!: Record<string, Record<string, number[]>>;
}

export class ScoreSummaryDto {
  @ApiProperty({ type: 'integer', description: 'slots scored, every node and metric pooled' }) n!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'mean pinball loss at the quantile (lower is better)' }) pinball!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'share of slots whose actual usage was at most the forecast (calibrated: about the quantile)' }) coverage!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'mean 1 - forecast: the capacity share offered to ephemeral work' }) reclaimable!: number | null;
}

export class HoldoutScoreDto extends ScoreSummaryDto {
  @ApiProperty({ enum: BUILD_MODELS }) model!: BuildModel;
  @ApiPropertyOptional({ description: 'why the model could not be scored (n is 0 then)' }) skipped?: string;
}

export class HoldoutDto {
  @ApiProperty({ format: 'date-time', description: 'start of the held-out last day' }) from!: string;
  @ApiProperty({ format: 'date-time', description: 'end of the held-out last day (exclusive)' }) to!: string;
  @ApiProperty({ type: [HoldoutScoreDto], description: 'the built model and every baseline, each trained on the history before `from`' }) scores!: HoldoutScoreDto[];
}

export class TrainingWindowDto {
  @ApiProperty({ format: 'date-time', description: 'the first sample trained on' }) from!: string;
  @ApiProperty({ format: 'date-time', description: 'the last sample trained on' }) to!: string;
  @ApiProperty({ type: 'integer' }) samples!: number;
  @ApiProperty({ type: 'integer', description: 'node-metric series' }) series!: number;
}

/** How a built forecast was made (POST /v1/clusters/{id}/forecasts:build). */
export class ForecastProvenanceDto {
  @ApiProperty({ format: 'uuid' }) buildId!: string;
  @ApiProperty({ enum: BUILD_MODELS }) model!: BuildModel;
  @ApiProperty() quantile!: number;
  @ApiProperty({ description: "share of capacity the GBT's forecast was raised by, never above each node's history maximum (0: none)" }) headroom!: number;
  @ApiProperty({ type: TrainingWindowDto }) training!: TrainingWindowDto;
  @ApiProperty({ type: ScoreSummaryDto, description: 'fit to the training window at the quantile (GBT: after its first lag window; baselines: after the first day)' }) inSample!: ScoreSummaryDto;
  @ApiProperty({ type: HoldoutDto, nullable: true, description: 'the last day held out (needs at least 2 days of history)' }) holdout!: HoldoutDto | null;
  @ApiProperty({ description: 'wall time of training and forecasting, in ms' }) trainMs!: number;
}

/** A forecast in a listing (without its series). */
export class ForecastSummaryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ type: 'integer', description: 'the cluster version the forecast was validated against' }) clusterVersion!: number;
  @ApiProperty() slotSeconds!: number;
  @ApiProperty({ type: 'integer' }) slots!: number;
  @ApiProperty() quantile!: number;
  @ApiProperty({ format: 'date-time', description: 'wall-clock time slot 0 stands for' }) startsAt!: string;
  @ApiProperty({ format: 'date-time', description: 'end of the last slot: startsAt + slots x slotSeconds' }) endsAt!: string;
  @ApiProperty({ type: ForecastProvenanceDto, nullable: true, description: 'how a built forecast was made; null when it was posted' }) provenance!: ForecastProvenanceDto | null;
  @ApiProperty() createdAt!: string;
}

export class ForecastDto extends ForecastSummaryDto {
  @ApiProperty(usageSchema) usage!: Record<string, Record<string, number[]>>;
}

export class ForecastPageDto {
  @ApiProperty({ type: [ForecastSummaryDto] }) items!: ForecastSummaryDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'pass as ?cursor= for the next page' }) nextCursor!: string | null;
}
