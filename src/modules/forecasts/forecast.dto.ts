import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

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
  @ApiProperty({ example: 180, exclusiveMinimum: true, minimum: 0, description: 'sampling period of the series, in seconds' })
  @Allow()
  slotSeconds!: number;

  @ApiProperty({ type: 'integer', example: 480, minimum: 1, maximum: 1_000_000, description: 'number of slots; every series has this many values' })
  @Allow()
  slots!: number;

  @ApiPropertyOptional({ example: 0.5, default: 0.5, exclusiveMinimum: true, exclusiveMaximum: true, minimum: 0, maximum: 1, description: 'which quantile of the predicted utilisation these fractions are (0.5 = median)' })
  @Allow()
  quantile?: number;

  @ApiProperty(usageSchema)
  @Allow()
  usage!: Record<string, Record<string, number[]>>;
}

/** A forecast in a listing (without its series). */
export class ForecastSummaryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ type: 'integer', description: 'the cluster version the forecast was validated against' }) clusterVersion!: number;
  @ApiProperty() slotSeconds!: number;
  @ApiProperty({ type: 'integer' }) slots!: number;
  @ApiProperty() quantile!: number;
  @ApiProperty() createdAt!: string;
}

export class ForecastDto extends ForecastSummaryDto {
  @ApiProperty(usageSchema) usage!: Record<string, Record<string, number[]>>;
}

export class ForecastPageDto {
  @ApiProperty({ type: [ForecastSummaryDto] }) items!: ForecastSummaryDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'pass as ?cursor= for the next page' }) nextCursor!: string | null;
}
