/**
 * The forecasting builder (Cuckoo III-B): per metric and quantile, one gradient-boosted quantile model
 * pooled over every node of the cluster. Pooling gives each model 100x the rows of a per-node model
 * (a node's 99th percentile is poorly identified by one node's few days) and trains 2 x |quantiles|
 * models instead of 2 x |quantiles| x |nodes|; node-level features (features.ts) and a start value equal
 * to the node's own q-quantile let the trees model how each node deviates from its level.
 */
import { applyBinner, Binner, binCount, fitBinner } from './bins';
import { FEATURE_NAMES, N_FEATURES, prefixOf, prefixQuantiles, rowFeatures, seriesFeatures, SeriesFeatures } from './features';
import { Gbt, GbtOptions, predictGbt, trainGbt } from './gbt';
import { clamp01, quantile, quantileInPlace } from './quantile';
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
  /** At most this many bins per feature (<= 255); default 255. */
  bins?: number;
  /**
   * Conformal calibration (split conformal quantile regression, Romano et al. 2019, one-sided):
   *   'none'   the trees' forecast as is
   *   'split'  (default) rows whose target lies in the last `calibrationDays` days of the history are held
   *            out of the trees; per metric and quantile the offset c = the ceil((n + 1) q)-th smallest
   *            residual y - f over them is added to every forecast. The trees never learn from those rows,
   *            but the features of a forecast still read them (they are the history right before it).
   *   'refit'  the same offsets, then the trees are retrained on every row: the model also learns from
   *            the latest day, but the offset was measured on the other model (no longer a finite-sample
   *            guarantee) and training takes about twice as long.
   * Falls back to 'none' when the history leaves too few training rows before the calibration days.
   * On Bitbrains (bench/FORECAST.md, two held-out days) 'split' met the coverage target on 7 of 12
   * (metric, q, day) rows against 4 without calibration, and trains faster (fewer rows), at the price of
   * losing the pinball comparison on 5 rows instead of 3 (the trees do not learn from the last day).
   */
  calibration?: 'none' | 'split' | 'refit';
  /**
   * Boosting start value of a row: 'node' (default) the node's own q-quantile; 'slot' the q-quantile of
   * the same slot over the days up to base (the slot-quantile baseline), the node's when there is none.
   */
  start?: 'node' | 'slot';
  /**
   * Node statistics (features.ts) and 'node' start values from the whole history (default false), or, per
   * row, only from the history up to the end of the day its features end in (true: no training row sees
   * statistics that include its own target). On Bitbrains the prefix version was worse on both held-out
   * days: early rows get statistics of 1-2 days where forecasts get those of the whole history, a larger
   * train/forecast mismatch than the in-sample leak of one target among ~2000 slots per node.
   */
  prefixStats?: boolean;
  /** Days of calibration rows; default 1. */
  calibrationDays?: number;
}

export const DEFAULT_GBT: GbtOptions = { trees: 80, maxDepth: 4, learningRate: 0.12, subsample: 0.5, minLeaf: 100, seed: 1 };

interface NodeSeries {
  node: string;
  metric: string;
  feats: SeriesFeatures;
  /**
   * The node's own q-quantile over its history prefixes (features.ts: prefix k ends with day k), per prefix
   * and quantile: the boosting start value of a row is the one of the prefix its features read.
   */
  start: Float64Array[];
  slotStart: boolean;
  quantiles: number[];
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
  /** offsets: the calibrated shift added to each quantile's forecast (0 without calibration). */
  perMetric: Record<string, { binner: Binner; models: Gbt[]; offsets: number[]; calibrationRows: number }>;
  featureNames: readonly string[];
}

export interface QuantileForecast {
  q: number;
  usage: UsageForecast;
}

/** One boosting run: what trainGbt takes (f: the start values, consumed). Plain data: it can go to a worker thread. */
export interface GbtJob {
  bins: Uint8Array;
  nf: number;
  nb: number;
  y: Float64Array;
  f: Float64Array;
  q: number;
  options: GbtOptions;
}

/** Runs one job (what a worker thread calls). */
export function runGbtJob(j: GbtJob): Gbt {
  return trainGbt(j.bins, j.nf, j.nb, j.y, j.f, j.q, j.options);
}

