/**
 * Resampling a series onto the slot grid of the scheduler (slot k = [k*S, (k+1)*S) in Unix seconds,
 * aligned to the epoch so that time-of-day features mean the same thing for every node).
 *
 * Aggregation is the MAX of the samples overlapping a slot, not the mean: the scheduler treats a slot's
 * available capacity as constant over the whole slot, so the forecast for that slot must cover the peak
 * inside it. A mean would hide a 5-minute burst inside a 15-minute slot and the ephemeral tasks placed
 * there would collide with it. Each sample is taken to hold from its timestamp until the next sample (at
 * most one sampling period), which handles both down-sampling (several samples per slot) and up-sampling
 * (a 5-minute sample spans two 3-minute slots). Slots that no sample covers (gaps in monitoring) are NaN.
 */
import { ForecastInputError, Series, UsageHistory } from './types';

/** The sampling period: the median gap between consecutive timestamps (robust to a few gaps). */
export function inferPeriod(t: ArrayLike<number>, fallback: number): number {
  if (t.length < 2) return fallback;
  const gaps: number[] = [];
  for (let i = 1; i < t.length; i++) gaps.push(t[i] - t[i - 1]);
  gaps.sort((a, b) => a - b);
  const g = gaps[gaps.length >> 1];
  return g > 0 ? g : fallback;
}

/** Max per slot over slots [startSlot, endSlot) (absolute slot numbers); NaN where nothing was measured. */
export function resampleMax(series: Series, slotSeconds: number, startSlot: number, endSlot: number): Float64Array {
  const n = Math.max(0, endSlot - startSlot);
  const out = new Float64Array(n).fill(NaN);
  const { t, v } = series;
  const period = inferPeriod(t, slotSeconds);
  for (let i = 0; i < t.length; i++) {
    const from = t[i];
    // until the next sample, but a gap longer than one period stays unmeasured
    const to = i + 1 < t.length ? Math.min(t[i + 1], from + period) : from + period;
    const first = Math.floor(from / slotSeconds) - startSlot;
    const last = Math.ceil(to / slotSeconds) - 1 - startSlot;
    const value = v[i];
    for (let k = Math.max(0, first); k <= Math.min(n - 1, last); k++) {
      const cur = out[k];
      if (!(cur >= value)) out[k] = value; // NaN compares false: the first sample sets the slot
    }
  }
  return out;
}

/** The absolute slot of a timestamp. */
export function slotOf(timestamp: number, slotSeconds: number): number {
  return Math.floor(timestamp / slotSeconds);
}

/** First and last timestamps over a whole history (throws nothing: NaN pair when empty). */
export function timeRange(series: Iterable<Series>): { first: number; last: number } {
  let first = Infinity;
  let last = -Infinity;
  for (const s of series) {
    if (s.t.length === 0) continue;
    first = Math.min(first, s.t[0]);
    last = Math.max(last, s.t[s.t.length - 1]);
  }
  return { first, last };
}

export interface Grid {
  /** Absolute slot numbers covered: [startSlot, endSlot). */
  startSlot: number;
  endSlot: number;
  series: { node: string; metric: string; y: Float64Array }[];
}

/**
 * Every series of a history on one common grid, from the slot of the first sample to `until` (exclusive,
 * Unix seconds; default: the end of the slot holding the last sample).
 */
export function toGrid(history: UsageHistory, slotSeconds: number, until?: number): Grid {
  const { first, last } = timeRange(Object.values(history).flatMap((m) => Object.values(m)));
  if (!Number.isFinite(first)) throw new ForecastInputError('the history holds no samples');
  const startSlot = slotOf(first, slotSeconds);
  const endSlot = until !== undefined ? Math.ceil(until / slotSeconds) : slotOf(last, slotSeconds) + 1;
  if (endSlot <= startSlot) throw new ForecastInputError('the history ends before it begins (check "until")');
  const series: Grid['series'] = [];
  for (const [node, metrics] of Object.entries(history))
    for (const [metric, s] of Object.entries(metrics)) series.push({ node, metric, y: resampleMax(s, slotSeconds, startSlot, endSlot) });
  return { startSlot, endSlot, series };
}
