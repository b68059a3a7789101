/**
 * Trains a forecaster's 2 x |quantiles| boosting runs in parallel worker threads (one per core, at most
 * one per job): the engine's trainForecasterWith with a thread-pool executor. Same models as
 * trainForecaster (each job is deterministic for its seed); the feature rows are built in the calling
 * thread, each job's binned rows are copied to its thread once.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ForecastModel, ForecasterOptions, Gbt, GbtJob, trainForecasterWith, UsageHistory } from '../engine/forecast';

export function trainForecasterParallel(history: UsageHistory, options: ForecasterOptions, threads = availableParallelism()): Promise<ForecastModel> {
  return trainForecasterWith(history, options, (jobs) => runJobs(jobs, threads));
}

/** Runs the jobs on up to `threads` worker threads; results in job order. */
export async function runJobs(jobs: GbtJob[], threads: number): Promise<Gbt[]> {
  const out = new Array<Gbt>(jobs.length);
  let next = 0;
  const lane = async () => {
    const worker = new Worker(join(__dirname, 'forecast-build-gbt-thread.js'));
    try {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await new Promise<Gbt>((resolve, reject) => {
          const onMessage = (m: { ok: true; model: Gbt } | { ok: false; message: string }) => {
            worker.off('error', reject);
            if (m.ok) resolve(m.model);
            else reject(new Error(m.message));
          };
          worker.once('message', onMessage);
          worker.once('error', reject);
          worker.postMessage(jobs[i]);
        });
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(threads, jobs.length)) }, lane));
  return out;
}
