/**
 * How far what the regular customers used strayed from the forecast a plan was made on (issue 39, automatic
 * re-planning on a forecast miss). Pure: the service reads the usage and the forecast.
 *
 * A forecast gives one utilisation fraction per node, metric and slot, and a plan counts it as taken for the
 * whole slot (available = C x (1 - U - S)); forecast builds learn it from each slot's largest sample
 * (resample.ts, resampleMax). So what a slot really used is the largest sample posted in it, and the miss is
 * the mean, over the node-metric-slots with a sample, of |that - the forecast|.
 */

/** The largest usage sample a farmer posted for a node's metric within one slot of the forecast's grid. */
export interface SlotPeak {
  node: string;
  metric: string;
  /** The forecast's slot: [startsAt + slot x slotSeconds, + slotSeconds). */
  slot: number;
  /** A fraction of the node's capacity. */
  peak: number;
}

export interface ForecastMiss {
  /** Mean over the node-metric-slots of |actual - forecast|, both fractions of capacity: 0 a perfect forecast, 1 the worst. */
  miss: number;
  /** The node-metric-slots it is the mean of. */
  slots: number;
}

/**
 * The mean absolute miss of a forecast against what the slots really used. Slots outside the forecast say
 * nothing about it and are left out; a node or metric the forecast leaves out was forecast 0 (docs/FORMAT.md);
 * `forecast` null stands for a plan made on idle nodes (0 everywhere, at every slot). Null when no slot counts.
 */
export function forecastMiss(peaks: readonly SlotPeak[], forecast: { slots: number; usage: Record<string, Record<string, number[]>> } | null): ForecastMiss | null {
  let sum = 0;
  let n = 0;
  for (const p of peaks) {
    if (forecast && (p.slot < 0 || p.slot >= forecast.slots)) continue;
    const predicted = forecast ? (Object.hasOwn(forecast.usage, p.node) ? forecast.usage[p.node][p.metric]?.[p.slot] ?? 0 : 0) : 0;
    sum += Math.abs(p.peak - predicted);
    n++;
  }
  return n ? { miss: sum / n, slots: n } : null;
}
