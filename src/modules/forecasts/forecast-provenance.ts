import { MODELS, ModelKind } from '../../engine/forecast';
// The scores a build computes (src/work/forecast.ts), stored in its provenance.
import type { HoldoutScore, ScoreSummary } from '../../work/forecast';

/** The models a forecast build can use: the GBT quantile forecaster or one of the engine's baselines. */
export const BUILD_MODELS: readonly ModelKind[] = MODELS;
export type BuildModel = ModelKind;

/** Where a built forecast came from: stored with it, returned by the forecast endpoints (null when posted). */
export interface ForecastProvenance {
  buildId: string;
  model: BuildModel;
  quantile: number;
  /** The GBT forecast's headroom (engine/forecast/headroom.ts): 0 when none. */
  headroom: number;
  training: {
    /** ISO times of the first and last sample trained on. */
    from: string;
    to: string;
    samples: number;
    /** Node-metric series trained on. */
    series: number;
  };
  /** The model's fit to the training window (GBT: after its first lag window; baselines: after the first day). */
  inSample: ScoreSummary;
  /** The last day of the history held out: every model trained on the days before it and scored on it; null with under 2 days. */
  holdout: { from: string; to: string; scores: HoldoutScore[] } | null;
  /** Wall time of training and forecasting (without the held-out evaluation). */
  trainMs: number;
}
