import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SLA_STATUSES, SlaStatus } from './ledger';
import { PERIODS, Period } from './periods';
import { Basis, BASES } from './accounting-query';

const MINOR = 'integer minor units of `currency` (cents for EUR)';

class ReportHeaderDto {
  @ApiProperty({ example: 'EUR', description: 'ISO 4217 code of every amount (FALLOW_CURRENCY); amounts are integer minor units' }) currency!: string;
  @ApiProperty({ enum: BASES, description: 'plan: the stored plans\' verdicts; actual: the execution events; simulated: each plan\'s latest succeeded simulation' }) basis!: Basis;
  @ApiProperty({ enum: PERIODS, description: 'UTC days, ISO weeks (from Monday) or calendar months' }) period!: Period;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'inclusive' }) from!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'exclusive' }) to!: string | null;
}

export class CustomerJobDto {
  @ApiProperty({ format: 'uuid' }) solveId!: string;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'null for a solve of a whole instance' }) batchId!: string | null;
  @ApiProperty({ example: 'wordcount' }) job!: string;
  @ApiProperty({ enum: SLA_STATUSES }) sla!: SlaStatus;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'startsAt + deadlineSlot * slotSeconds' }) deadlineAt!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'planned (basis plan), actual (basis actual) or simulated (basis simulated) end; null when rejected or pending' }) endAt!: string | null;
  @ApiProperty({ format: 'date-time', description: 'when the job counts: its end, else its deadline within the plan\'s window, else the window\'s end' }) at!: string;
  @ApiProperty({ format: 'date-time' }) periodStart!: string;
  @ApiProperty({ description: `positive revenue the customer pays, ${MINOR}` }) amountDue!: number;
  @ApiProperty({ description: `what the operator pays back for a late job with a negative \`late\` revenue, ${MINOR}` }) penalty!: number;
  @ApiProperty({ description: 'amountDue - penalty' }) net!: number;
}

export class SlaCountsDto {
  @ApiProperty() jobs!: number;
  @ApiProperty() onTime!: number;
  @ApiProperty() late!: number;
  @ApiProperty() rejected!: number;
  @ApiProperty({ description: 'actual basis: not every task has finished yet; simulated basis: not simulated yet, or unfinished in the simulation' }) pending!: number;
}

export class BillTotalsDto extends SlaCountsDto {
  @ApiProperty({ description: MINOR }) amountDue!: number;
  @ApiProperty({ description: MINOR }) penalties!: number;
  @ApiProperty({ description: 'amountDue - penalties' }) net!: number;
}

export class BatchTotalsDto extends BillTotalsDto {
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'null: the solves of whole instances' }) batchId!: string | null;
}

export class BillDto extends BillTotalsDto {
  @ApiProperty({ format: 'date-time' }) periodStart!: string;
  @ApiProperty({ format: 'date-time', description: 'exclusive' }) periodEnd!: string;
}

export class CustomerReportDto extends ReportHeaderDto {
  @ApiProperty({ format: 'uuid' }) customerId!: string;
  @ApiProperty({ type: [CustomerJobDto], description: 'one line per job (the CSV export has these rows)' }) jobs!: CustomerJobDto[];
  @ApiProperty({ type: [BatchTotalsDto] }) batches!: BatchTotalsDto[];
  @ApiProperty({ type: [BillDto], description: 'one bill per period' }) bills!: BillDto[];
  @ApiProperty({ type: BillTotalsDto }) totals!: BillTotalsDto;
}

const METRIC_HOURS = { type: 'object', additionalProperties: { type: 'number' }, example: { cpu: 12.5, ram: 50 }, description: 'per metric: sum of demand x duration of the tasks run, in metric-hours (e.g. core-hours)' } as const;

