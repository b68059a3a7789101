import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ScoreWeightsDto } from '../common/score-weights.dto';
import { Role, ROLES } from './api-key.entity';

export class CreateTenantDto {
  @ApiProperty({ example: 'acme', description: 'unique; letters, digits, dot, dash, underscore' })
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9._-]+$/, { message: 'name may contain only letters, digits, ".", "-" and "_"' })
  name!: string;
}

export class TenantDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'unique among tenants' }) name!: string;
  @ApiProperty({ minimum: 0, maximum: 10000, description: 'a farmer\'s share of the positive revenue of jobs on its clusters, in basis points' }) revenueShareBps!: number;
  @ApiProperty({
    type: ScoreWeightsDto,
    description: "POSUM's alpha, beta, gamma (Eq. 5) for this tenant's portfolio solves and posum simulations that give none (1/1/1 until an operator sets them)",
  })
  scoreWeights!: ScoreWeightsDto;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class TenantPageDto {
  @ApiProperty({ type: [TenantDto] }) items!: TenantDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as ?cursor= for the next page; null on the last page' }) nextCursor!: string | null;
}

export class RevenueShareDto {
  @ApiProperty({
    minimum: 0,
    maximum: 10000,
    example: 3000,
    description: 'basis points (3000 = 30 %) of the positive revenue of each job run on the farmer\'s clusters, rounded down per job to a minor unit; penalties stay with the operator',
  })
  @IsInt({ message: '$property must be an integer number of basis points' })
  @Min(0, { message: '$property must be at least 0' })
  @Max(10000, { message: '$property must be at most 10000 (100 %)' })
  shareBps!: number;
}

export class CreateKeyDto {
  @ApiProperty({ enum: ROLES, description: 'what the key may do: operator (everything), farmer (clusters, usage, forecasts, their accounting) or customer (batches, solves, simulations, their bill)' }) @IsIn(ROLES as unknown as string[]) role!: Role;
  @ApiPropertyOptional({ example: 'ci pipeline', description: 'a note to tell keys apart (default empty)' }) @IsOptional() @IsString() @Length(0, 200) label?: string;
}

export class KeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) tenantId!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty() label!: string;
  @ApiProperty({ description: 'what is kept of the key in clear, to tell keys apart: `flw_` and the first 4 characters of a generated key (24 of its 192 random bits); empty for a chosen key such as the bootstrap key' }) prefix!: string;
  @ApiProperty() createdAt!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) revokedAt!: string | null;
}

export class CreatedKeyDto extends KeyDto {
  @ApiProperty({ description: 'the key itself: shown this once, only its digest is stored' }) key!: string;
}
