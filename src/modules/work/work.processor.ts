import { Inject, Injectable, Logger } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { DelayedError, Job } from 'bullmq';
import { hostname } from 'node:os';
import { runInThread, ThreadError, ThreadRun } from '../../engine/threads/run-in-thread';
import { Deadline, WORK_HANDLERS, WorkHandler } from './work-handler';
import { mayStart } from './fair-share';
import { WorkJobData, WorkKind, WorkRow } from './work-kind';
import { LongWorkRepository } from './work.repository';

/** How often a running resource's progress is written (the thread may report far more often). */
const PROGRESS_EVERY_MS = 500;
/** How often a running resource's heartbeat is written when its handler has one (at most this long without a write). */
const HEARTBEAT_EVERY_MS = 1000;

export interface WorkJobResult {
  id: string;
  status: string;
  elapsedMs: number;
  [extra: string]: unknown;
}

/**
 * The worker's one processor for every kind of long work: claims the resource, runs its handler's thread,
 * stores the outcome. A thread's failure is an outcome (the resource fails with the handler's reason, no
 * retry: it would fail the same way); a database or Redis failure is thrown so BullMQ retries, and after
 * the last attempt the resource is failed rather than left running.
 */
@Injectable()
export class LongWorkProcessor {
  private readonly log = new Logger('long-work');
  private readonly running = new Map<string, ThreadRun<unknown>>();
  /** Jobs inside process(), thread or store phase: what a stopping worker waits for. */
  private inFlight = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly handlers = new Map<WorkKind<any>, WorkHandler<any, any, any, any>>();

  constructor(
    private readonly rows: LongWorkRepository,
    @Inject(WORK_HANDLERS) handlers: WorkHandler<any, any, any, any>[],
    @Inject(CONFIG) private readonly config: Config,
  ) {
    for (const h of handlers) this.handlers.set(h.kind, h);
  }

  get kinds(): WorkKind<any>[] {
    return [...this.handlers.keys()];
  }

  /** `token`: the worker's lock token of the job (BullMQ's), needed to move it back to delayed when its tenant is over its share. */
  async process(kind: WorkKind<any>, job: Job<WorkJobData>, token?: string): Promise<WorkJobResult> {
    this.inFlight++;
    try {
      await this.waitForFairShare(kind, job, token);
      return await this.processJob(kind, job);
    } finally {
      if (--this.inFlight === 0) this.idleWaiters.splice(0).forEach((wake) => wake());
    }
  }

  /**
   * Fair order across tenants (fair-share.ts): a job whose tenant runs more of the kind than another tenant
   * with queued work goes back to delayed for fairShareDelayMs (BullMQ then takes the next job in line) and
   * is asked again then. DelayedError tells BullMQ the job was moved, not failed (no attempt is spent).
   */
  private async waitForFairShare(kind: WorkKind<any>, job: Job<WorkJobData>, token: string | undefined): Promise<void> {
    if (!token) return;
    const load = await this.rows.tenantLoads(kind, job.data.id);
    if (!load || mayStart(load.tenantId, load.loads)) return;
    await job.moveToDelayed(Date.now() + this.config.fairShareDelayMs, token);
    throw new DelayedError();
  }

