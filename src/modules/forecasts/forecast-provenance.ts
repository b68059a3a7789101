import { MODELS, ModelKind } from '../../engine/forecast';

/** The models a forecast build can use: the GBT quantile forecaster or one of the engine's baselines. */
export const BUILD_MODELS: readonly ModelKind[] = MODELS;
export type BuildModel = ModelKind;

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
  model: BuildModel;
  /** Why the model could not be scored (e.g. too little history before the held-out day). */
  skipped?: string;
}

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
