import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * POSUM's alpha, beta, gamma (Eq. 5): how much a unit of each score component costs when the portfolio
 * chooses among its members (src/engine/policies/posum/choose.ts). Checked by weightsIssues, all problems at once.
 */
export class ScoreWeightsDto {
  @ApiProperty({ minimum: 0, example: 1, description: 'weight of V_D, the cumulated squared deadline violations (s^2)' }) @Allow() alpha!: number;
  @ApiProperty({ minimum: 0, example: 1, description: 'weight of S_B, the cumulated bounded slowdown of batch jobs' }) @Allow() beta!: number;
  @ApiProperty({ minimum: 0, example: 1, description: 'weight of C, the node cost' }) @Allow() gamma!: number;
}
