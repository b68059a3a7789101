/** The forecasting engine (issue 5): pure functions from usage histories to `usage` forecasts and scores. */
export * from './types';
export { resampleMax, inferPeriod, toGrid } from './resample';
export { pinball, pinballGradient, quantile, quantileInPlace } from './quantile';
export { trainForecaster, trainForecasterWith, runGbtJob, conformalQuantile, forecast, DEFAULT_GBT, DEFAULT_ROW_FRACTION, DEFAULT_FEATURES, defaultFeatures } from './forecaster';
export { chooseBlend, slotQuantile, NO_BLEND } from './stacking';
export type { Blend } from './stacking';
export type { ForecastModel, ForecasterOptions, QuantileForecast, GbtJob } from './forecaster';
export type { Gbt } from './gbt';
export { trainGbt } from './gbt';
export { baselineForecast, BASELINES } from './baselines';
export type { BaselineKind } from './baselines';
export { evaluateForecast, evaluateUsage, ScoreAccumulator } from './evaluate';
export type { ForecastScore } from './evaluate';
export { parseHistoryCsv, historyToCsv, CSV_HEADER } from './csv';
export { parseBitbrainsVm } from './bitbrains';
export { runForecastEval, sliceHistory, MODELS } from './experiment';
export type { EvalOptions, EvalReport, EvalRow, ModelKind } from './experiment';
export { renderEvalTable, describeEval } from './report';