/** Trains in this thread, model after model. */
export function trainForecaster(history: UsageHistory, options: ForecasterOptions): ForecastModel {
  const plan = forecasterPlan(history, options);
  let step = plan.next();
  while (!step.done) step = plan.next(step.value.map(runGbtJob));
  return step.value;
}

/**
 * The same training with a pluggable executor for the 2 x |quantiles| independent boosting runs (e.g. a
 * pool of worker threads, src/worker/forecast-build-parallel.ts): the engine stays pure and synchronous,
 * the executor returns the models in the order of the jobs. Same result as trainForecaster.
 */
export async function trainForecasterWith(history: UsageHistory, options: ForecasterOptions, run: (jobs: GbtJob[]) => Promise<Gbt[]>): Promise<ForecastModel> {
  const plan = forecasterPlan(history, options);
  let step = plan.next();
  while (!step.done) step = plan.next(await run(step.value));
  return step.value;
}

/** Feature rows, then yields the boosting jobs (once, or twice for 'refit'), receiving their models. */
function* forecasterPlan(history: UsageHistory, options: ForecasterOptions): Generator<GbtJob[], ForecastModel, Gbt[]> {
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
    feats: seriesFeatures(y, startSlot, S, lagSlots, day, o.prefixStats ? day : y.length || 1),
    start: prefixQuantiles(y, o.prefixStats ? day : y.length || 1, quantiles),
    slotStart: o.start === 'slot',
    quantiles,
  }));
  const calDays = o.calibrationDays ?? 1;
  const calibration = o.calibration ?? 'split';
  if (!(Number.isInteger(calDays) && calDays >= 1)) throw new ForecastInputError(`calibrationDays must be a positive integer, got ${calDays}`);
  // targets at grid index >= calFrom are calibration rows (when calibrating)
  const calFrom = calibration === 'none' ? Infinity : endSlot - startSlot - calDays * day;

  interface Prepared {
    metric: string;
    binner: Binner;
    bins: Uint8Array;
    nb: number;
    y: Float64Array;
    f0: Float64Array;
    n: number;
    nTrain: number;
    calibrate: boolean;
  }
  const prepared: Prepared[] = [];
  for (const metric of [...new Set(series.map((s) => s.metric))]) {
    const mine = series.filter((s) => s.metric === metric);
    // rows: every measured slot with a full lag behind it (earlier slots have no lag features at all)
    let n = 0;
    let nTrain = 0;
    for (const s of mine)
      for (let i = lagSlots; i < s.feats.y.length; i++)
        if (!Number.isNaN(s.feats.y[i])) {
          n++;
          if (i < calFrom) nTrain++;
        }
    if (n === 0)
      throw new ForecastInputError(`metric ${metric}: no slot has ${lagSlots} slots (${lagSlots / day} day(s)) of history before it; give a longer history`);
    // too few rows before the calibration days: train on everything, uncalibrated
    const calibrate = nTrain >= Math.max(2 * o.minLeaf, (n - nTrain) / 2) && nTrain < n;
    if (!calibrate) nTrain = n;
    const x = new Float64Array(n * N_FEATURES);
    const y = new Float64Array(n);
    const f0 = new Float64Array(n * quantiles.length); // start value per row and quantile
    // training rows first, then the calibration rows
    let r = 0;
    for (const pass of calibrate ? [0, 1] : [-1])
      for (const s of mine)
        for (let i = lagSlots; i < s.feats.y.length; i++) {
          if (Number.isNaN(s.feats.y[i]) || (pass === 0 && i >= calFrom) || (pass === 1 && i < calFrom)) continue;
          rowFeatures(s.feats, i, day, x, r * N_FEATURES);
          y[r] = s.feats.y[i];
          for (let qi = 0; qi < quantiles.length; qi++) f0[r * quantiles.length + qi] = startValue(s, qi, i - lagSlots);
          r++;
        }
    const binner = fitBinner(x, n, N_FEATURES, o.bins ?? 255);
    const bins = applyBinner(binner, x, n);
    const nb = Math.max(...binner.edges.map((_, f) => binCount(binner, f)));
    prepared.push({ metric, binner, bins, nb, y, f0, n, nTrain, calibrate });
  }
  const gbtOptions: GbtOptions = { trees: o.trees, maxDepth: o.maxDepth, learningRate: o.learningRate, subsample: o.subsample, minLeaf: o.minLeaf, seed: o.seed };
  const jobs = (all: boolean): GbtJob[] =>
    prepared.flatMap((p) =>
      quantiles.map((q, qi) => {
        const rows = all ? p.n : p.nTrain;
        const f = new Float64Array(rows);
        for (let k = 0; k < rows; k++) f[k] = p.f0[k * quantiles.length + qi];
        return { bins: p.bins.subarray(0, rows * N_FEATURES), nf: N_FEATURES, nb: p.nb, y: p.y.subarray(0, rows), f, q, options: { ...gbtOptions, seed: o.seed + qi } };
      }),
    );
  let models: Gbt[] = yield jobs(false);
  const nq = quantiles.length;
  const offsets = prepared.map((p, pi) =>
    quantiles.map((q, qi) => {
      if (!p.calibrate) return 0;
      const res = new Float64Array(p.n - p.nTrain);
      for (let k = p.nTrain; k < p.n; k++) res[k - p.nTrain] = p.y[k] - clamp01(p.f0[k * nq + qi] + predictGbt(models[pi * nq + qi], p.bins, k * N_FEATURES));
      return conformalQuantile(res, q);
    }),
  );
  if (calibration === 'refit' && prepared.some((p) => p.calibrate)) models = yield jobs(true);
  const perMetric: ForecastModel['perMetric'] = {};
  prepared.forEach((p, pi) => {
    perMetric[p.metric] = { binner: p.binner, models: models.slice(pi * nq, (pi + 1) * nq), offsets: offsets[pi], calibrationRows: p.calibrate ? p.n - p.nTrain : 0 };
  });
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
    const { binner, models, offsets } = model.perMetric[s.metric];
    const arrays = out.map((o) => ((o.usage[s.node] ??= {})[s.metric] = new Array<number>(horizonSlots)));
    const bins = new Uint8Array(N_FEATURES);
    for (let h = 0; h < horizonSlots; h++) {
      const target = first + h - model.startSlot;
      rowFeatures(s.feats, target, model.daySlots, x, 0);
      bins.set(applyBinner(binner, x, 1));
      const base = target - model.lagSlots;
      models.forEach((m, qi) => (vals[qi] = clamp01(clamp01(startValue(s, qi, base) + predictGbt(m, bins, 0)) + offsets[qi])));
      vals.sort((a, b) => a - b);
      arrays.forEach((a, qi) => (a[h] = vals[qi]));
    }
  }
  return out;
}

