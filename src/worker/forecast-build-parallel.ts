/**
 * Trains a forecaster's 2 x |quantiles| boosting runs in parallel worker threads (one per core, at most
 * one per job): the engine's trainForecasterWith with a thread-pool executor. Same models as
 * trainForecaster (each job is deterministic for its seed); the feature rows are built in the calling
 * thread, each job's binned rows are copied to its thread once.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ForecastModel, ForecasterOptions, Gbt, GbtJob, trainForecasterWith, UsageHistory } from '../engine/forecast';
import { mapInThreads } from '../engine/threads/map-in-threads';

const GBT_THREAD = join(__dirname, 'gbt.thread.js');

export function trainForecasterParallel(history: UsageHistory, options: ForecasterOptions, threads = availableParallelism()): Promise<ForecastModel> {
  return trainForecasterWith(history, options, (jobs) => runJobs(jobs, threads));
}

/** Runs the jobs on up to `threads` worker threads; results in job order. */
export function runJobs(jobs: GbtJob[], threads: number): Promise<Gbt[]> {
  return mapInThreads<GbtJob, Gbt>(GBT_THREAD, jobs, threads);
}
