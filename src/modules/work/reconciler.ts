import { Inject, Injectable, Logger } from '@nestjs/common';
import { Config, CONFIG } from '../../config';
import { WorkQueues } from '../queue/queue.module';
import { WORK_KINDS } from '../work-kinds';
import { LongWorkRepository } from './work.repository';
import { WorkJobData, workJobOptions, WorkKind, WorkRow } from './work-kind';

/** Job states in which BullMQ will still run the job: the reconciler leaves those alone. */
const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

export interface SweepResult {
  checked: number;
  requeued: number;
  failed: number;
  cancelled: number;
}

/**
 * Makes every long-running resource reach a terminal state whatever failed: it finds queued or running
 * rows that nothing will run any more (their job is missing from Redis, e.g. after Redis lost its data or a
 * crash between the insert and `queue.add`; or BullMQ gave up on it after an infrastructure error) and
 * queues them again, or fails them with a reason once they have been claimed `maxAttempts` times, or
 * cancels them when a DELETE asked for it. Run by
 * one worker of the deployment per period (a BullMQ job scheduler on the maintenance queue).
 */
@Injectable()
export class Reconciler {
  private readonly log = new Logger('reconciler');

  constructor(
    private readonly rows: LongWorkRepository,
    private readonly queues: WorkQueues,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async sweep(now = Date.now()): Promise<SweepResult> {
    const out: SweepResult = { checked: 0, requeued: 0, failed: 0, cancelled: 0 };
    // Younger rows may be between their insert and queue.add: give them a period.
    const before = new Date(now - this.config.reconcileIntervalMs);
    for (const kind of WORK_KINDS) {
      for (const row of await this.rows.unfinished(kind, before)) {
        out.checked++;
        const outcome = await this.reconcile(kind, row);
        if (outcome) out[outcome]++;
      }
    }
    if (out.requeued || out.failed || out.cancelled) this.log.log(`swept ${out.checked} unfinished: ${out.requeued} queued again, ${out.failed} failed, ${out.cancelled} cancelled`);
    return out;
  }

  private async reconcile(kind: WorkKind<any>, row: WorkRow): Promise<'requeued' | 'failed' | 'cancelled' | null> {
    const queue = this.queues.of(kind);
    const state = await queue.getJobState(row.id);
    if (LIVE_STATES.has(state)) return null;
    // A DELETE whose worker died before it could stop: nothing will run it, so it ends as asked.
    if (row.cancelRequestedAt) return (await this.rows.endCancelled(kind, row.id)) ? 'cancelled' : null;
    const why = state === 'unknown' ? 'its job was missing from the queue' : `its job was ${state}${await this.failedReason(kind, row.id)}`;
    if (row.attempts >= this.config.maxAttempts) {
      await this.rows.failUnfinished(kind, row.id, `the ${kind.noun} could not be run: ${why}, after ${row.attempts} attempts`);
      return 'failed';
    }
    // The row first, while it is still unfinished: the list of rows was read before, and a worker may have ended
    // the work since (its job completed). Removing that job first left a finished solve without its job
    // (CI's three-workers test saw a job state 'unknown').
    if (!(await this.rows.requeue(kind, row.id))) return null;
    if (state !== 'unknown') await queue.remove(row.id).catch(() => undefined); // a job id can be added again only once removed
    await queue.add(kind.jobName, { id: row.id } satisfies WorkJobData, workJobOptions(row.id));
    this.log.log(`${kind.noun} ${row.id} queued again: ${why}`);
    return 'requeued';
  }

  private async failedReason(kind: WorkKind<any>, id: string): Promise<string> {
    const job = await this.queues.of(kind).getJob(id);
    const reason = (job as { failedReason?: string } | undefined)?.failedReason;
    return reason ? ` (${reason})` : '';
  }
}
