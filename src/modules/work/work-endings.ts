import { Injectable, Logger } from '@nestjs/common';
import type { WorkKind } from './work-kind';

type Listener = (id: string) => Promise<void>;

/**
 * Tells the modules that care when a piece of long work of their kind has ended (succeeded, failed or cancelled),
 * whichever process ended it: the worker storing its result, the API cancelling it while queued, the reconciler
 * giving up on it. LongWorkRepository, the one owner of status changes, announces each end once (the change that
 * ended it), after it is written. A listener's failure is logged and never undoes or delays the end beyond itself.
 */
@Injectable()
export class WorkEndings {
  private readonly log = new Logger('long-work');
  private readonly listeners = new Map<WorkKind<any>, Listener[]>();

  /** Calls `listener` with the id of each piece of work of `kind` that ends in this process. */
  on(kind: WorkKind<any>, listener: Listener): void {
    this.listeners.set(kind, [...(this.listeners.get(kind) ?? []), listener]);
  }

  async ended(kind: WorkKind<any>, id: string): Promise<void> {
    for (const listener of this.listeners.get(kind) ?? []) {
      await listener(id).catch((e: Error) => this.log.error(`after ${kind.noun} ${id} ended: ${e.message}`));
    }
  }
}
