/**
 * A hold-out experiment (what `fallow forecast-eval` and bench/forecast.ts run): train on `trainDays`
 * whole UTC days, forecast the following day (`testDay`) slot by slot from the end of training, and
 * score the GBT and every baseline on it per metric and quantile. Days are counted from the UTC midnight
 * before the first sample (day 0).
 */
import { BASELINES, baselineForecast, BaselineKind } from './baselines';
import { evaluateUsage, ForecastScore } from './evaluate';
import { ForecasterOptions, forecast, QuantileForecast, trainForecaster } from './forecaster';
import { Headroom, matchCoverage, RaisedSeries } from './headroom';
import { toGrid } from './resample';
import { ForecastInputError, SECONDS_PER_DAY, Series, slotsPerDay, UsageForecast, UsageHistory } from './types';

export const MODELS = ['gbt', ...BASELINES] as const;
export type ModelKind = (typeof MODELS)[number];

export interface EvalOptions {
  slotSeconds: number;
  quantiles: number[];
  /** Safety margin (fraction of capacity) for the margin-violation share. */
  margin: number;
  /** Held-out day (0-based from the first day); default: the last day the history covers (nearly) entirely. */
  testDay?: number;
  /** Days trained on, just before the test day; default: every day before it. */
  trainDays?: number;
  models?: ModelKind[];
  gbt?: Partial<ForecasterOptions>;
  /** Headroom of the GBT's forecasts (headroom.ts); the `matched` rows always start from none. */
  headroom?: Headroom;
}

/**
 * The GBT against the history maximum at the same coverage (the "reclaimable capacity at least as
 * large as the history-maximum baseline at the same or better coverage"): the least headroom at which the
 * GBT's forecasts cover at least as many of the scored slots as the maximum does, and the capacity they
 * lend there. The headroom is chosen on the scored day itself, so this compares what the two forecasts can
 * offer at one safety level (like comparing two classifiers at one false-positive rate); it is not a
 * setting chosen in advance. bench/forecast.ts also scores a headroom chosen on an earlier day.
 */
export interface MatchedRow {
  metric: string;
  q: number;
  maxCoverage: number;
  maxReclaimable: number;
  headroom: number;
  coverage: number;
  reclaimable: number;
  reached: boolean;
}

export interface EvalRow extends ForecastScore {
  model: ModelKind;
  metric: string;
  q: number;
}

export interface EvalReport {
  slotSeconds: number;
  quantiles: number[];
  margin: number;
  nodes: number;
  metrics: string[];
  testDay: number;
  trainDays: number;
  /** Unix seconds: training covers [trainStart, testStart), scoring [testStart, testEnd). */
  trainStart: number;
  testStart: number;
  testEnd: number;
  /** Wall time of trainForecaster (all metrics and quantiles). */
  trainMs: number;
  rows: EvalRow[];
  /** Per metric and quantile, when both the GBT and the max baseline were scored. */
  matched: MatchedRow[];
}

/** The days a history covers: day 0 starts at the UTC midnight before the first sample. */
export interface HistoryDays {
  day0: number;
  /** The last day the samples cover (nearly) entirely: they reach within an hour of its end. */
  lastWhole: number;
  first: number;
  last: number;
}

export function historyDays(history: UsageHistory): HistoryDays {
  const all = Object.values(history).flatMap((m) => Object.values(m)).filter((s) => s.t.length > 0);
  if (all.length === 0) throw new ForecastInputError('the history holds no samples');
  const first = Math.min(...all.map((s) => s.t[0]));
  const last = Math.max(...all.map((s) => s.t[s.t.length - 1]));
  const day0 = Math.floor(first / SECONDS_PER_DAY) * SECONDS_PER_DAY;
  const lastWhole = Math.floor((last + 3600) / SECONDS_PER_DAY) - day0 / SECONDS_PER_DAY - 1;
  return { day0, lastWhole, first, last };
}

/** One hold-out day's forecasts (every model asked for) and what happened, before any scoring. */
export interface HoldOut {
  testDay: number;
  trainDays: number;
  trainStart: number;
  testStart: number;
  testEnd: number;
  metrics: string[];
  /** What happened on the test day, on the forecasts' grid. */
  actual: UsageForecast;
  /** Wall time of trainForecaster (NaN without the GBT). */
  trainMs: number;
  /** The GBT as scored (with the headroom when one is given), and without any headroom. */
  gbt: QuantileForecast[];
  plain: QuantileForecast[];
  /** Per baseline kind and quantile. */
  baselines: { kind: BaselineKind; q: number; usage: UsageForecast }[];
}

