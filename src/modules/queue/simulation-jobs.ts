import { JobsOptions } from 'bullmq';

/**
 * Plan simulations have their own queue: a simulation replays a plan in well under a second while a solve
 * may search for minutes, so neither waits behind the other, and the queue board shows them apart.
 */
export const SIMULATION_QUEUE_NAME = 'simulations';

export interface SimulationJobData {
  simulationId: string;
}

export function simulationJobOptions(simulationId: string): JobsOptions {
  return {
    // The job id is the simulation id, so enqueueing twice never simulates twice.
    jobId: simulationId,
    attempts: 3,
    backoff: { type: 'fixed', delay: 1000 },
    removeOnComplete: { age: 7 * 24 * 3600, count: 10000 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}
