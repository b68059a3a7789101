/**
 * The forecasting builder (Cuckoo III-B): per metric and quantile, one gradient-boosted quantile model
 * pooled over every node of the cluster. Pooling gives each model 100x the rows of a per-node model
 * (a node's 99th percentile is poorly identified by one node's few days) and trains 2 x |quantiles|
 * models instead of 2 x |quantiles| x |nodes|; node-level features (features.ts) and a start value equal
 * to the node's own q-quantile let the trees model how each node deviates from its level.
 * The last training day calibrates (all decided on training data, never on the forecast window): it
 * stops each boosting run early, weighs the trees against the baselines (stacking.ts) and sets the
 * conformal offset of every metric and quantile.
 */
import { applyBinner, Binner, binCount, binRow, fitBinner } from './bins';
import { FEATURE_NAMES, N_FEATURES, prefixOf, prefixQuantiles, rowFeatures, seriesFeatures, SeriesFeatures } from './features';
import { Gbt, GbtOptions, predictGbt, trainGbt } from './gbt';
import { checkHeadroom, Headroom, headroomOf, raise } from './headroom';
import { clamp01, quantile } from './quantile';
import { Blend, chooseBlend, conformalOffset, NO_BLEND, slotQuantile } from './stacking';
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
   *   'refit'  the same offsets and stacking weights, then the trees are retrained on every row (as many
   *            as early stopping kept): the model also learns from the latest day, but the offset was
   *            measured on the other model (no longer a finite-sample guarantee) and training takes longer.
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
  /**
   * Early stopping on the calibration rows (default true when calibrating): each model keeps the number
   * of trees with the lowest pinball loss there, and stops boosting after `patience` trees without a new best.
   */
  earlyStopping?: boolean;
  /**
   * Stacking with the baselines (default true when calibrating; stacking.ts): per metric and quantile the
   * forecast is w_gbt gbt + w_slot slot-quantile + w_max max + offset, the weights (a grid on the simplex)
   * and the conformal offset chosen together on the calibration rows only.
   */
  stacking?: boolean;
  /**
   * Node statistics and start values of every training and calibration row from the history before the
   * calibration days (forecasts: the whole history) instead of the whole history (default false). Keeps
   * the calibration rows' own targets out of their statistics, but measured on both Bitbrains hold-outs
   * it beat every baseline on 8 of the 12 (metric, q, day) rows against 10 (e.g. CPU q = 0.5 day 6
   * 0.0295 -> 0.0423): with the
   * whole-history statistics the calibration day rates the node's own whole-history quantile fairly,
   * which is what forecasts start from.
   */
  statsBeforeCalibration?: boolean;
  /** Share of the training rows (before the calibration days) the trees see; default DEFAULT_ROW_FRACTION. */
  rowFraction?: number;
  /** Features the trees may use (names from FEATURE_NAMES); default defaultFeatures(days of history). */
  features?: readonly string[];
  /**
   * Units of the conformal offset (and of the residuals the stacking weights are chosen on):
   *   'node' (default) normalised split conformal: each calibration residual is divided by its node's own
   *          spread, max(SCALE_FLOOR, p99 - p50 of the node's history) (nodeScale), the offset is the
   *          conformal quantile of those, and each node's forecast moves by the offset times its spread;
   *   'none' one offset in fractions of capacity for every node (the builder before issue 25).
   * Why (bench/FORECAST.md, rolling origin over every Bitbrains VM and day): one absolute offset is a
   * quantile of the residuals of every node pooled, so the bursty nodes' residuals (p99 - p50 up to 1)
   * set the shift added to nodes whose whole range is a few tenths of a point, and mostly idle VMs were
   * forecast above the same slot's past maximum at q = 0.9. Dividing the trees' targets by the spread as
   * well was measured and not kept: an idle node's rare spike becomes a residual of tens of its spreads,
   * and the leaves it shares with bursty nodes (uncalibrated, with two days of history) push those to 1.
   */
  calibrationScale?: 'node' | 'none';
}

/**
 * The smallest spread calibrationScale divides by (a fraction of capacity): a node that never moved (spread
 * 0) would otherwise turn any pooled shift into an infinite one. 0.5 point of capacity is about the
 * resolution of the utilisation traces' quiet VMs (Bitbrains CPU moves in steps of 0.1-0.2 point).
 */
