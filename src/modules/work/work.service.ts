import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Config, CONFIG } from '../../config';
import { ProblemException } from '../common/problem';
import { withTimeout } from '../common/with-timeout';
import { REDIS, WorkQueues } from '../queue/queue.module';
import { LongWorkRepository } from './work.repository';
import { cancelChannel, TERMINAL_WORK_STATUSES, WorkJobData, workJobOptions, WorkKind, WorkRow } from './work-kind';

/** The API side of long work: the one enqueue path and the one cancel path, for every kind. */
@Injectable()
export class LongWorkService {
  private readonly log = new Logger('long-work');

  constructor(
    private readonly rows: LongWorkRepository,
    private readonly queues: WorkQueues,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Stores the resource `queued` and queues it; when the queue refuses, the row is failed and the caller gets a 503. */
  async enqueue<Row extends WorkRow>(kind: WorkKind<Row>, fields: Partial<Row>): Promise<Row> {
    const row = await this.rows.insertQueued(kind, fields);
    try {
      // Redis away: answer now. Should the add still land later, the worker skips the job (the row is failed).
      await withTimeout(this.queues.of(kind).add(kind.jobName, { id: row.id } satisfies WorkJobData, workJobOptions(row.id)), QUEUE_ADD_TIMEOUT_MS, `no answer from Redis in ${QUEUE_ADD_TIMEOUT_MS} ms`);
    } catch (e) {
      await this.rows.failUnqueued(kind, row.id);
      this.log.error(`queueing ${kind.noun} ${row.id} failed: ${(e as Error).message}`);
      throw new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, 'Queue unavailable', `the ${kind.noun} could not be queued; try again`, [], { 'Retry-After': '5' });
    }
    return row;
  }

  /**
   * Stops a resource. A queued one is cancelled at once; a running one is asked to stop through Redis and
   * its worker stores the best result so far. The database status decides, so the worker and this race safely.
   */
  async cancel(kind: WorkKind<any>, row: WorkRow): Promise<void> {
    if (TERMINAL_WORK_STATUSES.includes(row.status as never)) return;
    if (await this.rows.cancelQueued(kind, row.id)) {
      await this.queues.of(kind).remove(row.id).catch(() => undefined); // the worker would skip it anyway
      return;
    }
    await this.rows.requestCancel(kind, row.id);
    await this.redis.publish(cancelChannel(this.config.queuePrefix, kind), row.id);
  }
}

/** How long a request waits for Redis to accept a job before it answers 503. */
const QUEUE_ADD_TIMEOUT_MS = 3000;
