/**
 * How far what the regular customers used strayed from the forecast a plan was made on (issue 39, automatic
 * re-planning on a forecast miss). Pure: the service reads the samples and the forecast.
 */

/** One usage sample as a farmer posts it (POST /v1/clusters/{id}/usage): a utilisation fraction of a node's metric at an instant. */
export interface UsagePoint {
  node: string;
  metric: string;
  tsMs: number;
  value: number;
}

/** A forecast on the wall clock: slot t stands for [startsAtMs + t * slotSeconds, + slotSeconds); missing node, metric or slot = 0. */
export interface ForecastOnClock {
  startsAtMs: number;
  slotSeconds: number;
  slots: number;
  usage: Record<string, Record<string, number[]>>;
}

export interface ForecastMiss {
  /** Mean over the samples of |actual - forecast|, both fractions of capacity: 0 a perfect forecast, 1 the worst. */
  miss: number;
  /** The samples it is the mean of. */
  samples: number;
}

/**
 * The mean absolute miss of a forecast over the samples in (fromMs, toMs]: each sample's value against the
 * forecast's value for its node and metric in the slot its instant falls in. Samples outside the forecast's
 * slots say nothing about it and are left out; `forecast` null stands for a plan made on idle nodes (a
 * forecast of 0 everywhere, at every instant). Null when no sample counts.
 */
export function forecastMiss(points: readonly UsagePoint[], forecast: ForecastOnClock | null, fromMs: number, toMs: number): ForecastMiss | null {
  let sum = 0;
  let n = 0;
  for (const p of points) {
    if (!(p.tsMs > fromMs && p.tsMs <= toMs)) continue;
    let predicted = 0;
    if (forecast) {
      const slot = Math.floor((p.tsMs - forecast.startsAtMs) / (forecast.slotSeconds * 1000));
      if (slot < 0 || slot >= forecast.slots) continue;
      predicted = forecast.usage[p.node]?.[p.metric]?.[slot] ?? 0;
    }
    sum += Math.abs(p.value - predicted);
    n++;
  }
  return n ? { miss: sum / n, samples: n } : null;
}