export const SCALE_FLOOR = 0.005;

/** A node's spread for calibrationScale: p99 - p50 of its values, at least SCALE_FLOOR (NaN values skipped). */
export function nodeScale(y: ArrayLike<number>): number {
  const p50 = quantile(y, 0.5);
  const p99 = quantile(y, 0.99);
  const spread = p99 - p50;
  return spread > SCALE_FLOOR ? spread : SCALE_FLOOR;
}

export const DEFAULT_GBT: GbtOptions = { trees: 50, maxDepth: 4, learningRate: 0.2, subsample: 0.5, minLeaf: 100, seed: 1, patience: 15 };

export const DEFAULT_ROW_FRACTION = 0.5;

/** Every feature of features.ts. */
export const DEFAULT_FEATURES: readonly string[] = FEATURE_NAMES;

/** Days of history from which the trees may use the day of the week (each weekday seen at least twice). */
export const WEEKDAY_MIN_DAYS = 14;

/**
 * The default features for a history of `days` days: all of them, but the day of the week only from
 * WEEKDAY_MIN_DAYS on. With under two weeks a forecast day's weekday was seen once in training or never
 * (a weekend after a working week), so a split on it memorises one day instead of a weekly pattern.
 * Measured on the two Bitbrains hold-outs (6 and 5 days): median loss on day 5 CPU 0.0760 -> 0.0561 and
 * memory 0.0235 -> 0.0186; the other rows within a few percent either way.
 */
export function defaultFeatures(days: number): readonly string[] {
  return days >= WEEKDAY_MIN_DAYS ? DEFAULT_FEATURES : DEFAULT_FEATURES.filter((name) => name !== 'dayOfWeek');
}

interface NodeSeries {
  node: string;
  metric: string;
  feats: SeriesFeatures;
  /**
   * The node's own q-quantile over its history prefixes (features.ts: prefix k ends with day k), per prefix
   * and quantile: the boosting start value of a row is the one of the prefix its features read.
   */
  start: Float64Array[];
  /** Per prefix (as start): the node's spread (nodeScale) when calibrationScale is 'node', else 1. */
  scale: Float64Array;
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
  /**
   * offsets: the calibrated shift of each quantile's forecast, in units of each node's spread
   * (calibrationScale; 0 without calibration); blends: per quantile, the weights of the GBT and the
   * baselines (NO_BLEND: the GBT alone).
   */
  perMetric: Record<string, { binner: Binner; models: Gbt[]; offsets: number[]; blends: Blend[]; trainingRows: number; calibrationRows: number }>;
  /** The features the trees use, and their columns in features.ts's rows. */
  featureNames: readonly string[];
  featureColumns: number[];
}

export interface ForecastOptions {
  /** Safety offset per metric or for all, never raising a forecast above the node's history maximum (headroom.ts). */
  headroom?: Headroom;
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
  /** Rows from here on only decide early stopping (absent: every row trains). */
  validFrom?: number;
}