/**
 * The split-conformal level-q quantile of calibration residuals: the ceil((n + 1) q)-th smallest (the
 * largest when that exceeds n). Adding it to a forecast covers a fresh exchangeable point with probability
 * >= q (and < q + 1 / (n + 1) without ties).
 */
export function conformalQuantile(res: Float64Array, q: number): number {
  const n = res.length;
  if (n === 0) return 0;
  const k = Math.min(n, Math.ceil((n + 1) * q)) - 1;
  return quantileInPlace(res, n, n === 1 ? 0 : k / (n - 1));
}

/**
 * Where boosting starts for a row: the node's own q-quantile over its history up to the end of base's day
 * (the row's features end at grid index base; at forecast time that is the whole history). (Starting from the
 * slot-quantile baseline instead was tried: on Bitbrains it helped memory at q = 0.5 but hurt CPU at every
 * quantile, because early training rows have one or two past days where forecasts have six, so the start
 * values the trees learned to correct were not those they corrected at forecast time.)
 */
function startValue(s: NodeSeries, qi: number, base: number): number {
  if (s.slotStart && base >= 0) {
    const past: number[] = [];
    const { y, day } = { y: s.feats.y, day: s.feats.sameDay };
    for (let j = Math.min(base, y.length - 1 - ((y.length - 1 - base) % day)); j >= 0; j -= day) if (!Number.isNaN(y[j])) past.push(y[j]);
    if (past.length > 0) return quantile(past, s.quantiles[qi]);
  }
  const v = s.start[prefixOf(s.feats, base)][qi];
  return Number.isNaN(v) ? 0 : v;
}
