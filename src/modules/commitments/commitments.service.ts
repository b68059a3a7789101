import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Hold, PlanWindow, slotTimeMs } from '../../engine/commitments/holds';
import { HoldsRepository, TenantHold } from './holds.repository';
import { KeyedQueue } from './keyed-queue';
import { CommittedPlan, CommittedPlansRepository, RunningFilter, RunningPlan } from './committed-plans.repository';

export type { TenantHold } from './holds.repository';
export type { CommittedPlan, RunningFilter, RunningPlan } from './committed-plans.repository';

/** What committed plans hold on clusters: the reservations solves plan around and commits are checked against. */
@Injectable()
export class CommitmentsService {
  constructor(
    private readonly holds: HoldsRepository,
    private readonly committed: CommittedPlansRepository,
  ) {}

  private readonly queue = new KeyedQueue();

  /**
   * One commit or release at a time per cluster: in this process first (KeyedQueue), then across processes
   * by the cluster's Postgres lock (HoldsRepository.withClusterLock).
   */
  withClusterLock<T>(clusterId: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.queue.run(clusterId, () => this.holds.withClusterLock(clusterId, work));
  }

  /**
   * The same turn, taken in a transaction the caller already holds (a re-plan's plan stored by the worker moves
   * its predecessor's commitment in the transaction that stores it): the cluster's lock is then held until that
   * transaction ends.
   */
  withClusterLockIn<T>(tx: EntityManager, clusterId: string, work: () => Promise<T>): Promise<T> {
    return this.queue.run(clusterId, async () => {
      await this.holds.lockCluster(tx, clusterId);
      return work();
    });
  }

  /** Holds on the cluster overlapping the window (but `exceptPlan`'s), read through `tx` under the lock when given. */
  holdsIn(clusterId: string, window: PlanWindow, exceptPlan: string | null = null, tx?: EntityManager): Promise<TenantHold[]> {
    return this.holds.overlapping(clusterId, new Date(window.startsAtMs), new Date(slotTimeMs(window, window.slots)), exceptPlan, tx);
  }

  /** Writes what a committed plan's tasks hold; `borrowing`: the plan went beyond its customer's quota. */
  hold(tx: EntityManager, planId: string, clusterId: string, tenantId: string, borrowing: boolean, holds: Hold[]): Promise<void> {
    return this.holds.insert(tx, planId, clusterId, tenantId, borrowing, holds);
  }

  release(tx: EntityManager, planId: string): Promise<void> {
    return this.holds.deleteOf(tx, planId);
  }

  /**
   * What committed plans hold on the cluster in the window, read as one snapshot: every hold (the schedule's
   * reserved capacity counts them all) and the plans holding them, only `tenantId`'s when given.
   */
  committedIn(clusterId: string, window: PlanWindow, tenantId: string | null): Promise<{ holds: TenantHold[]; plans: CommittedPlan[] }> {
    const end = new Date(slotTimeMs(window, window.slots));
    return this.committed.snapshot(async (tx) => ({
      holds: await this.holdsIn(clusterId, window, null, tx),
      plans: await this.committed.overlapping(tx, clusterId, new Date(window.startsAtMs), end, tenantId, new Date()),
    }));
  }

  /** The cluster's committed plans that have not ended by `now` (RunningFilter narrows them): what automatic re-planning re-plans. */
  running(clusterId: string, now: Date, filter: RunningFilter = {}): Promise<RunningPlan[]> {
    return this.committed.running(clusterId, now, filter);
  }

  /** The committed plans of these solves that have not ended by `now`. */
  runningOfSolves(solveIds: string[], now: Date): Promise<RunningPlan[]> {
    return solveIds.length ? this.committed.runningOfSolves(solveIds, now) : Promise.resolve([]);
  }
}
