import { applyDecorators, Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Principal, Roles } from '../auth/principal';
import { ChartRenderer } from '../charts/chart-renderer';
import { ApiProblems } from '../common/api-problems';
import { ApiChart, chartFile, sendChart } from '../common/chart-response';
import { ACCOUNTING_CHARTS, customerRevenue, farmerRevenue, operatorRevenue, revenueChart } from './revenue-chart';
import { BASES, FORMATS, parseAccountingQuery, reportSubject } from './accounting-query';
import { CustomerReportDto, FarmerReportDto, OperatorReportDto } from './accounting.dto';
import { AccountingService } from './accounting.service';
import { PERIODS } from './periods';
import { customerCsv, farmerCsv, operatorCsv } from './report-csv';

interface RangeQuery {
  from?: string;
  to?: string;
  period?: string;
  basis?: string;
  format?: string;
}

/** The range, period and basis every report and its chart share. */
function RangeQueries() {
  return applyDecorators(
    ApiQuery({ name: 'from', required: false, description: 'inclusive ISO 8601 date-time', example: '2030-01-01T00:00:00Z' }),
    ApiQuery({ name: 'to', required: false, description: 'exclusive ISO 8601 date-time' }),
    ApiQuery({ name: 'period', required: false, enum: PERIODS, description: 'UTC day (default), ISO week from Monday, or calendar month' }),
    ApiQuery({ name: 'basis', required: false, enum: BASES, description: 'only committed (or completed) plans count, on every basis. plan (default): the plans\' verdicts; actual: the execution events; simulated: each plan\'s latest succeeded simulation' }),
  );
}

/** The query parameters and the two representations (JSON, or CSV of the main table) every report shares. */
function Report(dto: Function, csvRows: string) {
  return applyDecorators(
    ApiExtraModels(dto),
    RangeQueries(),
    ApiQuery({ name: 'format', required: false, enum: FORMATS, description: `csv: text/csv of ${csvRows}, with a header row` }),
    ApiProduces('application/json', 'text/csv'),
    ApiResponse({
      status: 200,
      description: 'the report; amounts are integer minor units of `currency`',
      content: { 'application/json': { schema: { $ref: getSchemaPath(dto) } }, 'text/csv': { schema: { type: 'string' } } },
    }),
  );
}

function send<T>(res: Response, format: string, report: T, csv: (r: T) => string): T | string {
  if (format !== 'csv') return report;
  res.type('text/csv; charset=utf-8');
  return csv(report);
}

@ApiTags('accounting')
@ApiBearerAuth()
@Controller('v1/accounting')
export class AccountingController {
  constructor(
    private readonly accounting: AccountingService,
    private readonly renderer: ChartRenderer,
  ) {}

  @Get('customer')
  @Roles('customer')
  @ApiOperation({ operationId: 'customerAccounting', summary: 'A customer\'s SLA status and bill: per job, per batch and per period', description: 'Each job\'s verdict (on time, late, rejected), what it earns or is paid back, summed per batch and per period of [from, to); JSON, or CSV with format=csv.' })
  @ApiQuery({ name: 'customerId', required: false, description: 'operators: the customer tenant; customers see only themselves' })
  @Report(CustomerReportDto, 'the jobs')
  @ApiProblems(401, 403, 404, 422)
  async customer(@CurrentPrincipal() p: Principal, @Query() q: RangeQuery & { customerId?: string }, @Res({ passthrough: true }) res: Response) {
    const query = parseAccountingQuery(q);
    const id = reportSubject(p, 'customer', q.customerId, 'customerId');
    return send(res, query.format, await this.accounting.customer(id, query), customerCsv);
  }

  @Get('farmer')
  @Roles('farmer')
  @ApiOperation({ operationId: 'farmerAccounting', summary: 'A farmer\'s capacity lent, jobs run, revenue share and interference incidents, per cluster and period', description: 'For each of the farmer\'s clusters and each period of [from, to): capacity lent, jobs run, the farmer\'s share of their revenue and interference incidents; JSON, or CSV with format=csv.' })
  @ApiQuery({ name: 'farmerId', required: false, description: 'operators: the farmer tenant; farmers see only themselves' })
  @Report(FarmerReportDto, 'the cluster x period rows')
  @ApiProblems(401, 403, 404, 422)
  async farmer(@CurrentPrincipal() p: Principal, @Query() q: RangeQuery & { farmerId?: string }, @Res({ passthrough: true }) res: Response) {
    const query = parseAccountingQuery(q);
    const id = reportSubject(p, 'farmer', q.farmerId, 'farmerId');
    return send(res, query.format, await this.accounting.farmer(id, query), farmerCsv);
  }

