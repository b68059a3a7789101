import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/* The fields are checked by QuotasService.put, against the cluster's metrics, so that every problem is named at once. */

export class PutQuotaDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
    example: { cpu: 0.5, ram: 0.5 },
    description: "per metric of the cluster, the share of its lendable capacity the customer may hold at once (0 to 1); metrics left out are not limited",
  })
  @Allow()
  shares!: Record<string, number>;

  @ApiPropertyOptional({ default: false, description: 'may go beyond the shares while capacity is idle; what it borrows is taken back when a customer within its quota needs it (README, Quotas)' })
  @Allow()
  borrow?: boolean;
}

export class QuotaDto {
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ description: 'the customer tenant id, or default (every customer without a quota of its own)' }) customer!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } }) shares!: Record<string, number>;
  @ApiProperty() borrow!: boolean;
  @ApiProperty({ enum: ['own', 'default', 'none'], description: "where it comes from: the customer's own, the cluster's default, or none set (not limited)" }) source!: 'own' | 'default' | 'none';
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updatedAt!: string | null;
}

export class QuotaListDto {
  @ApiProperty({ type: [QuotaDto] }) items!: QuotaDto[];
}
