/**
 * A forecast, the one entry the worker's forecast-build thread (worker/kinds/forecast-build.thread.ts) and
 * `fallow forecast` (cli/work.thread.ts) share, from a loaded usage history (pure: no database, runs in the
 * thread that calls it): forecastUsage is the forecast of the `horizonSlots` slots after the last sample;
 * computeBuild adds what a build stores with it, its in-sample score and a held-out last-day score of every
 * model. Built from the engine's forecasting functions only.
 */
import {
  baselineForecast,
  BaselineKind,
  evaluateUsage,
  forecast,
  ForecastScore,
  Headroom,
  MODELS,
  ModelKind,
  sliceHistory,
  slotsPerDay,
  toGrid,
  trainForecaster,
  UsageForecast,
  UsageHistory,
} from '../engine/forecast';

export interface ForecastInput {
  history: UsageHistory;
  model: ModelKind;
  quantile: number;
  slotSeconds: number;
  horizonSlots: number;
  /** The GBT's seed; absent: the engine's default (a build's). */
  seed?: number;
  /** Raises the GBT's forecast (engine/forecast/headroom.ts); 0 or absent: none. */
  headroom?: Headroom;
}

/** A forecast's score over some slots at its quantile q (null when no slot was measured). */
export interface ScoreSummary {
  /** Slots scored (node-metric series pooled). */
  n: number;
  /** Mean pinball loss at q: lower is better. */
  pinball: number | null;
  /** Share of slots whose actual usage was at most the forecast (a calibrated forecast covers about q). */
  coverage: number | null;
  /** Mean 1 - forecast: the share of capacity the forecast offers to ephemeral work. */
  reclaimable: number | null;
}

export interface HoldoutScore extends ScoreSummary {
  model: ModelKind;
  /** Why the model could not be scored (e.g. too little history before the held-out day). */
  skipped?: string;
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

/** The forecast alone: what `fallow forecast` prints (a build stores the same, computeBuild's `usage`). */
export function forecastUsage(input: ForecastInput): UsageForecast {
  return input.model === 'gbt' ? gbt(input).usage : baselineUsage(input);
}

export function computeBuild(input: ForecastInput): BuildOutput {
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
function gbt({ history, quantile: q, slotSeconds: S, horizonSlots: H, seed, headroom = 0 }: ForecastInput): Fit {
  // The seed only when given: the engine spreads the options over its defaults, where an undefined would win.
  const m = trainForecaster(history, { slotSeconds: S, quantiles: [q], horizonSlots: H, ...(seed === undefined ? {} : { seed }) });
  const offset = m.lagSlots;
  const o = { headroom };
  return { usage: forecast(m, undefined, H, o)[0].usage, fitted: () => forecast(m, (m.startSlot + offset) * S, m.endSlot - m.startSlot - offset, o)[0].usage, offset };
}

/** In-sample for a baseline: each slot from the days before it (after the first day, when there is more than one). */
function baseline(input: ForecastInput, slots: number, startSlot: number): Fit {
  const { history, model, quantile: q, slotSeconds: S } = input;
  const kind = model as BaselineKind;
  const offset = slots > slotsPerDay(S) ? slotsPerDay(S) : 0;
  return {
    usage: baselineUsage(input),
    fitted: () => baselineForecast(kind, history, { q, slotSeconds: S, horizonSlots: slots - offset, from: (startSlot + offset) * S }),
    offset,
  };
}

function baselineUsage({ history, model, quantile: q, slotSeconds: S, horizonSlots: H }: ForecastInput): UsageForecast {
  return baselineForecast(model as BaselineKind, history, { q, slotSeconds: S, horizonSlots: H });
}

/**
 * The last day of the history held out: every model trained on what came before it and forecasting the
 * day from its start, scored against what happened (on the engine's max-per-slot grid). A model that
 * cannot train on the shorter history (the GBT needs more than a day) is listed with the reason. The GBT
 * has the build's headroom, so that its row scores what is stored.
 */
function holdout(history: UsageHistory, q: number, S: number, headroom: Headroom): BuildOutput['holdout'] {
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
