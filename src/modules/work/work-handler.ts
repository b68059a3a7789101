import type { EntityManager } from 'typeorm';
import type { ThreadError } from '../../engine/threads/run-in-thread';
import { WorkKind, WorkRow } from './work-kind';

/**
 * What to run in the thread, or why the work cannot run (it then fails with that reason, no retry).
 * softStopAfterMs: the stop flag is raised then (answer the best so far); deadline: the thread is terminated
 * then and the work fails "exceeded its deadline of N s" (no work may hold a worker slot forever).
 */
export type Prepared<Input> = { input: Input; transferList?: ArrayBuffer[]; softStopAfterMs?: number; deadline: Deadline } | { fail: string };

/** How long the thread of one piece of work may run, from its start, and how that was worked out (for the failure's reason). */
export interface Deadline {
  ms: number;
  /** e.g. "60 s plus 2 ms per simulated task run, at most FALLOW_SIMULATION_MAX_SECONDS" */
  why: string;
}

/** What a thread's answer makes of the resource. */
export interface Completion {
  /** Writes the outputs through the transaction and returns the row's new fields (null: already stored). */
  store(tx: EntityManager): Promise<Record<string, unknown> | null>;
  /** One line for the log. */
  summary: string;
  /** Extra fields of the BullMQ job's return value (the metrics read them). */
  result?: Record<string, unknown>;
}

/**
 * The per-kind part of long work, run by the worker's one processor (work.processor.ts): everything else
 * (claim, thread, progress, cancel, status changes, retries) is the kernel's.
 */
export interface WorkHandler<Row extends WorkRow = WorkRow, Input = unknown, Event = unknown, Result = unknown> {
  kind: WorkKind<Row>;
  /** The compiled thread entry (serveThread) that turns the input into the result. */
  threadFile: string;
  prepare(row: Row): Promise<Prepared<Input>>;
  /** The progress to store for an event of the thread, or undefined to store none; `elapsedMs` since the worker took the work. */
  progress?(event: Event, elapsedMs: number): unknown;
  /**
   * The progress to store every second while the work runs, from the last one stored (undefined before the
   * thread's first event): a heartbeat, so that a client sees the clock move also while nothing improves.
   */
  heartbeat?(last: unknown, elapsedMs: number): unknown;
  /** The reason the user reads when the thread failed ('input': the input cannot be processed). */
  failure(row: Row, error: ThreadError): string;
  /** Turns the thread's answer into stored outputs; `cancelled` when the caller stopped it early; the last progress reported. */
  complete(row: Row, result: Result, cancelled: boolean, lastProgress: unknown): Promise<Completion | { fail: string }>;
  /** Called once the attempt is over, however it ended (stored, failed, cancelled, thrown): drop what prepare kept. */
  release?(row: Row): void;
}

export const WORK_HANDLERS = Symbol('WORK_HANDLERS');