/** Trains on the days before the test day and forecasts it with every model of o.models (default all). */
export function holdOut(history: UsageHistory, o: EvalOptions): HoldOut {
  const { day0, lastWhole, last } = historyDays(history);
  const testDay = o.testDay ?? lastWhole;
  const trainDays = o.trainDays ?? testDay;
  if (!(Number.isInteger(testDay) && testDay >= 1)) throw new ForecastInputError(`the test day must be an integer >= 1 (days 0..${lastWhole}), got ${testDay}`);
  if (!(Number.isInteger(trainDays) && trainDays >= 2 && trainDays <= testDay))
    throw new ForecastInputError(`train days must be an integer in 2..${testDay} (the days before test day ${testDay}), got ${trainDays}`);
  const testStart = day0 + testDay * SECONDS_PER_DAY;
  const testEnd = testStart + SECONDS_PER_DAY;
  const trainStart = testStart - trainDays * SECONDS_PER_DAY;
  if (testStart > last) throw new ForecastInputError(`test day ${testDay} starts after the last sample (days 0..${lastWhole})`);

  const S = o.slotSeconds;
  const horizon = slotsPerDay(S);
  const train = sliceHistory(history, trainStart, testStart);
  const actual = actualUsage(sliceHistory(history, trainStart, testEnd), S, testStart, testEnd);
  const models = o.models ?? [...MODELS];
  const metrics = [...new Set(Object.values(history).flatMap((m) => Object.keys(m)))].sort();
  let trainMs = NaN;
  let plain: QuantileForecast[] = [];
  let gbt: QuantileForecast[] = [];
  if (models.includes('gbt')) {
    const t0 = performance.now();
    const model = trainForecaster(train, { ...o.gbt, slotSeconds: S, quantiles: o.quantiles, horizonSlots: horizon, until: testStart });
    trainMs = performance.now() - t0;
    plain = forecast(model, testStart, horizon);
    gbt = o.headroom === undefined ? plain : forecast(model, testStart, horizon, { headroom: o.headroom });
  }
  const baselines: HoldOut['baselines'] = [];
  for (const kind of BASELINES)
    if (models.includes(kind))
      for (const q of o.quantiles)
        baselines.push({ kind, q, usage: baselineForecast(kind, train, { q, slotSeconds: S, horizonSlots: horizon, from: testStart, until: testStart }) });
  return { testDay, trainDays, trainStart, testStart, testEnd, metrics, actual, trainMs, gbt, plain, baselines };
}

export function runForecastEval(history: UsageHistory, o: EvalOptions): EvalReport {
  const h = holdOut(history, o);
  const { actual, metrics } = h;
  const models = o.models ?? [...MODELS];
  const rows: EvalRow[] = [];
  const score = (model: ModelKind, q: number, f: UsageForecast) => {
    for (const metric of metrics) rows.push({ model, metric, q, ...evaluateUsage(actual, f, q, o.margin, metric) });
  };
  for (const { q, usage } of h.gbt) score('gbt', q, usage);
  for (const { kind, q, usage } of h.baselines) score(kind, q, usage);
  // the max baseline is the same for every q
  const maxUsage = h.baselines.find((b) => b.kind === 'max')?.usage;
  const matched: MatchedRow[] = [];
  if (maxUsage)
    for (const metric of metrics)
      for (const { q, usage } of h.plain) {
        const max = rows.find((r) => r.model === 'max' && r.metric === metric && r.q === q)!;
        const series: RaisedSeries[] = [];
        for (const [node, byMetric] of Object.entries(actual)) {
          const y = byMetric[metric];
          const f = usage[node]?.[metric];
          const cap = maxUsage[node]?.[metric];
          if (y && f && cap) series.push({ actual: y, forecast: f, cap });
        }
        const m = matchCoverage(series, max.coverage);
        matched.push({ metric, q, maxCoverage: max.coverage, maxReclaimable: max.reclaimable, ...m });
      }
  rows.sort((a, b) => a.metric.localeCompare(b.metric) || a.q - b.q || models.indexOf(a.model) - models.indexOf(b.model));
  return {
    slotSeconds: o.slotSeconds,
    quantiles: o.quantiles,
    margin: o.margin,
    nodes: Object.keys(history).length,
    metrics,
    testDay: h.testDay,
    trainDays: h.trainDays,
    trainStart: h.trainStart,
    testStart: h.testStart,
    testEnd: h.testEnd,
    trainMs: h.trainMs,
    rows,
    matched,
  };
}

/** The samples with from <= t < until of every series (views, no copies). */
export function sliceHistory(history: UsageHistory, from: number, until: number): UsageHistory {
  const out: UsageHistory = {};
  for (const [node, metrics] of Object.entries(history))
    for (const [metric, s] of Object.entries(metrics)) {
      const a = lowerBound(s.t, from);
      const b = lowerBound(s.t, until);
      if (b > a) (out[node] ??= {})[metric] = { t: slice(s.t, a, b), v: slice(s.v, a, b) };
    }
  return out;
}

/** What happened in [from, until), on the same max-per-slot grid the forecasts use. */
function actualUsage(history: UsageHistory, S: number, from: number, until: number): UsageForecast {
  const grid = toGrid(history, S, until);
  const a = Math.floor(from / S) - grid.startSlot;
  const out: UsageForecast = {};
  for (const { node, metric, y } of grid.series) (out[node] ??= {})[metric] = Array.from(y.subarray(a));
  return out;
}

function lowerBound(t: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function slice(xs: Series['t'], a: number, b: number): ArrayLike<number> {
  return xs instanceof Float64Array ? xs.subarray(a, b) : Array.prototype.slice.call(xs, a, b);
}
