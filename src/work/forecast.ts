/**
 * What a forecast build computes, from a loaded usage history (pure: no database, runs in a worker thread):
 * the forecast of the `horizonSlots` slots after the last sample, its in-sample score and a held-out
 * last-day score of every model. Built from the engine's forecasting functions only.
 */
import {
  baselineForecast,
  BaselineKind,
  evaluateUsage,
  forecast,
  ForecastScore,
  MODELS,
  ModelKind,
  sliceHistory,
  slotsPerDay,
  toGrid,
  trainForecaster,
  UsageForecast,
  UsageHistory,
} from '../engine/forecast';
import { HoldoutScore, ScoreSummary } from '../modules/forecasts/forecast-provenance';

export interface BuildInput {
  history: UsageHistory;
  model: ModelKind;
  quantile: number;
  slotSeconds: number;
  horizonSlots: number;
  /** Raises the GBT's forecast (engine/forecast/headroom.ts); 0 or absent: none. */
  headroom?: number;
}

export interface BuildOutput {
  usage: UsageForecast;
  /** Unix seconds slot 0 of `usage` stands for: the end of the history's last slot. */
  startsAt: number;
  inSample: ScoreSummary;
  /** Unix seconds of the held-out day; null with under 2 days of history. */
  holdout: { from: number; to: number; scores: HoldoutScore[] } | null;
  trainMs: number;
}

export function computeBuild(input: BuildInput): BuildOutput {
  const { history, model, quantile: q, slotSeconds: S } = input;
  const grid = toGrid(history, S);
  const t0 = performance.now();
  const { usage, fitted, offset } = model === 'gbt' ? gbt(input) : baseline(input, grid.endSlot - grid.startSlot, grid.startSlot);
  const trainMs = performance.now() - t0;
  const actual: UsageForecast = {};
  for (const { node, metric, y } of grid.series) (actual[node] ??= {})[metric] = Array.from(y.subarray(offset));
  return { usage, startsAt: grid.endSlot * S, inSample: summary(evaluateUsage(actual, fitted(), q)), holdout: holdout(history, q, S, input.headroom ?? 0), trainMs };
}

/** The forecast, and (lazily, not timed) the in-sample fit from grid slot `offset` to the end of the history. */
interface Fit {
  usage: UsageForecast;
  fitted: () => UsageForecast;
  offset: number;
}

/** In-sample for the GBT: its own training rows, the slots after its first lag window. */
function gbt({ history, quantile: q, slotSeconds: S, horizonSlots: H, headroom = 0 }: BuildInput): Fit {
  const m = trainForecaster(history, { slotSeconds: S, quantiles: [q], horizonSlots: H });
  const offset = m.lagSlots;
  const o = { headroom };
  return { usage: forecast(m, undefined, H, o)[0].usage, fitted: () => forecast(m, (m.startSlot + offset) * S, m.endSlot - m.startSlot - offset, o)[0].usage, offset };
}

/** In-sample for a baseline: each slot from the days before it (after the first day, when there is more than one). */
function baseline({ history, model, quantile: q, slotSeconds: S, horizonSlots: H }: BuildInput, slots: number, startSlot: number): Fit {
  const kind = model as BaselineKind;
  const offset = slots > slotsPerDay(S) ? slotsPerDay(S) : 0;
  return {
    usage: baselineForecast(kind, history, { q, slotSeconds: S, horizonSlots: H }),
    fitted: () => baselineForecast(kind, history, { q, slotSeconds: S, horizonSlots: slots - offset, from: (startSlot + offset) * S }),
    offset,
  };
}

/**
 * The last day of the history held out: every model trained on what came before it and forecasting the
 * day from its start, scored against what happened (on the engine's max-per-slot grid). A model that
 * cannot train on the shorter history (the GBT needs more than a day) is listed with the reason. The GBT
 * has the build's headroom, so that its row scores what is stored.
 */
function holdout(history: UsageHistory, q: number, S: number, headroom: number): BuildOutput['holdout'] {
  const grid = toGrid(history, S);
  const day = slotsPerDay(S);
  if (grid.endSlot - grid.startSlot < 2 * day) return null;
  const testStart = (grid.endSlot - day) * S;
  const train = sliceHistory(history, -Infinity, testStart);
  const actual: UsageForecast = {};
  for (const { node, metric, y } of grid.series) (actual[node] ??= {})[metric] = Array.from(y.subarray(y.length - day));
  const scores = MODELS.map((model): HoldoutScore => {
    try {
      const f =
        model === 'gbt'
          ? forecast(trainForecaster(train, { slotSeconds: S, quantiles: [q], horizonSlots: day, until: testStart }), testStart, day, { headroom })[0].usage
          : baselineForecast(model, train, { q, slotSeconds: S, horizonSlots: day, from: testStart, until: testStart });
      return { model, ...summary(evaluateUsage(actual, f, q)) };
    } catch (e) {
      return { model, n: 0, pinball: null, coverage: null, reclaimable: null, skipped: (e as Error).message };
    }
  });
  return { from: testStart, to: testStart + day * S, scores };
}

function summary(s: ForecastScore): ScoreSummary {
  const num = (x: number) => (Number.isFinite(x) ? x : null);
  return { n: s.n, pinball: num(s.pinball), coverage: num(s.coverage), reclaimable: num(s.reclaimable) };
}
