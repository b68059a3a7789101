/**
 * Headroom: a safety offset on a quantile forecast, for operators who want the history maximum's safety
 * with more capacity to lend. The history maximum (the `max` baseline) is the naive safe forecast: it
 * covers nearly every slot but lends only what the node never used. A q = 0.99 forecast lends more and
 * covers a little less. Raising it by a headroom d, but never above the node's history maximum and never
 * below the forecast itself, moves it along a trade-off curve between the two: with d = 1 it is the
 * maximum wherever the maximum is higher, with d = 0 the forecast. Where the forecast plus d stays below
 * the maximum, capacity is gained; the slots it loses against the maximum are those whose usage lies
 * between the raised forecast and the maximum.
 */
import { ScoreAccumulator } from './evaluate';
import { ForecastInputError } from './types';

/** One headroom for every metric, or one per metric (metrics not named get none). */
export type Headroom = number | Readonly<Record<string, number>>;

/** Checks a headroom (the `field` names it in the error): fractions of capacity in [0, 1]. */
export function checkHeadroom(h: Headroom, field = 'headroom'): void {
  const bad = (path: string, v: unknown) => new ForecastInputError(`${path}: must be a fraction of capacity in [0, 1], got ${JSON.stringify(v)}`);
  if (typeof h === 'number') {
    if (!(h >= 0 && h <= 1)) throw bad(field, h);
    return;
  }
  if (h === null || typeof h !== 'object' || Array.isArray(h)) throw bad(field, h);
  for (const [metric, v] of Object.entries(h)) if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw bad(`${field}.${metric}`, v);
}

/** The headroom of one metric. */
export function headroomOf(h: Headroom | undefined, metric: string): number {
  if (h === undefined) return 0;
  return typeof h === 'number' ? h : (h[metric] ?? 0);
}

/** The forecast f raised by d, but not above cap (the history maximum) and never below f. */
export function raise(f: number, d: number, cap: number): number {
  return d > 0 ? Math.max(f, Math.min(f + d, cap)) : f;
}

/** One node-metric series: what happened, the forecast, and the history maximum it may be raised to. */
export interface RaisedSeries {
  actual: ArrayLike<number>;
  forecast: ArrayLike<number>;
  cap: ArrayLike<number>;
}

export interface CoverageMatch {
  /** The smallest headroom on the grid that reaches the target; 1 when even that falls short. */
  headroom: number;
  coverage: number;
  reclaimable: number;
  /** False when even a headroom of 1 stays below the target. */
  reached: boolean;
}

/** Headrooms tried by matchCoverage: 0, 0.01, ..., 1. */
const GRID_STEPS = 100;

/**
 * The least headroom (in steps of 0.01) at which the raised forecasts cover at least `target` of the slots
 * (actual <= forecast, NaN skipped), with the coverage and mean reclaimable capacity (1 - forecast) there.
 * Coverage never falls as the headroom grows, so a binary search over the grid finds it. Used to compare a
 * forecast with the history maximum at the same coverage (experiment.ts).
 */
export function matchCoverage(series: RaisedSeries[], target: number): CoverageMatch {
  const raised = series.map((s) => new Float64Array(Math.min(s.forecast.length, s.cap.length)));
  const at = (d: number) => {
    // Coverage and reclaimable as every forecast is scored (evaluate.ts); the quantile only matters for pinball.
    const acc = new ScoreAccumulator(0.5, 0);
    series.forEach((s, j) => {
      const g = raised[j];
      for (let i = 0; i < g.length; i++) g[i] = raise(s.forecast[i], d, s.cap[i]);
      acc.add(s.actual, g);
    });
    const { coverage, reclaimable } = acc.score();
    return { coverage, reclaimable };
  };
  let lo = 0;
  let hi = GRID_STEPS;
  if (!(at(1).coverage >= target)) return { headroom: 1, ...at(1), reached: false };
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid / GRID_STEPS).coverage >= target) hi = mid;
    else lo = mid + 1;
  }
  const headroom = lo / GRID_STEPS;
  return { headroom, ...at(headroom), reached: true };
}
