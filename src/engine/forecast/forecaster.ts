/**
 * The forecasting builder (Cuckoo III-B): per metric and quantile, one gradient-boosted quantile model
 * pooled over every node of the cluster. Pooling gives each model 100x the rows of a per-node model
 * (a node's 99th percentile is poorly identified by one node's few days) and trains 2 x |quantiles|
 * models instead of 2 x |quantiles| x |nodes|; node-level features (features.ts) and a start value equal
 * to the node's own q-quantile let the trees model how each node deviates from its level.
 */
import { applyBinner, Binner, binCount, fitBinner } from './bins';
import { FEATURE_NAMES, N_FEATURES, rowFeatures, seriesFeatures, SeriesFeatures } from './features';
import { Gbt, GbtOptions, predictGbt, trainGbt } from './gbt';
import { clamp01, quantile } from './quantile';
import { slotOf, toGrid } from './resample';
import { ForecastInputError, slotsPerDay, UsageForecast, UsageHistory } from './types';

export interface ForecasterOptions extends Partial<GbtOptions> {
  slotSeconds: number;
  /** Default [0.99], the level Salamander's experiments use. */
  quantiles?: number[];
  /** Longest window forecast() will be asked for; features lag by it rounded up to whole days. Default one day. */
  horizonSlots?: number;
  /** Exclusive end of the history (Unix seconds); default: the end of the slot holding the last sample. */
  until?: number;
  /** At most this many bins per feature (<= 255); default 64. */
  bins?: number;
}

export const DEFAULT_GBT: GbtOptions = { trees: 80, maxDepth: 4, learningRate: 0.12, subsample: 0.5, minLeaf: 100, seed: 1 };

interface NodeSeries {
  node: string;
  metric: string;
  feats: SeriesFeatures;
  /** The node's own q-quantile over its history, per quantile: the boosting start value. */
  start: number[];
}

export interface ForecastModel {
  slotSeconds: number;
  quantiles: number[];
  lagSlots: number;
  daySlots: number;
  /** Absolute slot numbers of the resampled history [startSlot, endSlot). */
  startSlot: number;
  endSlot: number;
  series: NodeSeries[];
  perMetric: Record<string, { binner: Binner; models: Gbt[] }>;
  featureNames: readonly string[];
}

export interface QuantileForecast {
  q: number;
  usage: UsageForecast;
}

export function trainForecaster(history: UsageHistory, options: ForecasterOptions): ForecastModel {
  const o = { ...DEFAULT_GBT, ...options };
  const S = o.slotSeconds;
  if (!(S > 0)) throw new ForecastInputError(`slotSeconds must be positive, got ${S}`);
  const quantiles = [...(o.quantiles ?? [0.99])].sort((a, b) => a - b);
  for (const q of quantiles) if (!(q > 0 && q < 1)) throw new ForecastInputError(`quantiles must lie in (0, 1), got ${q}`);
  const day = slotsPerDay(S);
  const horizon = o.horizonSlots ?? day;
  const lagSlots = Math.max(1, Math.ceil(horizon / day)) * day;

  const grid = toGrid(history, S, o.until);
  const { startSlot, endSlot } = grid;
  const series: NodeSeries[] = grid.series.map(({ node, metric, y }) => ({
    node,
    metric,
    feats: seriesFeatures(y, startSlot, S, lagSlots, day),
    start: quantiles.map((q) => quantile(y, q)),
  }));

  const perMetric: ForecastModel['perMetric'] = {};
  for (const metric of [...new Set(series.map((s) => s.metric))]) {
    const mine = series.filter((s) => s.metric === metric);
    // rows: every measured slot with a full lag behind it (earlier slots have no lag features at all)
    let n = 0;
    for (const s of mine) for (let i = lagSlots; i < s.feats.y.length; i++) if (!Number.isNaN(s.feats.y[i])) n++;
    if (n === 0)
      throw new ForecastInputError(`metric ${metric}: no slot has ${lagSlots} slots (${lagSlots / day} day(s)) of history before it; give a longer history`);
    const x = new Float64Array(n * N_FEATURES);
    const y = new Float64Array(n);
    const owner = new Uint32Array(n);
    let r = 0;
    mine.forEach((s, si) => {
      for (let i = lagSlots; i < s.feats.y.length; i++) {
        if (Number.isNaN(s.feats.y[i])) continue;
        rowFeatures(s.feats, i, day, x, r * N_FEATURES);
        y[r] = s.feats.y[i];
        owner[r++] = si;
      }
    });
    const binner = fitBinner(x, n, N_FEATURES, o.bins ?? 64);
    const bins = applyBinner(binner, x, n);
    const nb = Math.max(...binner.edges.map((_, f) => binCount(binner, f)));
    const models = quantiles.map((q, qi) => {
      const f = new Float64Array(n);
      for (let k = 0; k < n; k++) f[k] = startValue(mine[owner[k]], qi);
      return trainGbt(bins, N_FEATURES, nb, y, f, q, { ...o, seed: o.seed + qi });
    });
    perMetric[metric] = { binner, models };
  }
  return { slotSeconds: S, quantiles, lagSlots, daySlots: day, startSlot, endSlot, series, perMetric, featureNames: FEATURE_NAMES };
}

/**
 * Forecasts horizonSlots slots starting with the slot that holds fromTimestamp (default: the first slot
 * after the history), one usage map per quantile of the model, clamped to [0, 1] and non-decreasing in q
 * (separately trained quantile models can cross; sorting per slot - "rearrangement" - fixes that and
 * never increases the pinball loss).
 */
export function forecast(model: ForecastModel, fromTimestamp: number | undefined, horizonSlots: number): QuantileForecast[] {
  const first = fromTimestamp === undefined ? model.endSlot : slotOf(fromTimestamp, model.slotSeconds);
  const lastNeeded = first + horizonSlots - 1 - model.lagSlots;
  if (lastNeeded >= model.endSlot)
    throw new ForecastInputError(
      `the model was trained for windows of up to ${model.lagSlots} slots after its history; ` +
        `slot ${first + horizonSlots - 1} needs history up to slot ${lastNeeded}, which it does not have (train with a larger horizonSlots)`,
    );
  const out: QuantileForecast[] = model.quantiles.map((q) => ({ q, usage: {} }));
  const x = new Float64Array(N_FEATURES);
  const vals = new Array<number>(model.quantiles.length);
  for (const s of model.series) {
    const { binner, models } = model.perMetric[s.metric];
    const arrays = out.map((o) => ((o.usage[s.node] ??= {})[s.metric] = new Array<number>(horizonSlots)));
    const bins = new Uint8Array(N_FEATURES);
    for (let h = 0; h < horizonSlots; h++) {
      rowFeatures(s.feats, first + h - model.startSlot, model.daySlots, x, 0);
      bins.set(applyBinner(binner, x, 1));
      models.forEach((m, qi) => (vals[qi] = clamp01(startValue(s, qi) + predictGbt(m, bins, 0))));
      vals.sort((a, b) => a - b);
      arrays.forEach((a, qi) => (a[h] = vals[qi]));
    }
  }
  return out;
}

/**
 * Where boosting starts for a row: the node's own q-quantile over its history. (Starting from the
 * slot-quantile baseline instead was tried: on Bitbrains it helped memory at q = 0.5 but hurt CPU at every
 * quantile, because early training rows have one or two past days where forecasts have six, so the start
 * values the trees learned to correct were not those they corrected at forecast time.)
 */
function startValue(s: NodeSeries, qi: number): number {
  return Number.isNaN(s.start[qi]) ? 0 : s.start[qi];
}
