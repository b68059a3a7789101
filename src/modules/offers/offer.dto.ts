import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const numberMap = { type: 'object', additionalProperties: { type: 'number' } } as const;

export class OfferedNodeDto {
  @ApiProperty({ example: 'h01' }) id!: string;
  @ApiProperty({ ...numberMap, description: 'C(k,m) per metric', example: { cpu: 32, ram: 128 } }) capacity!: Record<string, number>;
  @ApiPropertyOptional({ description: 'GFLOP/s one task achieves on this node; default 1' }) speed?: number;
  @ApiPropertyOptional() rack?: string;
  @ApiPropertyOptional({ description: 'concurrent task slots' }) maxTasks?: number;
}

/** A window of a forecast a solve can use now (its id goes in a solve's forecastId). */
export class OfferedForecastDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) startsAt!: string;
  @ApiProperty({ format: 'date-time' }) endsAt!: string;
  @ApiProperty() slotSeconds!: number;
  @ApiProperty({ type: 'integer' }) slots!: number;
  @ApiProperty() quantile!: number;
}

export class OfferedClusterDto {
  @ApiProperty({ format: 'uuid', description: 'a solve\'s clusterId' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', description: 'the current version, the one a solve uses' }) version!: number;
  @ApiProperty({ type: [String], description: 'the metrics a batch\'s demands may name' }) metrics!: string[];
  @ApiProperty({ type: [OfferedNodeDto] }) nodes!: OfferedNodeDto[];
  @ApiProperty({ type: OfferedForecastDto, nullable: true, description: 'the newest forecast of this version covering now (null: none; a solve then needs a horizon)' })
  forecast!: OfferedForecastDto | null;
  @ApiProperty({ format: 'date-time', description: 'when the current version was written' }) updatedAt!: string;
}

export class OfferedClusterPageDto {
  @ApiProperty({ type: [OfferedClusterDto] }) items!: OfferedClusterDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'pass as ?cursor= for the next page' }) nextCursor!: string | null;
}
