import { JobsOptions } from 'bullmq';

/**
 * Forecast builds have their own queue: a build trains for seconds while a solve may search for minutes,
 * so neither waits behind the other, and the queue board shows them apart.
 */
export const FORECAST_BUILD_QUEUE_NAME = 'forecast-builds';

export interface ForecastBuildJobData {
  buildId: string;
}

export function forecastBuildJobOptions(buildId: string): JobsOptions {
  return {
    // The job id is the build id, so enqueueing twice never trains twice.
    jobId: buildId,
    attempts: 3,
    backoff: { type: 'fixed', delay: 1000 },
    removeOnComplete: { age: 7 * 24 * 3600, count: 10000 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}
