/**
 * Features of one (node, metric, target slot) row. Every feature that looks at the series reads it at
 * `base = target - lagSlots` or earlier, where lagSlots is the horizon rounded up to whole days: ONE model
 * then serves every slot of a forecast window (the farthest slot still has all its inputs), and training
 * uses each history slot once instead of once per horizon step. The price, compared with a direct
 * multi-horizon set-up (a row per origin x horizon step, with "distance from origin" as a feature), is
 * that the first hours of a window ignore the last hours of history; for a 24-hour window of a
 * daily-periodic workload most of the signal is in the same-time-of-day values, and the direct set-up
 * would multiply the rows by ~480 (or need heavy sub-sampling) - too slow for 100 nodes in seconds.
 */
import { quantile } from './quantile';
import { SECONDS_PER_DAY } from './types';

export const FEATURE_NAMES = [
  'hourOfDay', // time of day (UTC) of the target slot
  'dayOfWeek', // 0 = Sunday
  'sameSlotMean', // mean of the same slot over every past day (base, base - 1 day, ...)
  'lag', // value at base (the same slot one lag earlier)
  'lagDayBefore', // value one day before base
  'hourMax', // max over the hour ending at base
  'dayMean', // mean over the day ending at base
  'dayMax', // max over the day ending at base
  'sameSlotMax', // max of base, base - 1 day, ...
  'sameSlotMedian', // median of base, base - 1 day, ... (the slot-quantile baseline at 0.5)
  'sameSlotP90', // 0.9-quantile of base, base - 1 day, ... (type 7, as the baseline)
  'nodeMean', // the node's mean, median, p90 and p99 over its history up to the end of base's day (never
  'nodeP50', // past the target): let one pooled model serve nodes of very different levels and burstiness
  'nodeP90',
  'nodeP99',
] as const;
export const N_FEATURES = FEATURE_NAMES.length;

/** Precomputed per-series statistics that make each row O(1). */
export interface SeriesFeatures {
  /** Absolute slot number of grid index 0. */
  startSlot: number;
  slotSeconds: number;
  lagSlots: number;
  y: Float64Array;
  hourMax: Float64Array;
  dayMean: Float64Array;
  dayMax: Float64Array;
  sameMean: Float64Array;
  sameMax: Float64Array;
  sameMedian: Float64Array;
  sameP90: Float64Array;
  /**
   * Node statistics per history prefix: row k (4 values: mean, p50, p90, p99) covers grid indices
   * [0, min(n, (k + 1) * day)). A row reads the prefix ending with base's day, so training rows never see
   * statistics that include their own target (or anything after it) - at forecast time that prefix is the
   * whole history, as before.
   */
  node: Float64Array;
  /** Number of prefixes (days, the last one possibly partial). */
  prefixes: number;
  day: number;
  /** Slots per day (the same-slot lag). */
  sameDay: number;
}

/** Index of the node-statistics prefix a row whose features end at grid index base reads. */
export function prefixOf(s: SeriesFeatures, base: number): number {
  return Math.max(0, Math.min(s.prefixes - 1, Math.floor(base / s.day)));
}

/** Quantiles of y[0..end) for each prefix end (k + 1) * day, k < ceil(n / day). */
export function prefixQuantiles(y: Float64Array, day: number, qs: number[]): Float64Array[] {
  const prefixes = Math.max(1, Math.ceil(y.length / day));
  return Array.from({ length: prefixes }, (_, k) => {
    const sub = y.subarray(0, Math.min(y.length, (k + 1) * day));
    return Float64Array.from(qs, (q) => quantile(sub, q));
  });
}