/** Runs one job (what a worker thread calls). */
export function runGbtJob(j: GbtJob): Gbt {
  return trainGbt(j.bins, j.nf, j.nb, j.y, j.f, j.q, j.options, j.validFrom);
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

/**
 * The GBT's lag: whole days covering the horizon, since a slot's features read the history that far back. A
 * training row is a measured slot with that much history before it, so a history must span more than this
 * many slots (on the slot grid) to train at all; the API refuses a build with less (forecast-builds).
 */
export function gbtLagSlots(horizonSlots: number, slotSeconds: number): number {
  const day = slotsPerDay(slotSeconds);
  return Math.max(1, Math.ceil(horizonSlots / day)) * day;
}

/** Feature rows, then yields the boosting jobs (once, or twice for 'refit'), receiving their models. */
function* forecasterPlan(history: UsageHistory, options: ForecasterOptions): Generator<GbtJob[], ForecastModel, Gbt[]> {
  const o = { ...DEFAULT_GBT, ...options };
  const S = o.slotSeconds;
  if (!(S > 0)) throw new ForecastInputError(`slotSeconds must be positive, got ${S}`);
  const quantiles = [...(o.quantiles ?? [0.99])].sort((a, b) => a - b);
  for (const q of quantiles) if (!(q > 0 && q < 1)) throw new ForecastInputError(`quantiles must lie in (0, 1), got ${q}`);
  const day = slotsPerDay(S);
  const lagSlots = gbtLagSlots(o.horizonSlots ?? day, S);

  const grid = toGrid(history, S, o.until);
  const { startSlot, endSlot } = grid;
  const calDays = o.calibrationDays ?? 1;
  const calibration = o.calibration ?? 'split';
  if (!(Number.isInteger(calDays) && calDays >= 1)) throw new ForecastInputError(`calibrationDays must be a positive integer, got ${calDays}`);
  // targets at grid index >= calFrom are calibration rows (when calibrating)
  const calFrom = calibration === 'none' ? Infinity : endSlot - startSlot - calDays * day;
  // statsBeforeCalibration: node statistics of training and calibration rows from the history before the
  // calibration days only (forecasts: the whole history)
  // (features.ts: prefix k of the statistics covers [0, (k + 1) span); rows read the prefix of their base)
  const statsBefore = calFrom >= day && o.statsBeforeCalibration === true ? calFrom : 0;
  const statsSpan = (len: number) => (statsBefore > 0 && 2 * statsBefore >= len ? statsBefore : len || 1);
  const series: NodeSeries[] = grid.series.map(({ node, metric, y }) => ({
    node,
    metric,
    feats: seriesFeatures(y, startSlot, S, lagSlots, day, o.prefixStats ? day : statsSpan(y.length)),
    start: prefixQuantiles(y, o.prefixStats ? day : statsSpan(y.length), quantiles),
    scale: prefixScales(y, o.prefixStats ? day : statsSpan(y.length), o.calibrationScale ?? 'node'),
    slotStart: o.start === 'slot',
    quantiles,
  }));
  const featureNames = o.features ?? defaultFeatures((endSlot - startSlot) / day);
  const columns = featureNames.map((name) => {
    const c = FEATURE_NAMES.indexOf(name as (typeof FEATURE_NAMES)[number]);
    if (c < 0) throw new ForecastInputError(`unknown feature "${name}" (known: ${FEATURE_NAMES.join(', ')})`);
    return c;
  });
  const nf = columns.length;
  const row = new Float64Array(N_FEATURES);
  // A fixed share of the training rows (a seeded hash of series and slot, so both passes below agree):
  // on a grid finer than the sampling period neighbouring slots are near copies of one another, and
  // every row costs a tree walk per tree. Calibration rows are all kept.
  const rowFraction = Math.min(1, o.rowFraction ?? DEFAULT_ROW_FRACTION);
  if (!(rowFraction > 0)) throw new ForecastInputError(`rowFraction must lie in (0, 1], got ${o.rowFraction}`);
  const keepBelow = Math.round(rowFraction * 4294967296);
  const keepRow = (series: number, slot: number) => rowFraction >= 1 || hashU32(series, slot, o.seed) < keepBelow;

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
    /** Per calibration row (from nTrain on): the baselines as they would have forecast it, per quantile / once. */
    calSlot: Float64Array;
    calMax: Float64Array;
    /** Per calibration row (from nTrain on): its node's spread, the unit of its conformal residual. */
    calScale: Float64Array;
  }
  const prepared: Prepared[] = [];
  for (const metric of [...new Set(series.map((s) => s.metric))]) {
    const mine = series.filter((s) => s.metric === metric);
    // rows: every measured slot with a full lag behind it (earlier slots have no lag features at all)
    let slots = 0;
    let slotsBefore = 0;
    for (const s of mine)
      for (let i = lagSlots; i < s.feats.y.length; i++)
        if (!Number.isNaN(s.feats.y[i])) {
          slots++;
          if (i < calFrom) slotsBefore++;
        }
    if (slots === 0)
      throw new ForecastInputError(`metric ${metric}: no slot has ${lagSlots} slots (${lagSlots / day} day(s)) of history before it; give a longer history`);
    // too few slots before the calibration days: train on everything, uncalibrated
    const calibrate = slotsBefore >= Math.max(2 * o.minLeaf, (slots - slotsBefore) / 2) && slotsBefore < slots;
    const trains = (si: number, i: number) => (!calibrate || i < calFrom) && keepRow(si, i);
    const isRow = (si: number, i: number) => (calibrate && i >= calFrom) || trains(si, i);
    let n = 0;
    let nTrain = 0;
    mine.forEach((s, si) => {
      for (let i = lagSlots; i < s.feats.y.length; i++)
        if (!Number.isNaN(s.feats.y[i]) && isRow(si, i)) {
          n++;
          if (trains(si, i)) nTrain++;
        }
    });
    const nq = quantiles.length;
    const x = new Float64Array(n * nf);
    const y = new Float64Array(n);
    const f0 = new Float64Array(n * nq); // start value per row and quantile
    const calSlot = new Float64Array((n - nTrain) * nq);
    const calMax = new Float64Array(n - nTrain);
    const calScale = new Float64Array(n - nTrain);
    // training rows first, then the calibration rows
    let r = 0;
    for (const pass of calibrate ? [0, 1] : [-1])
      mine.forEach((s, si) => {
        // the max baseline on the calibration days: the history before them
        const maxBefore = pass === 1 ? historyMax(s.feats.y, calFrom) : NaN;
        for (let i = lagSlots; i < s.feats.y.length; i++) {
          if (Number.isNaN(s.feats.y[i]) || !isRow(si, i) || (pass === 0 && i >= calFrom) || (pass === 1 && i < calFrom)) continue;
          rowFeatures(s.feats, i, day, row, 0);
          for (let c = 0; c < nf; c++) x[r * nf + c] = row[columns[c]];
          y[r] = s.feats.y[i];
          for (let qi = 0; qi < nq; qi++) f0[r * nq + qi] = startValue(s, qi, i - lagSlots);
          if (pass === 1) {
            const k = r - nTrain;
            calMax[k] = maxBefore;
            calScale[k] = scaleOf(s, i - lagSlots);
            for (let qi = 0; qi < nq; qi++) calSlot[k * nq + qi] = slotQuantile(s.feats.y, i, day, quantiles[qi], s.start[s.start.length - 1][qi]);
          }
          r++;
        }
      });
    const binner = fitBinner(x, n, nf, o.bins ?? 255);
    const bins = applyBinner(binner, x, n);
    const nb = Math.max(...binner.edges.map((_, f) => binCount(binner, f)));
    prepared.push({ metric, binner, bins, nb, y, f0, n, nTrain, calibrate, calSlot, calMax, calScale });
  }
  const gbtOptions: GbtOptions = {
    trees: o.trees,
    maxDepth: o.maxDepth,
    learningRate: o.learningRate,
    subsample: o.subsample,
    minLeaf: o.minLeaf,
    seed: o.seed,
    patience: o.patience,
  };
  const earlyStopping = o.earlyStopping ?? true;
  // refit: as many trees as early stopping kept for the same metric and quantile
  const jobs = (all: boolean, trees?: number[]): GbtJob[] =>
    prepared.flatMap((p, pi) =>
      quantiles.map((q, qi) => {
        // with early stopping the calibration rows travel along as validation rows (never trained on)
        const validate = !all && p.calibrate && earlyStopping;
        const rows = all || validate ? p.n : p.nTrain;
        const f = new Float64Array(rows);
        for (let k = 0; k < rows; k++) f[k] = p.f0[k * quantiles.length + qi];
        const job: GbtJob = { bins: p.bins.subarray(0, rows * nf), nf, nb: p.nb, y: p.y.subarray(0, rows), f, q, options: { ...gbtOptions, trees: trees?.[pi * quantiles.length + qi] ?? gbtOptions.trees, seed: o.seed + qi } };
        if (validate) job.validFrom = p.nTrain;
        return job;
      }),
    );
  let models: Gbt[] = yield jobs(false);
  const nq = quantiles.length;
  const stacking = o.stacking ?? true;
  const calibrated = prepared.map((p, pi) =>
    quantiles.map((q, qi) => {
      if (!p.calibrate) return { offset: 0, blend: NO_BLEND };
      const m = p.n - p.nTrain;
      const gbt = new Float64Array(m);
      for (let k = 0; k < m; k++) gbt[k] = clamp01(p.f0[(p.nTrain + k) * nq + qi] + predictGbt(models[pi * nq + qi], p.bins, (p.nTrain + k) * nf));
      const slot = p.calSlot.filter((_, j) => j % nq === qi);
      return chooseBlend(p.y.subarray(p.nTrain), gbt, slot, p.calMax, q, stacking, p.calScale);
    }),
  );
  if (calibration === 'refit' && prepared.some((p) => p.calibrate)) models = yield jobs(
      true,
      models.map((m) => (earlyStopping ? m.trees.length : o.trees)),
    );
  const perMetric: ForecastModel['perMetric'] = {};
  prepared.forEach((p, pi) => {
    perMetric[p.metric] = {
      binner: p.binner,
      models: models.slice(pi * nq, (pi + 1) * nq),
      offsets: calibrated[pi].map((c) => c.offset),
      blends: calibrated[pi].map((c) => c.blend),
      trainingRows: p.nTrain,
      calibrationRows: p.calibrate ? p.n - p.nTrain : 0,
    };
  });
  return { slotSeconds: S, quantiles, lagSlots, daySlots: day, startSlot, endSlot, series, perMetric, featureNames, featureColumns: columns };
}

