import { JobsOptions } from 'bullmq';

/** Queue names, job options and channels in one place, shared by the API (producer) and the worker. */
export const SOLVE_QUEUE_NAME = 'solves';

export interface SolveJobData {
  solveId: string;
}

export function solveJobOptions(solveId: string): JobsOptions {
  return {
    // The job id is the solve id, so enqueueing twice (a retried request) never runs a solve twice.
    jobId: solveId,
    attempts: 3,
    backoff: { type: 'fixed', delay: 1000 },
    removeOnComplete: { age: 7 * 24 * 3600, count: 10000 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}

/** Workers listen here for DELETE /v1/solves/{id}, so the one running it can stop and keep its best plan. */
export function cancelChannel(prefix: string): string {
  return `${prefix}:solves:cancel`;
}
