/**
 * Revenue per period of each accounting report, as the components of src/charts/revenue.ts: what comes in above
 * zero, what goes out (penalties paid back, farmers' payouts) below, and the period's net as a point.
 */
import type { ChartFormat } from '../../charts/charts';
import { PeriodAmount, RevenueChartInput } from '../../charts/revenue';
import type { ChartRenderer } from '../charts/chart-renderer';
import type { ChartBody } from '../common/chart-response';
import type { CustomerReportDto, FarmerReportDto, OperatorReportDto } from './accounting.dto';

export const ACCOUNTING_CHARTS = ['revenue'] as const;

export function customerRevenue(r: CustomerReportDto): RevenueChartInput {
  const components: PeriodAmount[] = r.bills.flatMap((b) => [
    { periodStart: b.periodStart, series: 'amount due', amount: b.amountDue },
    { periodStart: b.periodStart, series: 'penalties paid back', amount: -b.penalties },
  ]);
  return { title: `Bill per period of customer ${r.customerId} (basis ${r.basis})`, currency: r.currency, period: r.period, components, net: r.bills.map((b) => ({ periodStart: b.periodStart, amount: b.net })) };
}

/** A farmer earns its share per cluster: one bar segment per cluster. */
export function farmerRevenue(r: FarmerReportDto): RevenueChartInput {
  const components: PeriodAmount[] = r.clusters.map((c) => ({ periodStart: c.periodStart, series: c.clusterName, amount: c.shareEarned }));
  return { title: `Share earned per period by farmer ${r.farmerId} (basis ${r.basis})`, currency: r.currency, period: r.period, components };
}

export function operatorRevenue(r: OperatorReportDto): RevenueChartInput {
  const components: PeriodAmount[] = r.periods.flatMap((p) => [
    { periodStart: p.periodStart, series: 'revenue', amount: p.revenue },
    { periodStart: p.periodStart, series: 'penalties', amount: -p.penalties },
    { periodStart: p.periodStart, series: 'farmer payouts', amount: -p.payouts },
  ]);
  return { title: `Platform revenue per period (basis ${r.basis}); net = margin`, currency: r.currency, period: r.period, components, net: r.periods.map((p) => ({ periodStart: p.periodStart, amount: p.margin })) };
}

/** The chart of one report, made on the chart threads: its Vega-Lite spec, or that spec rendered (reports change with every event: not cached). */
export async function revenueChart(renderer: ChartRenderer, format: ChartFormat, input: RevenueChartInput): Promise<ChartBody> {
  const text = await renderer.make(async () => ({ kind: 'revenue', format, input }));
  return format === 'json' ? { format, json: text } : { format, svg: text };
}