export function seriesFeatures(y: Float64Array, startSlot: number, slotSeconds: number, lagSlots: number, day: number, statsDay = day): SeriesFeatures {
  const hour = Math.max(1, Math.round(3600 / slotSeconds));
  const { mean: dayMean, max: dayMax } = rolling(y, day);
  const sameMean = new Float64Array(y.length);
  const sameMax = new Float64Array(y.length);
  const sameCount = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) {
    // expanding statistics of the same time of day: a recurrence on i - day
    const prevMax = i >= day ? sameMax[i - day] : NaN;
    const prevSum = i >= day ? sameMean[i - day] * sameCount[i - day] : 0;
    const prevCount = i >= day ? sameCount[i - day] : 0;
    const v = y[i];
    const has = !Number.isNaN(v);
    const count = prevCount + (has ? 1 : 0);
    const sum = (Number.isNaN(prevSum) ? 0 : prevSum) + (has ? v : 0);
    sameCount[i] = count;
    sameMean[i] = count > 0 ? sum / count : NaN;
    sameMax[i] = has ? (Number.isNaN(prevMax) || v > prevMax ? v : prevMax) : prevMax;
  }
  // same-slot median and p90 over base, base - day, ... (a handful of values: a small sorted buffer)
  const sameMedian = new Float64Array(y.length);
  const sameP90 = new Float64Array(y.length);
  const buf: number[] = [];
  for (let i = 0; i < y.length; i++) {
    buf.length = 0;
    for (let j = i; j >= 0; j -= day) if (!Number.isNaN(y[j])) buf.push(y[j]);
    buf.sort((a, b) => a - b);
    sameMedian[i] = typeQuantileSorted(buf, 0.5);
    sameP90[i] = typeQuantileSorted(buf, 0.9);
  }
  const prefixes = Math.max(1, Math.ceil(y.length / statsDay));
  const node = new Float64Array(prefixes * 4);
  const qs = prefixQuantiles(y, statsDay, [0.5, 0.9, 0.99]);
  let sum = 0;
  let n = 0;
  for (let k = 0; k < prefixes; k++) {
    for (let i = k * statsDay; i < Math.min(y.length, (k + 1) * statsDay); i++) if (!Number.isNaN(y[i])) (sum += y[i]), n++;
    node[4 * k] = n > 0 ? sum / n : NaN;
    node.set(qs[k], 4 * k + 1);
  }
  return {
    startSlot,
    slotSeconds,
    lagSlots,
    y,
    hourMax: rolling(y, hour).max,
    dayMean,
    dayMax,
    sameMean,
    sameMax,
    sameMedian,
    sameP90,
    node,
    prefixes,
    day: statsDay,
    sameDay: day,
  };
}

/** Type-7 quantile of an ascending array (NaN when empty). */
function typeQuantileSorted(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const h = (xs.length - 1) * q;
  const lo = Math.floor(h);
  return lo + 1 < xs.length ? xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo]) : xs[lo];
}

/** Writes the features of target grid index `target` (may lie beyond the series) into out[at..]. */
export function rowFeatures(s: SeriesFeatures, target: number, day: number, out: Float64Array, at: number): void {
  const base = target - s.lagSlots;
  const seconds = (s.startSlot + target) * s.slotSeconds;
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  out[at] = (seconds - days * SECONDS_PER_DAY) / 3600;
  out[at + 1] = (((days + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  const ok = base >= 0 && base < s.y.length;
  out[at + 2] = ok ? s.sameMean[base] : NaN;
  out[at + 3] = ok ? s.y[base] : NaN;
  out[at + 4] = ok && base >= day ? s.y[base - day] : NaN;
  out[at + 5] = ok ? s.hourMax[base] : NaN;
  out[at + 6] = ok ? s.dayMean[base] : NaN;
  out[at + 7] = ok ? s.dayMax[base] : NaN;
  out[at + 8] = ok ? s.sameMax[base] : NaN;
  out[at + 9] = ok ? s.sameMedian[base] : NaN;
  out[at + 10] = ok ? s.sameP90[base] : NaN;
  const p = 4 * prefixOf(s, base);
  for (let k = 0; k < 4; k++) out[at + 11 + k] = s.node[p + k];
}

/** Trailing-window mean and max over (i - w, i], skipping NaN (NaN when the window holds none). */
export function rolling(y: Float64Array, w: number): { mean: Float64Array; max: Float64Array } {
  const n = y.length;
  const mean = new Float64Array(n);
  const max = new Float64Array(n);
  const deque = new Int32Array(n); // indices of a decreasing run of values: the window max is at the head
  let head = 0;
  let tail = 0;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = y[i];
    if (!Number.isNaN(v)) {
      sum += v;
      count++;
      while (tail > head && y[deque[tail - 1]] <= v) tail--;
      deque[tail++] = i;
    }
    const out = i - w;
    if (out >= 0 && !Number.isNaN(y[out])) {
      sum -= y[out];
      count--;
    }
    while (tail > head && deque[head] <= i - w) head++;
    mean[i] = count > 0 ? sum / count : NaN;
    max[i] = tail > head ? y[deque[head]] : NaN;
  }
  return { mean, max };
}