  /** Resolves once no job is being processed (a stopping worker's wait, independent of Redis). */
  whenIdle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async processJob(kind: WorkKind<any>, job: Job<WorkJobData>): Promise<WorkJobResult> {
    const handler = this.handlers.get(kind);
    if (!handler) throw new Error(`this worker has no handler for ${kind.noun} (list it in WorkerModule's HANDLERS)`);
    const id = job.data.id;
    const startedAt = Date.now();
    const result = (status: string, extra: Record<string, unknown> = {}): WorkJobResult => ({ id, status, elapsedMs: Date.now() - startedAt, worker: WORKER_NAME, ...extra });
    // A handler with a heartbeat has its first one written with the claim, so a client never sees it running without progress.
    const heartbeat = handler.heartbeat?.bind(handler);
    if (!(await this.rows.claim(kind, id, heartbeat?.(undefined, 0)))) return result('skipped'); // cancelled or already done
    const claimedAt = Date.now();
    let loaded: WorkRow | undefined; // for release(), whatever happens
    try {
      const row = await this.rows.load(kind, id);
      loaded = row;
      // A resource claimed this often has likely killed its workers (memory, a crash): not handed on again.
      if (row.attempts > this.config.maxAttempts)
        return result(await this.fail(kind, id, `the ${kind.noun} was started ${row.attempts - 1} times without finishing (a worker running it died each time); not tried again`));
      // DELETE between the claim and here: work that keeps nothing when stopped need not start at all.
      if (row.cancelRequestedAt && !kind.stopKeepsBest) return result(await this.endCancelled(kind, id));
      const prepared = await handler.prepare(row);
      if ('fail' in prepared) return result(await this.fail(kind, id, prepared.fail));
      let lastWrite = heartbeat ? claimedAt : 0; // the claim wrote the first heartbeat
      let lastProgress: unknown = undefined;
      const write = (progress: unknown) => {
        lastProgress = progress;
        lastWrite = Date.now();
        void this.rows.progress(kind, id, progress).catch(() => undefined);
        void job.updateProgress(progress as object).catch(() => undefined);
      };
      const beat = () => {
        if (heartbeat && Date.now() - lastWrite >= HEARTBEAT_EVERY_MS - 50) write(heartbeat(lastProgress, Date.now() - startedAt));
      };
      const run = runInThread<unknown, unknown, unknown>(handler.threadFile, prepared.input, {
        transferList: prepared.transferList,
        resourceLimits: { maxOldGenerationSizeMb: this.config.threadMemoryMb },
        softStopAt: prepared.softStopAfterMs === undefined ? undefined : Date.now() + prepared.softStopAfterMs,
        onEvent: (event) => {
          const progress = handler.progress?.(event, Date.now() - startedAt);
          if (progress === undefined) return;
          lastProgress = progress;
          if (Date.now() - lastWrite >= PROGRESS_EVERY_MS) write(progress);
        },
      });
      // The deadline ends the thread the way a DELETE of work that keeps nothing does (kill: Worker.terminate,
      // which stops a busy loop too), and marks why, so the failure says so rather than "cancelled".
      let overran = false;
      const deadline = setTimeout(() => {
        overran = true;
        run.kill();
      }, prepared.deadline.ms);
      beat(); // at least once a second from the claim, also before the thread has said anything
      const beating = heartbeat ? setInterval(beat, HEARTBEAT_EVERY_MS / 4) : undefined;
      const key = runKey(kind, id);
      this.running.set(key, run);
      let answer: unknown;
      try {
        // A DELETE published while the handler prepared found no run to stop: the row says so.
        if (row.cancelRequestedAt || (await this.rows.cancelRequested(kind, id).catch(() => false))) this.cancel(kind, id);
        answer = await run.result;
      } catch (e) {
        if (!(e instanceof ThreadError)) throw e;
        if (overran) return result(await this.fail(kind, id, deadlineReason(kind, prepared.deadline)));
        if (e.reason === 'killed' && !kind.stopKeepsBest && (await this.retrying(`reading ${kind.noun} ${id}`, () => this.rows.cancelRequested(kind, id))))
          return result(await this.endCancelled(kind, id));
        if (e.reason !== 'input') this.log.error(`${kind.noun} ${id}: ${e.stack ?? e.message}`);
        return result(await this.fail(kind, id, handler.failure(row, e)));
      } finally {
        clearTimeout(deadline);
        clearInterval(beating);
        this.running.delete(key);
      }
      // The result is in memory: everything from here on reads or writes Postgres, so it is retried while
      // Postgres is away rather than lose the result.
      return await this.retrying(`storing ${kind.noun} ${id}`, async () => {
        // A whole answer of work that keeps nothing when stopped is stored as succeeded even if a DELETE came as it finished.
        const cancelled = kind.stopKeepsBest && (await this.rows.cancelRequested(kind, id));
        const completion = await handler.complete(row, answer, cancelled, lastProgress);
        if ('fail' in completion) return result(await this.fail(kind, id, completion.fail));
        const status = cancelled ? 'cancelled' : 'succeeded';
        const stored = await this.rows.finish(kind, id, status, (tx) => completion.store(tx));
        this.log.log(`${kind.noun} ${id}: ${status}, ${completion.summary}${stored ? '' : ' (already ended: nothing stored)'}`);
        return result(status, completion.result);
      });
    } catch (e) {
      // Database or Redis trouble: BullMQ retries; after the last attempt the resource must not stay running.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.fail(kind, id, `the ${kind.noun} failed: ${(e as Error).message}`).catch(() => undefined);
      throw e;
    } finally {
      if (loaded) handler.release?.(loaded);
    }
  }

  /** A DELETE of running work this process runs: a solve stops and its best so far is stored; other work is terminated. */
  cancel(kind: WorkKind<any>, id: string): void {
    const run = this.running.get(runKey(kind, id));
    if (kind.stopKeepsBest) run?.stop();
    else run?.kill();
  }

  get activeCount(): number {
    return this.inFlight;
  }

  /** Runs `f` until it succeeds, backing off from 0.5 s to 5 s (a store is one small transaction: retrying often costs nothing and ends the work soon after Postgres returns), for at most storeRetryMs; each retry is logged. */
  private async retrying<T>(what: string, f: () => Promise<T>): Promise<T> {
    const giveUpAt = Date.now() + this.config.storeRetryMs;
    for (let delay = 500; ; delay = Math.min(5_000, delay * 2)) {
      try {
        return await f();
      } catch (e) {
        if (Date.now() + delay > giveUpAt) throw e;
        this.log.warn(`${what} failed (${(e as Error).message}); retrying in ${delay} ms`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  private async endCancelled(kind: WorkKind<any>, id: string): Promise<string> {
    await this.retrying(`cancelling ${kind.noun} ${id}`, () => this.rows.endCancelled(kind, id));
    this.log.log(`${kind.noun} ${id}: cancelled, nothing stored`);
    return 'cancelled';
  }

  private async fail(kind: WorkKind<any>, id: string, error: string): Promise<string> {
    this.log.log(`${kind.noun} ${id} failed: ${error}`); // an outcome the user reads on the resource, not a fault
    await this.rows.fail(kind, id, error);
    return 'failed';
  }
}

/** The reason stored on work its deadline ended. */
export function deadlineReason(kind: WorkKind<any>, d: Deadline): string {
  return `the ${kind.noun} exceeded its deadline of ${formatSeconds(d.ms)} s (${d.why}) and was stopped`;
}

const formatSeconds = (ms: number) => (ms >= 10_000 ? String(Math.round(ms / 1000)) : (ms / 1000).toFixed(1));

/** Which worker process ran a job (in its BullMQ return value: the queue board and tests show the spread). */
const WORKER_NAME = `${hostname()}:${process.pid}`;

const runKey = (kind: WorkKind<any>, id: string) => `${kind.queue}:${id}`;