/** nodeScale of each history prefix (as prefixQuantiles: prefix k ends with day k); all 1 for 'none'. */
function prefixScales(y: Float64Array, day: number, kind: 'node' | 'none'): Float64Array {
  const prefixes = Math.max(1, Math.ceil(y.length / day));
  return Float64Array.from({ length: prefixes }, (_, k) => (kind === 'none' ? 1 : nodeScale(y.subarray(0, Math.min(y.length, (k + 1) * day)))));
}

/** The offset's unit for a row whose features end at grid index base (the prefix its start value reads). */
function scaleOf(s: NodeSeries, base: number): number {
  return s.scale[prefixOf(s.feats, base)];
}

/** A well-mixed 32-bit hash of three integers (murmur3's finaliser over a combination of them). */
function hashU32(a: number, b: number, seed: number): number {
  let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b) ^ Math.imul(seed, 0xc2b2ae35)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Max of y[0..end) (NaN skipped; 0 when none). */
function historyMax(y: Float64Array, end: number): number {
  let m = 0;
  for (let i = 0; i < Math.min(end, y.length); i++) if (y[i] > m) m = y[i];
  return m;
}

/**
 * Forecasts horizonSlots slots starting with the slot that holds fromTimestamp (default: the first slot
 * after the history), one usage map per quantile of the model, clamped to [0, 1] and non-decreasing in q
 * (separately trained quantile models can cross; sorting per slot - "rearrangement" - fixes that and
 * never increases the pinball loss).
 */
