import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class AssignmentRowDto {
  @ApiProperty() job!: string;
  @ApiProperty() stage!: string;
  @ApiProperty() task!: number;
  @ApiProperty() node!: string;
  @ApiProperty() start!: number;
  @ApiProperty({ description: 'start + duration on that node' }) end!: number;
}

export class AssignmentPageDto {
  @ApiProperty({ type: [AssignmentRowDto] }) items!: AssignmentRowDto[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor!: string | null;
}
