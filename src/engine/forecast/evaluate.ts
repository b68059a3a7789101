/**
 * Scores of a forecast f against what happened y, over the slots where y was measured (NaN skipped):
 *   pinball          mean rho_q(y - f) (quantile.ts): the proper score of a q-quantile forecast, lower is better
 *   coverage         share of slots with y <= f (a calibrated q-forecast covers a share q)
 *   ties             share of slots with y = f, counted as covered above: usage traces hold long constant
 *                    runs, so this can be a large part of the coverage
 *   reclaimable      mean 1 - f: the capacity share the forecast offers to ephemeral work before the margin
 *   marginViolation  share of slots with y > f + margin. With available = 1 - f - margin (FORMAT.md,
 *                    Salamander Eq. 1) fully used by ephemeral tasks, the node is over its capacity exactly
 *                    when the regular load y exceeds f + margin: the QoS controller must throttle CPU or
 *                    kill tasks (RAM). This is the SLA-relevant miss rate at a given safety margin.
 *   qosTrigger       share of slots with y > f + margin / 2: Salamander's and Cuckoo's controllers act once the
 *                    regular load eats more than 50% of the safety margin, so these slots see intervention.
 */
import { pinball } from './quantile';
import { UsageForecast } from './types';

export interface ForecastScore {
  /** Slots scored. */
  n: number;
  pinball: number;
  coverage: number;
  ties: number;
  reclaimable: number;
  marginViolation: number;
  qosTrigger: number;
}

/** Running sums of the scores, so that many node-metric series pool into one score. */
export class ScoreAccumulator {
  private n = 0;
  private loss = 0;
  private covered = 0;
  private tied = 0;
  private free = 0;
  private violated = 0;
  private triggered = 0;

  constructor(
    readonly q: number,
    readonly margin: number,
  ) {}

  add(actual: ArrayLike<number>, forecast: ArrayLike<number>): this {
    const len = Math.min(actual.length, forecast.length);
    for (let i = 0; i < len; i++) {
      const y = actual[i];
      const f = forecast[i];
      if (Number.isNaN(y) || Number.isNaN(f)) continue;
      this.n++;
      this.loss += pinball(y, f, this.q);
      if (y <= f) this.covered++;
      if (y === f) this.tied++;
      this.free += 1 - f;
      if (y > f + this.margin) this.violated++;
      if (y > f + this.margin / 2) this.triggered++;
    }
    return this;
  }

  score(): ForecastScore {
    const d = this.n || NaN;
    return {
      n: this.n,
      pinball: this.loss / d,
      coverage: this.covered / d,
      ties: this.tied / d,
      reclaimable: this.free / d,
      marginViolation: this.violated / d,
      qosTrigger: this.triggered / d,
    };
  }
}

export function evaluateForecast(actual: ArrayLike<number>, forecast: ArrayLike<number>, q: number, margin = 0): ForecastScore {
  return new ScoreAccumulator(q, margin).add(actual, forecast).score();
}

/** Pools every node (optionally only one metric) of two usage maps; series missing from either are skipped. */
export function evaluateUsage(actual: UsageForecast, forecast: UsageForecast, q: number, margin = 0, metric?: string): ForecastScore {
  const acc = new ScoreAccumulator(q, margin);
  for (const [node, metrics] of Object.entries(actual))
    for (const [m, ys] of Object.entries(metrics)) {
      if (metric !== undefined && m !== metric) continue;
      const fs = forecast[node]?.[m];
      if (fs) acc.add(ys, fs);
    }
  return acc.score();
}