  @Get('operator')
  @Roles('operator')
  @ApiOperation({ operationId: 'operatorAccounting', summary: 'Platform revenue, penalties, farmer payouts, margin, PRU and JCR per period, per farmer and per customer', description: 'Platform-wide figures per period of [from, to): revenue, penalties, payouts to farmers, margin, PRU and JCR, broken down per farmer and per customer; JSON, or CSV with format=csv.' })
  @Report(OperatorReportDto, 'the periods')
  @ApiProblems(401, 403, 422)
  async operator(@Query() q: RangeQuery, @Res({ passthrough: true }) res: Response) {
    const query = parseAccountingQuery(q);
    return send(res, query.format, await this.accounting.operator(query), operatorCsv);
  }

  @Get('customer/charts/:file')
  @Roles('customer')
  @ApiOperation({ operationId: 'customerRevenueChart', summary: 'The customer\'s bill per period as a chart: amounts due, penalties paid back, net', description: 'The same figures as customerAccounting, drawn per period: SVG (file .svg) or its Vega-Lite spec (file .json).' })
  @ApiQuery({ name: 'customerId', required: false, description: 'operators: the customer tenant; customers see only themselves' })
  @RangeQueries()
  @ApiChart(ACCOUNTING_CHARTS)
  @ApiProblems(401, 403, 404, 422)
  async customerChart(@CurrentPrincipal() p: Principal, @Param('file') file: string, @Query() q: RangeQuery & { customerId?: string }, @Res({ passthrough: true }) res: Response) {
    const { format } = chartFile(file, ACCOUNTING_CHARTS);
    const query = parseAccountingQuery(q);
    const id = reportSubject(p, 'customer', q.customerId, 'customerId');
    return sendChart(res, await revenueChart(this.renderer, format, customerRevenue(await this.accounting.customer(id, query))));
  }

  @Get('farmer/charts/:file')
  @Roles('farmer')
  @ApiOperation({ operationId: 'farmerRevenueChart', summary: 'The farmer\'s share earned per period and cluster as a chart', description: 'The same figures as farmerAccounting, drawn per period and cluster: SVG (file .svg) or its Vega-Lite spec (file .json).' })
  @ApiQuery({ name: 'farmerId', required: false, description: 'operators: the farmer tenant; farmers see only themselves' })
  @RangeQueries()
  @ApiChart(ACCOUNTING_CHARTS)
  @ApiProblems(401, 403, 404, 422)
  async farmerChart(@CurrentPrincipal() p: Principal, @Param('file') file: string, @Query() q: RangeQuery & { farmerId?: string }, @Res({ passthrough: true }) res: Response) {
    const { format } = chartFile(file, ACCOUNTING_CHARTS);
    const query = parseAccountingQuery(q);
    const id = reportSubject(p, 'farmer', q.farmerId, 'farmerId');
    return sendChart(res, await revenueChart(this.renderer, format, farmerRevenue(await this.accounting.farmer(id, query))));
  }

  @Get('operator/charts/:file')
  @Roles('operator')
  @ApiOperation({ operationId: 'operatorRevenueChart', summary: 'Platform revenue per period as a chart: revenue, penalties and payouts, the margin as net', description: 'The same figures as operatorAccounting, drawn per period: SVG (file .svg) or its Vega-Lite spec (file .json).' })
  @RangeQueries()
  @ApiChart(ACCOUNTING_CHARTS)
  @ApiProblems(401, 403, 404, 422)
  async operatorChart(@Param('file') file: string, @Query() q: RangeQuery, @Res({ passthrough: true }) res: Response) {
    const { format } = chartFile(file, ACCOUNTING_CHARTS);
    return sendChart(res, await revenueChart(this.renderer, format, operatorRevenue(await this.accounting.operator(parseAccountingQuery(q)))));
  }
}