export class FarmerTotalsDto {
  @ApiProperty({ description: 'jobs that ran to the end on the cluster (on time or late)' }) jobsRun!: number;
  @ApiProperty(METRIC_HOURS) capacityLent!: Record<string, number>;
  @ApiProperty({ description: `positive revenue of the jobs run, ${MINOR}` }) revenueBasis!: number;
  @ApiProperty({ description: `shareBps of each job's positive revenue, rounded down per job, ${MINOR}; penalties are borne by the operator` }) shareEarned!: number;
  @ApiProperty({ description: 'killed tasks (interference by the regular load)' }) incidents!: number;
}

export class FarmerClusterPeriodDto extends FarmerTotalsDto {
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty() clusterName!: string;
  @ApiProperty({ format: 'date-time' }) periodStart!: string;
  @ApiProperty({ format: 'date-time' }) periodEnd!: string;
}

export class IncidentDto {
  @ApiProperty({ description: 'the reporter\'s event id' }) eventId!: string;
  @ApiProperty({ format: 'uuid' }) solveId!: string;
  @ApiProperty({ format: 'uuid' }) clusterId!: string;
  @ApiProperty() job!: string;
  @ApiProperty() stage!: string;
  @ApiProperty() task!: number;
  @ApiProperty() node!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) reason!: string | null;
}

export class FarmerReportDto extends ReportHeaderDto {
  @ApiProperty({ format: 'uuid' }) farmerId!: string;
  @ApiProperty({ minimum: 0, maximum: 10000, description: 'the farmer\'s current revenue share in basis points' }) shareBps!: number;
  @ApiProperty({ type: [FarmerClusterPeriodDto], description: 'per cluster and period (the CSV export has these rows)' }) clusters!: FarmerClusterPeriodDto[];
  @ApiProperty({ type: [IncidentDto], description: 'killed events on the farmer\'s clusters in the range (always from the events)' }) incidents!: IncidentDto[];
  @ApiProperty({ type: FarmerTotalsDto }) totals!: FarmerTotalsDto;
}

export class OperatorFiguresDto {
  @ApiProperty({ description: `positive revenue of the jobs, ${MINOR}` }) revenue!: number;
  @ApiProperty({ description: `paid back for late jobs, ${MINOR}` }) penalties!: number;
  @ApiProperty({ description: `farmers' revenue shares, ${MINOR}` }) payouts!: number;
  @ApiProperty({ description: 'revenue - penalties - payouts' }) margin!: number;
  @ApiProperty({ description: 'platform resource utilisation (two-stage Eq. 9): mean of the plans\' PRU weighted by their accepted jobs in this row' }) pru!: number;
  @ApiProperty({ description: 'job completion rate (two-stage Eq. 10) over the jobs of this row: on-time jobs / all jobs' }) jcr!: number;
  @ApiProperty() jobsOnTime!: number;
  @ApiProperty() jobsLate!: number;
  @ApiProperty() jobsRejected!: number;
  @ApiProperty() jobsPending!: number;
}

export class OperatorPeriodDto extends OperatorFiguresDto {
  @ApiProperty({ format: 'date-time' }) periodStart!: string;
  @ApiProperty({ format: 'date-time' }) periodEnd!: string;
}

export class OperatorFarmerPeriodDto extends OperatorPeriodDto {
  @ApiProperty({ format: 'uuid' }) farmerId!: string;
}

export class OperatorCustomerPeriodDto extends OperatorPeriodDto {
  @ApiProperty({ format: 'uuid' }) customerId!: string;
}

export class OperatorReportDto extends ReportHeaderDto {
  @ApiProperty({ type: [OperatorPeriodDto], description: 'platform-wide per period (the CSV export has these rows)' }) periods!: OperatorPeriodDto[];
  @ApiProperty({ type: [OperatorFarmerPeriodDto], description: 'per farmer and period (jobs of solves on a farmer\'s cluster)' }) farmers!: OperatorFarmerPeriodDto[];
  @ApiProperty({ type: [OperatorCustomerPeriodDto] }) customers!: OperatorCustomerPeriodDto[];
  @ApiProperty({ type: OperatorFiguresDto }) totals!: OperatorFiguresDto;
}