export function forecast(model: ForecastModel, fromTimestamp: number | undefined, horizonSlots: number, options: ForecastOptions = {}): QuantileForecast[] {
  if (options.headroom !== undefined) checkHeadroom(options.headroom);
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
  const columns = model.featureColumns;
  const bins = new Uint8Array(columns.length);
  for (const s of model.series) {
    const { binner, models, offsets, blends } = model.perMetric[s.metric];
    const arrays = out.map((o) => ((o.usage[s.node] ??= {})[s.metric] = new Array<number>(horizonSlots)));
    const max = historyMax(s.feats.y, s.feats.y.length);
    const headroom = headroomOf(options.headroom, s.metric);
    for (let h = 0; h < horizonSlots; h++) {
      const target = first + h - model.startSlot;
      rowFeatures(s.feats, target, model.daySlots, x, 0);
      binRow(binner, x, columns, bins);
      const base = target - model.lagSlots;
      const scale = scaleOf(s, base);
      models.forEach((m, qi) => {
        const b = blends[qi];
        const gbt = clamp01(startValue(s, qi, base) + predictGbt(m, bins, 0));
        const slot = b.slot === 0 ? 0 : slotQuantile(s.feats.y, target, model.daySlots, s.quantiles[qi], s.start[s.start.length - 1][qi]);
        vals[qi] = clamp01(b.gbt * gbt + b.slot * slot + b.max * max + scale * offsets[qi]);
      });
      vals.sort((a, b) => a - b);
      // raise() is non-decreasing in the forecast, so the quantiles stay in order
      arrays.forEach((a, qi) => (a[h] = raise(vals[qi], headroom, max)));
    }
  }
  return out;
}

/** The split-conformal offset (stacking.ts): kept under this name for callers; reorders res. */
export const conformalQuantile = conformalOffset;

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
