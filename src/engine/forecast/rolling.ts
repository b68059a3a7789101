/**
 * Rolling-origin evaluation (issue 25): every day with at least `minTrainDays` whole days before it is held
 * out in turn; the builder trains on all the days before it (an expanding window, as a farmer's history
 * grows) and forecasts the day, and every model is scored per node, metric and quantile. Two hold-out days
 * pooled over every node (experiment.ts) can hide a model that loses on most nodes; this keeps the nodes
 * and days apart so that the bench can show distributions across nodes (rolling-summary.ts).
 */
import { baselineForecast } from './baselines';
import { evaluateForecast, ForecastScore } from './evaluate';
import { EvalOptions, historyDays, holdOut, sliceHistory } from './experiment';
import { ForecastInputError, slotsPerDay, UsageForecast, UsageHistory } from './types';

/**
 * The fewest whole days before a test day: the features lag by one day, so with two days the trees get one
 * day of rows (uncalibrated: calibration needs a day of rows before the calibration day, i.e. three days).
 */
export const MIN_TRAIN_DAYS = 2;

/**
 * 'slot-max', the same slot's maximum over every past day (the slot-quantile baseline at q = 1), is scored
 * as a reference: a q < 1 forecast above it forecasts more than the node ever used at that time of day.
 */
export const ROLLING_MODELS = ['gbt', 'last-day', 'slot-quantile', 'max', 'slot-max'] as const;
export type RollingModel = (typeof ROLLING_MODELS)[number];

export interface RollingOptions extends Omit<EvalOptions, 'testDay' | 'trainDays' | 'headroom' | 'models'> {
  /** Default MIN_TRAIN_DAYS. */
  minTrainDays?: number;
}

/** One node, metric, quantile and model on one held-out day. */
export interface NodeDayScore {
  day: number;
  node: string;
  metric: string;
  q: number;
  model: RollingModel;
  score: ForecastScore;
}

export interface RollingFold {
  testDay: number;
  trainDays: number;
  trainMs: number;
}

export interface RollingReport {
  minTrainDays: number;
  quantiles: number[];
  metrics: string[];
  nodes: string[];
  folds: RollingFold[];
  scores: NodeDayScore[];
}

/** The days that can be held out: each with at least minTrainDays whole days before it, up to the last whole day. */
export function testableDays(lastWhole: number, minTrainDays = MIN_TRAIN_DAYS): number[] {
  if (!(Number.isInteger(minTrainDays) && minTrainDays >= MIN_TRAIN_DAYS))
    throw new ForecastInputError(`minTrainDays must be an integer >= ${MIN_TRAIN_DAYS} (a day of lag and a day of training rows), got ${minTrainDays}`);
  const days: number[] = [];
  for (let d = minTrainDays; d <= lastWhole; d++) days.push(d);
  return days;
}

export function rollingOrigin(history: UsageHistory, o: RollingOptions): RollingReport {
  const minTrainDays = o.minTrainDays ?? MIN_TRAIN_DAYS;
  const days = testableDays(historyDays(history).lastWhole, minTrainDays);
  if (days.length === 0) throw new ForecastInputError(`no day has ${minTrainDays} whole days of history before it`);
  const folds: RollingFold[] = [];
  const scores: NodeDayScore[] = [];
  let metrics: string[] = [];
  for (const day of days) {
    const h = holdOut(history, { ...o, testDay: day, models: ['gbt', 'last-day', 'slot-quantile', 'max'] });
    metrics = h.metrics;
    folds.push({ testDay: day, trainDays: h.trainDays, trainMs: h.trainMs });
    const slotMax = baselineForecast('slot-quantile', sliceHistory(history, h.trainStart, h.testStart), {
      q: 1,
      slotSeconds: o.slotSeconds,
      horizonSlots: slotsPerDay(o.slotSeconds),
      from: h.testStart,
      until: h.testStart,
    });
    const forecasts: { model: RollingModel; q: number; usage: UsageForecast }[] = [
      ...h.gbt.map((f) => ({ model: 'gbt' as const, ...f })),
      ...h.baselines.map((b) => ({ model: b.kind, q: b.q, usage: b.usage })),
      ...o.quantiles.map((q) => ({ model: 'slot-max' as const, q, usage: slotMax })),
    ];
    for (const [node, byMetric] of Object.entries(h.actual))
      for (const [metric, actual] of Object.entries(byMetric))
        for (const { model, q, usage } of forecasts) {
          const f = usage[node]?.[metric];
          if (f) scores.push({ day, node, metric, q, model, score: evaluateForecast(actual, f, q, o.margin) });
        }
  }
  return { minTrainDays, quantiles: o.quantiles, metrics, nodes: Object.keys(history), folds, scores };
}
