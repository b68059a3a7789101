/**
 * A fixed set of long-lived worker threads for short, frequent work that must stay off an event loop (the API's
 * charts). runInThread starts a thread per piece of work, which suits work of seconds; a chart takes tens of
 * milliseconds once its thread has loaded vega (half a second), so the threads here live on between tasks.
 *
 *   parent -> thread   { id, input }
 *   thread -> parent   { id, type: 'done', result } | { id, type: 'error', message, stack? }
 *
 * The thread side is `servePool` (below). A task waits in a FIFO queue while every thread is busy; a task over
 * its time limit terminates its thread (the task fails with reason 'killed'), a thread that dies fails its task
 * ('crashed'); either way a fresh thread takes the next task.
 */
import { existsSync } from 'node:fs';
import { isMainThread, parentPort, ResourceLimits, Worker } from 'node:worker_threads';
import { threadCrash, ThreadError } from './run-in-thread';

type PoolRequest<I> = { id: number; input: I };
type PoolAnswer<R> = { id: number; type: 'done'; result: R } | { id: number; type: 'error'; message: string; stack?: string };

interface Task<I, R> {
  id: number;
  /** Reads the task's input, called only once a thread is free for it (see runLoaded). */
  load: () => I | Promise<I>;
  resolve(r: R): void;
  reject(e: Error): void;
}

interface Lane<I, R> {
  worker: Worker;
  task: Task<I, R> | null;
  timer: NodeJS.Timeout | null;
}

export interface ThreadPoolOptions {
  /** How many threads at most (at least 1). */
  size: number;
  /** Longest a task may run before its thread is terminated. */
  taskTimeoutMs: number;
  resourceLimits?: ResourceLimits;
}

export class ThreadPool<I, R> {
  private readonly lanes: Lane<I, R>[] = [];
  private readonly queue: Task<I, R>[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly opts: ThreadPoolOptions,
  ) {}

  /** Tasks waiting for a thread (not counting the running ones). */
  get waiting(): number {
    return this.queue.length;
  }

  run(input: I): Promise<R> {
    return this.runLoaded(() => input);
  }

  /**
   * Like run, with the input read by `load` only once a thread is free for it: what waits in the queue is a
   * promise to read the input, not the input, so a burst of large inputs is held in memory `size` at a time.
   * A `load` that fails fails its task.
   */
  runLoaded(load: () => I | Promise<I>): Promise<R> {
    if (this.closed) return Promise.reject(new ThreadError('killed', 'the thread pool is closed'));
    if (!existsSync(this.file)) return Promise.reject(new ThreadError('missing', `thread script missing (${this.file})`));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, load, resolve, reject });
      this.dispatch();
    });
  }

  /** Terminates every thread; running and waiting tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new ThreadError('killed', 'the thread pool is closed'));
    await Promise.all([...this.lanes].map((lane) => this.retire(lane, new ThreadError('killed', 'the thread pool is closed'))));
  }

  private dispatch(): void {
    while (this.queue.length) {
      let lane = this.lanes.find((l) => l.task === null);
      if (!lane && this.lanes.length < Math.max(1, this.opts.size)) lane = this.spawn();
      if (!lane) return;
      const task = this.queue.shift()!;
      lane.task = task; // the lane is taken while the input loads, so at most `size` inputs are read at once
      void this.start(lane, task);
    }
  }

  private async start(lane: Lane<I, R>, task: Task<I, R>): Promise<void> {
    let input: I;
    try {
      input = await task.load();
    } catch (e) {
      if (lane.task === task) this.finish(lane);
      task.reject(e as Error);
      this.dispatch();
      return;
    }
    if (lane.task !== task) return; // the lane was retired meanwhile (the pool closed): the task has failed already
    lane.timer = setTimeout(() => void this.retire(lane, new ThreadError('killed', `took longer than ${this.opts.taskTimeoutMs} ms`)), this.opts.taskTimeoutMs);
    lane.worker.postMessage({ id: task.id, input } satisfies PoolRequest<I>);
  }

  private spawn(): Lane<I, R> {
    const worker = new Worker(this.file, { resourceLimits: this.opts.resourceLimits });
    worker.unref(); // an idle pool never keeps its process alive
    const lane: Lane<I, R> = { worker, task: null, timer: null };
    worker.on('message', (m: PoolAnswer<R>) => {
      const task = lane.task;
      if (!task || task.id !== m.id) return;
      this.finish(lane);
      if (m.type === 'done') task.resolve(m.result);
      else task.reject(new ThreadError('error', m.message, m.stack));
      this.dispatch();
    });
    worker.on('error', (e: Error & { code?: string }) => void this.retire(lane, threadCrash(e, this.opts.resourceLimits)));
    worker.on('exit', (code) => void this.retire(lane, new ThreadError('crashed', `thread exited with code ${code} before answering`)));
    this.lanes.push(lane);
    return lane;
  }

  private finish(lane: Lane<I, R>): void {
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = null;
    lane.task = null;
  }

  /** Takes a thread out of the pool (its task, if any, fails with `why`) and lets the queue go on without it. */
  private async retire(lane: Lane<I, R>, why: ThreadError): Promise<void> {
    const i = this.lanes.indexOf(lane);
    if (i < 0) return;
    this.lanes.splice(i, 1);
    const task = lane.task;
    this.finish(lane);
    task?.reject(why);
    if (!this.closed) this.dispatch();
    await lane.worker.terminate();
  }
}

/** The thread side of a ThreadPool: a pool's thread entry calls `servePool(work)` at its top level. */
export function servePool<I, R>(work: (input: I) => R | Promise<R>): void {
  // Imported for its functions elsewhere (tests, the CLI): only a started thread serves.
  if (isMainThread || !parentPort) return;
  const port = parentPort;
  port.on('message', ({ id, input }: PoolRequest<I>) => {
    Promise.resolve()
      .then(() => work(input))
      .then(
        (result) => port.postMessage({ id, type: 'done', result } satisfies PoolAnswer<R>),
        (e: unknown) => {
          const err = e as Error;
          port.postMessage({ id, type: 'error', message: String(err?.message ?? e), stack: err?.stack } satisfies PoolAnswer<R>);
        },
      );
  });
}
