/**
 * Revenue per period from an accounting report: the components as bars stacked on zero (what is earned above,
 * what is paid out or back below) and the net of each period as a point. Amounts arrive in integer minor
 * units and are drawn in the currency's major unit (cents -> euros).
 */
import { chart, ChartSpec } from './spec';

export interface PeriodAmount {
  /** Start of the period (ISO 8601). */
  periodStart: string;
  /** Which component: "revenue", "penalties", a cluster's name... */
  series: string;
  /** Integer minor units; negative for money going out. */
  amount: number;
}

export interface RevenueChartInput {
  title: string;
  currency: string;
  period: string;
  components: PeriodAmount[];
  /** The net of each period (a point over the bars), when it is not simply the sum of the components. */
  net?: { periodStart: string; amount: number }[];
}

/** Digits of the currency's minor unit (2 for EUR, 0 for JPY), as ISO 4217 says through Intl. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export function revenueSpec(input: RevenueChartInput): ChartSpec {
  const scale = 10 ** minorDigits(input.currency);
  const day = (iso: string) => iso.slice(0, 10);
  const bars = input.components.map((c) => ({ period: day(c.periodStart), series: c.series, amount: c.amount / scale }));
  const nets = (input.net ?? []).map((n) => ({ period: day(n.periodStart), series: 'net', amount: n.amount / scale }));
  const periods = [...new Set([...bars, ...nets].map((v) => v.period))].sort();
  const x = { field: 'period', type: 'ordinal', sort: periods, scale: { domain: periods }, title: `${input.period} starting (UTC)`, axis: { labelAngle: -40 } };
  const y = { field: 'amount', type: 'quantitative', title: input.currency, axis: { format: ',.2~f' } };
  return chart({
    title: { text: input.title, subtitle: periods.length ? [`per ${input.period}, in ${input.currency}${nets.length ? '; diamond: net' : ''}`] : [`no jobs count in the range: nothing to draw`] },
    width: Math.max(200, Math.min(900, periods.length * 40)),
    height: 260,
    layer: [
      {
        data: { values: bars },
        mark: { type: 'bar' },
        encoding: { x, y: { ...y, stack: 'zero' }, color: { field: 'series', type: 'nominal', scale: { scheme: 'tableau10' }, legend: { title: null } } },
      },
      { data: { values: [{ amount: 0 }] }, mark: { type: 'rule', color: '#555' }, encoding: { y: { field: 'amount', type: 'quantitative' } } },
      ...(nets.length ? [{ data: { values: nets }, mark: { type: 'point', filled: true, color: 'black', shape: 'diamond', size: 60 }, encoding: { x, y } }] : []),
    ],
  });
}
