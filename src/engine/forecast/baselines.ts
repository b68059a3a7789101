/**
 * The simple forecasts every GBT forecast is compared with (all on the same max-per-slot grid):
 *   last-day       the same slot one day earlier (or the latest earlier day that has it)
 *   slot-quantile  the empirical q-quantile of the same slot over every past day
 *   max            the history's maximum, flat over the window (what a static reservation would use)
 * With no usable past value a slot falls back to the history's q-quantile.
 */
import { clamp01, quantile } from './quantile';
import { slotOf, toGrid } from './resample';
import { slotsPerDay, UsageForecast, UsageHistory } from './types';

export const BASELINES = ['last-day', 'slot-quantile', 'max'] as const;
export type BaselineKind = (typeof BASELINES)[number];

export interface BaselineOptions {
  q: number;
  slotSeconds: number;
  horizonSlots: number;
  /** First forecast slot is the one holding this timestamp; default the slot after the history. */
  from?: number;
  /** Exclusive end of the history used (Unix seconds). */
  until?: number;
}

export function baselineForecast(kind: BaselineKind, history: UsageHistory, o: BaselineOptions): UsageForecast {
  const grid = toGrid(history, o.slotSeconds, o.until);
  const day = slotsPerDay(o.slotSeconds);
  const first = o.from === undefined ? grid.endSlot : slotOf(o.from, o.slotSeconds);
  const out: UsageForecast = {};
  for (const { node, metric, y } of grid.series) {
    const fallback = quantile(y, o.q);
    const max = quantile(y, 1);
    const values = new Array<number>(o.horizonSlots);
    const past: number[] = [];
    for (let h = 0; h < o.horizonSlots; h++) {
      const s = first + h - grid.startSlot; // grid index of the forecast slot
      let v = NaN;
      if (kind === 'max') v = max;
      else {
        past.length = 0;
        for (let i = s - day; i >= 0; i -= day) {
          if (i >= y.length || Number.isNaN(y[i])) continue;
          past.push(y[i]);
          if (kind === 'last-day') break;
        }
        v = past.length === 0 ? NaN : kind === 'last-day' ? past[0] : quantile(past, o.q);
      }
      values[h] = clamp01(Number.isNaN(v) ? fallback : v);
    }
    (out[node] ??= {})[metric] = values;
  }
  return out;
}
