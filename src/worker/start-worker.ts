import { NestFactory } from '@nestjs/core';
import { Worker } from 'bullmq';
import { Config } from '../config';
import { createLogger, PinoNestLogger } from '../modules/common/logger';
import { redisConnection } from '../modules/queue/queue.module';
import { FORECAST_BUILD_QUEUE_NAME, ForecastBuildJobData } from '../modules/queue/forecast-build-jobs';
import { SIMULATION_QUEUE_NAME, SimulationJobData } from '../modules/queue/simulation-jobs';
import { cancelChannel, SOLVE_QUEUE_NAME, SolveJobData } from '../modules/queue/solve-jobs';
import { ForecastBuildJobResult, ForecastBuildProcessor } from './forecast-build.processor';
import { SimulationJobResult, SimulationProcessor } from './simulation.processor';
import { SolveJobResult, SolveProcessor } from './solve.processor';
import { WorkerModule } from './worker.module';

export interface RunningWorker {
  /** Stops taking new solves, lets the running ones finish, then closes every connection. */
  close(): Promise<void>;
}

/**
 * The worker process: consumes the solve queue with `workerConcurrency` solves at once, each in its own
 * thread, and the forecast-build and simulation queues likewise. A worker that dies loses its lock after `lockMs`; another worker then retries the solve.
 */
export async function startWorker(config: Config): Promise<RunningWorker> {
  const log = createLogger(config.logLevel, 'fallow-worker');
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: new PinoNestLogger(log) });
  const processor = app.get(SolveProcessor);
  const connection = redisConnection(config.redisUrl);
  const worker = new Worker<SolveJobData, SolveJobResult>(SOLVE_QUEUE_NAME, (job) => processor.process(job), {
    connection,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    lockDuration: config.lockMs,
    stalledInterval: config.stalledIntervalMs,
    maxStalledCount: 2,
  });
  worker.on('error', (e) => log.error({ err: e }, 'queue error'));
  // Forecast builds: their own queue and connection, the same concurrency, each build in its own thread.
  const builder = app.get(ForecastBuildProcessor);
  const buildConnection = redisConnection(config.redisUrl);
  const builds = new Worker<ForecastBuildJobData, ForecastBuildJobResult>(FORECAST_BUILD_QUEUE_NAME, (job) => builder.process(job), {
    connection: buildConnection,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    lockDuration: config.lockMs,
    stalledInterval: config.stalledIntervalMs,
    maxStalledCount: 2,
  });
  builds.on('error', (e) => log.error({ err: e }, 'forecast build queue error'));
  // Plan simulations: likewise their own queue and connection, each simulation in its own thread.
  const simulator = app.get(SimulationProcessor);
  const simConnection = redisConnection(config.redisUrl);
  const simulations = new Worker<SimulationJobData, SimulationJobResult>(SIMULATION_QUEUE_NAME, (job) => simulator.process(job), {
    connection: simConnection,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    lockDuration: config.lockMs,
    stalledInterval: config.stalledIntervalMs,
    maxStalledCount: 2,
  });
  simulations.on('error', (e) => log.error({ err: e }, 'simulation queue error'));
  const subscriber = redisConnection(config.redisUrl);
  await subscriber.subscribe(cancelChannel(config.queuePrefix));
  subscriber.on('message', (_channel, solveId: string) => processor.cancel(solveId));
  log.info({ concurrency: config.workerConcurrency, prefix: config.queuePrefix }, 'worker ready');
  return {
    async close() {
      log.info({ running: processor.activeCount }, 'worker stopping: finishing running solves');
      await Promise.all([worker.close(), builds.close(), simulations.close()]);
      connection.disconnect(); // BullMQ leaves connections it was given open
      buildConnection.disconnect();
      simConnection.disconnect();
      await subscriber.quit().catch(() => undefined);
      await app.close();
    },
  };
}
