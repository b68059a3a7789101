import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import type { Issue } from '../../engine/model/types';
import { clusterIssues } from '../common/document-validation';
import { NetworkDto, NodeDto } from '../common/format.dto';

/*
 * class-validator checks only the top-level shape; the content of `metrics` and `nodes` is checked by the
 * engine's instance validator (the one every solve goes through), so the API and the engine never disagree
 * and every problem is reported with the path the client sent (`nodes[2].capacity.cpu`).
 */

export class CreateClusterDto {
  @ApiProperty({ example: 'pc1', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({ type: [String], example: ['cpu', 'ram'], description: 'resource dimensions m; node capacities use these names' })
  @IsArray()
  metrics!: string[];

  @ApiProperty({ type: [NodeDto] })
  @IsArray()
  nodes!: NodeDto[];

  @ApiPropertyOptional({ type: NetworkDto, description: 'bandwidth inside a rack and between racks (nodes\' `rack`): remote reads and shuffles in simulations' })
  @IsOptional()
  network?: NetworkDto;

  @ApiPropertyOptional({ default: true, description: 'offered to customers\' solves through the operator' })
  @ValidateIf((o) => o.lendable !== undefined)
  @IsBoolean()
  lendable?: boolean;

  /** DeepChecked: the nodes' and metrics' own problems, reported with the decorators' ones. */
  static deepIssues(body: Record<string, unknown>): Issue[] {
    return Array.isArray(body.metrics) && Array.isArray(body.nodes) ? clusterIssues(body.metrics, body.nodes, body.network) : [];
  }
}

/** A new version of the cluster: metrics and nodes are replaced whole; name and lendable only when given. */
export class UpdateClusterDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, description: 'unchanged when left out' })
  @ValidateIf((o) => o.name !== undefined) // left out: unchanged; null is not a name (IsOptional would let it through)
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiProperty({ type: [String], example: ['cpu', 'ram'] })
  @IsArray()
  metrics!: string[];

  @ApiProperty({ type: [NodeDto] })
  @IsArray()
  nodes!: NodeDto[];

  @ApiPropertyOptional({ type: NetworkDto, description: 'bandwidth inside a rack and between racks (nodes\' `rack`): remote reads and shuffles in simulations' })
  @IsOptional()
  network?: NetworkDto;

  @ApiPropertyOptional({ description: 'unchanged when left out' })
  @ValidateIf((o) => o.lendable !== undefined)
  @IsBoolean()
  lendable?: boolean;
}

export class ClusterVersionDto {
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty({ type: 'integer', example: 1 }) version!: number;
  @ApiProperty({ type: [String] }) metrics!: string[];
  @ApiProperty({ type: [NodeDto] }) nodes!: NodeDto[];
  @ApiProperty({ type: NetworkDto, nullable: true }) network!: NetworkDto | null;
  @ApiProperty({ description: 'when this version was written' }) createdAt!: string;
}

/** A cluster with its current version. */
export class ClusterDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() lendable!: boolean;
  @ApiProperty({ type: 'integer', description: 'the current version; plans and solves name the version they used' }) version!: number;
  @ApiProperty({ type: [String] }) metrics!: string[];
  @ApiProperty({ type: [NodeDto] }) nodes!: NodeDto[];
  @ApiProperty({ type: NetworkDto, nullable: true }) network!: NetworkDto | null;
  @ApiProperty() createdAt!: string;
  @ApiProperty({ description: 'when the current version was written' }) updatedAt!: string;
}

/** A cluster in a listing: its current version summarised (fetch the cluster for the nodes). */
export class ClusterSummaryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() lendable!: boolean;
  @ApiProperty({ type: 'integer' }) version!: number;
  @ApiProperty({ type: [String] }) metrics!: string[];
  @ApiProperty({ type: 'integer', description: 'number of nodes in the current version' }) nodeCount!: number;
  @ApiProperty() createdAt!: string;
  @ApiProperty({ description: 'when the current version was written' }) updatedAt!: string;
}

export class ClusterPageDto {
  @ApiProperty({ type: [ClusterSummaryDto] }) items!: ClusterSummaryDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'pass as ?cursor= for the next page' }) nextCursor!: string | null;
}
