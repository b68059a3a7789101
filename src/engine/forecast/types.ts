/**
 * Shapes shared by the forecasting engine. A history is what a monitoring system records: per node and
 * metric, timestamped utilisation fractions at a regular (but any) sampling period. A forecast has the
 * shape of an instance's `usage` field (FORMAT.md): per node and metric, one fraction per slot.
 */

/** One node-metric time series: Unix seconds (ascending, distinct) and fractions in [0, 1]. */
export interface Series {
  t: ArrayLike<number>;
  v: ArrayLike<number>;
}

/** node -> metric -> series. */
export type UsageHistory = Record<string, Record<string, Series>>;

/** node -> metric -> one fraction per slot, exactly like `instance.usage`. */
export type UsageForecast = Record<string, Record<string, number[]>>;

/** Thrown for unusable input (bad CSV line, empty history, horizon the model cannot reach). */
export class ForecastInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForecastInputError';
  }
}

export const SECONDS_PER_DAY = 86_400;

/** Slots per day, rounded: the lag unit of the daily features and baselines. */
export function slotsPerDay(slotSeconds: number): number {
  return Math.max(1, Math.round(SECONDS_PER_DAY / slotSeconds));
}
