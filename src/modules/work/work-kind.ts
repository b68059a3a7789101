import { JobsOptions } from 'bullmq';
import type { EntityTarget } from 'typeorm';

/**
 * Long work: a resource created `queued`, run by a worker in a thread, ending `succeeded`, `failed` or
 * `cancelled`, with progress. Solves, forecast builds and simulations are kinds of it. A kind is data
 * (this descriptor) plus a handler the worker calls (WorkHandler, work-handler.ts); the enqueue path
 * (LongWorkService), the processor (src/worker/work.processor.ts), the thread protocol
 * (engine/threads/run-in-thread.ts) and every status change (LongWorkRepository) are written once.
 */
export const WORK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];
export const TERMINAL_WORK_STATUSES: readonly WorkStatus[] = ['succeeded', 'failed', 'cancelled'];

/** The columns every long-work table has (the kernel reads and writes only these). */
export interface WorkRow {
  id: string;
  tenantId: string;
  status: WorkStatus | string;
  error: string | null;
  attempts: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** When a DELETE asked a running one to stop (a queued one is cancelled at once). */
  cancelRequestedAt: Date | null;
}

export interface WorkKind<Row extends WorkRow = WorkRow> {
  /** Names the kind in logs and in errors the user reads ("solve", "forecast build", "simulation"). */
  noun: string;
  /** BullMQ queue: each kind has its own, so a minute-long solve never delays a sub-second simulation. */
  queue: string;
  /** BullMQ job name (shown on the queue board). */
  jobName: string;
  /** The TypeORM entity of the resource's table. */
  entity: EntityTarget<Row>;
  /** Columns not loaded by default that the worker needs (select: false columns). */
  heavyColumns?: (keyof Row & string)[];
  /**
   * What DELETE of a running one does (every kind can be cancelled): true, the thread is asked to stop and
   * answers its best so far, which is stored (a solve keeps its best plan); false, the thread is terminated
   * and nothing is stored (a half-built forecast or half-run simulation is worth nothing).
   */
  stopKeepsBest: boolean;
}

/** The same for every kind: the job id is the resource id, so enqueueing twice never runs twice. */
export function workJobOptions(id: string): JobsOptions {
  return {
    jobId: id,
    attempts: 3,
    backoff: { type: 'fixed', delay: 1000 },
    removeOnComplete: { age: 7 * 24 * 3600, count: 10000 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}

export interface WorkJobData {
  id: string;
}

/** Workers listen here for DELETE of a running resource of the kind, so the one running it can stop it. */
export function cancelChannel(prefix: string, kind: WorkKind<any>): string {
  return `${prefix}:${kind.queue}:cancel`;
}

/** The queue of the deployment's housekeeping (the reconciler's repeatable job): one run per period, whatever the number of workers. */
export const MAINTENANCE_QUEUE = 'maintenance';
