/**
 * The one way Fallow runs work on a worker thread (solves, simulations, forecast builds, GBT training
 * jobs, auto's second ls stream, HiGHS, Z3). One message protocol, one stop flag, one set of time limits:
 *
 *   parent -> thread   workerData = { input, stop }   (stop: a SharedArrayBuffer of one Int32)
 *   thread -> parent   { type: 'event', event }        any number, in order (progress, incumbents, ...)
 *                      { type: 'done', result }        once
 *                      { type: 'error', message, stack?, input? }   once; `input`: the input cannot be
 *                                                      processed (a deterministic outcome, not a crash)
 *
 * The thread side is `serveThread` (thread-entry.ts). A thread that exits or is terminated without
 * answering rejects with a ThreadError whose `reason` says why.
 */
import { existsSync } from 'node:fs';
import { ResourceLimits, Worker } from 'node:worker_threads';
import { newStopFlag, raiseStop, stopFlagBuffer } from '../budget/stop-flag';

export type ThreadMessage<E, R> =
  | { type: 'event'; event: E }
  | { type: 'done'; result: R }
  | { type: 'error'; message: string; stack?: string; input?: boolean };

/** What a thread entry receives as workerData. */
export interface ThreadData<I> {
  input: I;
  /** A stop flag (budget/stop-flag.ts): raised, the caller asks the work to stop now and answer with its best so far. */
  stop: SharedArrayBuffer;
}

export type ThreadFailure =
  /** The thread reported an error (`input`: the input cannot be processed; retrying would fail the same way). */
  | 'error'
  | 'input'
  /** Terminated at the hard stop or after an abort's grace period, without an answer. */
  | 'killed'
  /** The thread died (uncaught error, out of memory, exit) without an answer. */
  | 'crashed'
  /** The thread script is not there (a build without it). */
  | 'missing';

export class ThreadError extends Error {
  constructor(
    readonly reason: ThreadFailure,
    message: string,
    stack?: string,
  ) {
    super(message);
    if (stack) this.stack = stack;
  }
}

/** A thread's uncaught error as a 'crashed' failure; past its heap limit (resourceLimits) the work, not the process, ran out of memory. */
export function threadCrash(e: Error & { code?: string }, limits?: ResourceLimits): ThreadError {
  const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
  return new ThreadError('crashed', oom ? `ran out of memory (its share is ${limits?.maxOldGenerationSizeMb ?? 'the default'} MB of heap)` : e.message, e.stack);
}

export interface RunInThreadOptions<E> {
  /** Each event the thread posts, in order. */
  onEvent?: (event: E) => void;
  /** Buffers moved (not copied) to the thread with the input. */
  transferList?: ArrayBuffer[];
  /** Absolute ms: the stop flag is raised then (the work answers with its best so far). */
  softStopAt?: number;
  /** Absolute ms: the thread is terminated if it has not answered by then. */
  hardStopAt?: number;
  /** Aborting raises the stop flag, and terminates the thread after `abortGraceMs` without an answer. */
  signal?: AbortSignal;
  abortGraceMs?: number;
  /** V8 heap limits of the thread: past them the thread dies (a 'crashed' failure), not the process. */
  resourceLimits?: ResourceLimits;
}

export interface ThreadRun<R> {
  /** The thread's answer; rejects with a ThreadError. */
  result: Promise<R>;
  /** Raises the stop flag: the work answers with its best so far. */
  stop(): void;
  /** Terminates the thread at once (the result rejects with reason 'killed' unless it already settled). */
  kill(): void;
}

/** Runs the thread entry `file` (a compiled .js path) on `input` and returns its answer. */
export function runInThread<I, E, R>(file: string, input: I, opts: RunInThreadOptions<E> = {}): ThreadRun<R> {
  const flag = newStopFlag();
  const stopBuffer = stopFlagBuffer(flag);
  const stop = () => raiseStop(flag);
  if (!existsSync(file)) return { result: Promise.reject(new ThreadError('missing', `thread script missing (${file})`)), stop, kill: () => undefined };
  const data: ThreadData<I> = { input, stop: stopBuffer };
  const worker = new Worker(file, { workerData: data, transferList: opts.transferList, resourceLimits: opts.resourceLimits });
  const timers: NodeJS.Timeout[] = [];
  let settle: (outcome: { ok: true; result: R } | { ok: false; error: ThreadError }) => void = () => undefined;
  const result = new Promise<R>((resolve, reject) => {
    let settled = false;
    settle = (o) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      opts.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (o.ok) resolve(o.result);
      else reject(o.error);
    };
    worker.on('message', (m: ThreadMessage<E, R>) => {
      if (m.type === 'event') opts.onEvent?.(m.event);
      else if (m.type === 'done') settle({ ok: true, result: m.result });
      else settle({ ok: false, error: new ThreadError(m.input ? 'input' : 'error', m.message, m.stack) });
    });
    worker.on('error', (e: Error & { code?: string }) => settle({ ok: false, error: threadCrash(e, opts.resourceLimits) }));
    worker.on('exit', (code) => settle({ ok: false, error: new ThreadError('crashed', `thread exited with code ${code} before answering`) }));
  });
  const kill = () => settle({ ok: false, error: new ThreadError('killed', 'thread terminated before answering') });
  const at = (ms: number, f: () => void) => timers.push(setTimeout(f, Math.max(0, ms - Date.now())));
  if (opts.softStopAt !== undefined) at(opts.softStopAt, stop);
  if (opts.hardStopAt !== undefined) at(opts.hardStopAt, kill);
  const onAbort = () => {
    stop();
    if (opts.abortGraceMs !== undefined) at(Date.now() + opts.abortGraceMs, kill);
  };
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort);
  return { result, stop, kill };
}
