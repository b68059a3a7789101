import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Hold, holdsOfPlan, PlanWindow, reservedFromHolds, slotTimeMs } from '../../engine/commitments/holds';
import { borrowedFrom } from '../../engine/commitments/plan-around';
import { QuotaExcess, quotaExcess, totals } from '../../engine/commitments/quota';
import { QuotasService } from '../quotas/quotas.service';
import { Fit, Overload, planFits } from '../../engine/commitments/fit';
import { ValidationError } from '../../engine/model/errors';
import type { InstanceDoc } from '../../engine/model/types';
import { Principal } from '../auth/principal';
import { CommitmentsService, TenantHold } from '../commitments/commitments.service';
import { conflict, ProblemException } from '../common/problem';
import { WebhooksService } from '../webhooks/webhooks.service';
import { SolvesService } from '../solves/solves.service';
import { PlanEntity } from './plan.entity';
import { PlansRepository } from './plans.repository';
import { PlansService, statusNow } from './plans.service';

/** Conflicts a 409 names: the first ones, enough to see where and by how much. */
const LISTED_CONFLICTS = 20;

/** Where a plan no longer fits: node, metric (or tasks), slot and its time, and by how much. */
export interface CommitConflict {
  node: string;
  metric: string;
  slot: number;
  at: string;
  demand: number;
  available: number;
  excess: number;
}

/**
 * A plan's commitment (issue 37): commit makes a proposed plan hold its capacity, release gives it back.
 * Both take the cluster's lock (one at a time per cluster, whatever the number of API processes), and a
 * commit checks the plan, with the evaluator, against what is free now: the cluster's current version and
 * forecast less the safety margin, less every other committed plan's holds.
 */
@Injectable()
export class PlanCommitmentService {
  constructor(
    private readonly plans: PlansService,
    private readonly repo: PlansRepository,
    private readonly solves: SolvesService,
    private readonly commitments: CommitmentsService,
    private readonly quotas: QuotasService,
    private readonly webhooks: WebhooksService,
  ) {}

  /**
   * Commits the plan: 409 naming the first conflicts (and changing nothing) when it no longer fits. Committing a
   * committed plan changes nothing. A refusal (409) of a plan the caller sees is published as `commit.refused`.
   */
  async commit(p: Principal, id: string): Promise<PlanEntity> {
    const plan = await this.plans.get(p, id);
    try {
      return await this.commitSeen(p, plan);
    } catch (e) {
      if (e instanceof ProblemException && e.getStatus() === HttpStatus.CONFLICT) await this.announceRefusal(plan, e);
      throw e;
    }
  }

  /** `commit.refused` for the plan's customer (and operators): the plan, and the 409's detail, problems and conflicts or quota excess. */
  private async announceRefusal(plan: PlanEntity, refusal: ProblemException): Promise<void> {
    await this.webhooks.publish('commit.refused', {
      tenantIds: [plan.tenantId],
      clusterId: plan.clusterId,
      payload: {
        plan: { id: plan.id, solveId: plan.solveId, clusterId: plan.clusterId, status: statusNow(plan) },
        detail: refusal.detail ?? null,
        problems: refusal.problems,
        ...refusal.extensions,
      },
    });
  }

  private async commitSeen(p: Principal, plan: PlanEntity): Promise<PlanEntity> {
    const id = plan.id;
    const status = statusNow(plan);
    if (status === 'committed') return plan;
    if (status !== 'proposed') throw conflict(`plan ${id} is ${status}: only a proposed plan can be committed; solve again for a new one`);
    if (plan.supersededBy) throw conflict(`plan ${id} is superseded by plan ${plan.supersededBy}: commit the newest version`);
    const now = new Date();
    if (plan.endsAt.getTime() <= now.getTime() && plan.document.assignments.length > 0)
      throw conflict(`plan ${id} ended at ${plan.endsAt.toISOString()}: its window has passed; solve again`);
    const window = windowOf(plan);
    const late = startedBefore(plan, window, now);
    if (late !== null)
      throw conflict(`plan ${id} has tasks that were to start at ${new Date(slotTimeMs(window, late)).toISOString()}, before the current slot: committing it would hold (and bill) capacity for tasks that never ran; solve again`);
    // A re-plan's plan whose earlier version is still committed takes that commitment over (its frozen tasks are
    // the same tasks, held once): the move its re-plan could not make when it ended, checked again now.
    const previous = plan.supersedes ? (await this.repo.lineage(plan.supersedes)).find((v) => v.status === 'committed') : undefined;
    if (previous) {
      await this.repo.transaction((tx) => this.moveCommitment(tx, previous.id, id, true));
      return this.plans.get(p, id);
    }
    const basisWindow = { startsAt: plan.windowStartsAt, slotSeconds: plan.slotSeconds, slots: plan.slots };
    const clusterId = plan.clusterId;
    if (!clusterId) {
      // An inline instance names no cluster: nothing to hold, the commit only says the plan will run.
      await this.repo.transaction(async (tx) => {
        const row = await this.repo.lockedInTx(tx, id);
        if (row?.status === 'proposed') await this.repo.commit(tx, id, now, false);
      });
      return this.plans.get(p, id);
    }
    await this.commitments.withClusterLock(clusterId, async (tx) => {
      const row = await this.repo.lockedInTx(tx, id);
      if (row?.status === 'committed') return;
      if (row?.status !== 'proposed') throw conflict(`plan ${id} is ${row?.status ?? 'gone'}: only a proposed plan can be committed`);
      // Read under the lock: a commit that waited behind others checks against the cluster and quota of now.
      const basis = await this.solves.commitBasis(plan.solveId, basisWindow);
      const quota = await this.quotas.effective(clusterId, plan.tenantId);
      const others = await this.commitments.holdsIn(clusterId, window, id, tx);
      let fit = fitNow(this.around(basis, others, window), plan);
      const planHolds = holdsOfPlan(fit.model, plan.document, window);
      const over = quota ? quotaExcess(basis, quota, this.sums(others.filter((h) => h.tenantId === plan.tenantId), window, basis), this.sums(planHolds, window, basis)) : [];
      if (over.length && !quota!.borrow) throw pastQuota(id, over, window);
      const borrowing = over.length > 0;
      let taken: string[] = [];
      if (!fit.fits && !borrowing) {
        // Within its quota, the customer takes back what borrowers hold beyond theirs, most recently committed first, until its plan fits.
        const candidates = await this.stillBorrowing(tx, clusterId, basis, window, others, plan.tenantId, now);
        let left = others;
        for (const b of candidates) {
          if (fit.fits) break;
          left = left.filter((h) => h.planId !== b);
          taken.push(b);
          fit = fitNow(this.around(basis, left, window), plan);
        }
        // Give back, last taken first, every plan the commit fits without taking.
        for (const b of [...taken].reverse()) {
          if (!fit.fits) break;
          const kept = taken.filter((x) => x !== b);
          const without = fitNow(this.around(basis, others.filter((h) => !kept.includes(h.planId)), window), plan);
          if (without.fits) {
            taken = kept;
            fit = without;
          }
        }
      }
      if (!fit.fits) throw notFitting(id, fit, window);
      for (const b of taken) await this.commitments.release(tx, b);
      if (taken.length) await this.repo.release(tx, taken, now, "its borrowed capacity was taken back by a customer committing within its quota");
      await this.commitments.hold(tx, id, clusterId, plan.tenantId, borrowing, planHolds);
      await this.repo.commit(tx, id, now, borrowing);
    });
    return this.plans.get(p, id);
  }

  /**
   * Moves the commitment of `oldId` to the re-plan's plan `newId` that supersedes it, in the caller's transaction
   * (the one storing that plan: the plan, its link and the move are one), under the cluster's lock. The new plan
   * is checked as a commit is, against its own instance (the cluster and forecast the re-plan read, its frozen
   * tasks) less what every other plan holds now and within its customer's quota, the old plan's holds left out;
   * no borrower's capacity is taken back for it. When it fits, the old plan is released ("superseded by ...") and
   * the new one committed with its holds; when it does not, nothing changes (the new plan stays proposed, the old
   * one committed) and the reason is returned, or with `refuse` thrown (the 409 of a commit). Null when the old
   * plan is not committed: nothing to move.
   */
  async moveCommitment(tx: EntityManager, oldId: string, newId: string, refuse = false): Promise<{ moved: boolean; reason: string | null } | null> {
    const before = await this.repo.inTx(tx, oldId);
    if (before?.status !== 'committed') return null;
    const move = async (): Promise<{ moved: boolean; reason: string | null } | null> => {
      const old = await this.repo.lockedInTx(tx, oldId);
      const plan = await this.repo.inTx(tx, newId);
      if (old?.status !== 'committed' || !plan) return null;
      const now = new Date();
      const reason = `superseded by re-plan ${newId}, which holds its capacity now`;
      if (!old.clusterId) {
        await this.repo.release(tx, [oldId], now, reason);
        await this.repo.commit(tx, newId, now, false);
        return { moved: true, reason: null };
      }
      const window = windowOf(plan);
      const basis = { ...(await this.solves.withInstance(plan.solveId)).instance };
      delete basis.reserved;
      try {
        const quota = await this.quotas.effective(old.clusterId, plan.tenantId);
        const others = await this.commitments.holdsIn(old.clusterId, window, oldId, tx);
        const fit = fitNow(this.around(basis, others, window), plan);
        if (!fit.fits) throw notFitting(newId, fit, window);
        const planHolds = holdsOfPlan(fit.model, plan.document, window);
        const over = quota ? quotaExcess(basis, quota, this.sums(others.filter((h) => h.tenantId === plan.tenantId), window, basis), this.sums(planHolds, window, basis)) : [];
        if (over.length && !quota!.borrow) throw pastQuota(newId, over, window);
        await this.commitments.release(tx, oldId);
        await this.repo.release(tx, [oldId], now, reason);
        await this.commitments.hold(tx, newId, old.clusterId, plan.tenantId, over.length > 0, planHolds);
        await this.repo.commit(tx, newId, now, over.length > 0);
        return { moved: true, reason: null };
      } catch (e) {
        if (!(e instanceof ProblemException) || refuse) throw e;
        return { moved: false, reason: `${e.detail}; plan ${oldId} stays committed` };
      }
    };
    return before.clusterId ? this.commitments.withClusterLockIn(tx, before.clusterId, move) : move();
  }

  /**
   * Other customers' borrowing plans that may be taken back now, most recently committed first: still running
   * (not past their end), and whose customer is still beyond its quota with them (the flag set at their commit
   * is not trusted: the customer may have released others since, or had its quota raised).
   */
  private async stillBorrowing(tx: EntityManager, clusterId: string, basis: InstanceDoc, window: PlanWindow, others: TenantHold[], customer: string, now: Date): Promise<string[]> {
    const flagged = await this.repo.newestCommittedFirst(tx, [...new Set(others.filter((h) => borrowedFrom(h, customer)).map((h) => h.planId))], now);
    const out: string[] = [];
    for (const b of flagged) {
      const mine = others.filter((h) => h.planId === b);
      const owner = mine[0].tenantId;
      const quota = await this.quotas.effective(clusterId, owner);
      const rest = others.filter((h) => h.tenantId === owner && h.planId !== b);
      if (quota && quotaExcess(basis, quota, this.sums(rest, window, basis), this.sums(mine, window, basis)).length) out.push(b);
    }
    return out;
  }

  /** The instance with what the holds take as `reserved`. */
  private around(basis: InstanceDoc, holds: Hold[], window: PlanWindow): InstanceDoc {
    const reserved = reservedFromHolds(holds, window, basis.nodes, basis.metrics);
    return Object.keys(reserved).length ? { ...basis, reserved } : basis;
  }

  /** Per metric and slot, what the holds take over all nodes. */
  private sums(holds: Hold[], window: PlanWindow, basis: InstanceDoc): Record<string, number[]> {
    return totals(reservedFromHolds(holds, window, basis.nodes, basis.metrics), basis.metrics, window.slots);
  }

  /** Gives a committed plan's capacity back. Releasing a released plan changes nothing; a proposed or completed one is a 409. */
  async release(p: Principal, id: string): Promise<PlanEntity> {
    const plan = await this.plans.get(p, id);
    const status = statusNow(plan);
    if (status === 'released') return plan;
    if (status !== 'committed') throw conflict(`plan ${id} is ${status}: only a committed plan can be released (a completed plan's tasks have all ended)`);
    const work = async (tx: EntityManager) => {
      const row = await this.repo.lockedInTx(tx, id);
      const now = row ? statusNow(row) : 'gone';
      if (now === 'released') return;
      if (now !== 'committed') throw conflict(`plan ${id} is ${now}: only a committed plan can be released`);
      await this.commitments.release(tx, id);
      await this.repo.release(tx, [id], new Date());
    };
    if (plan.clusterId) await this.commitments.withClusterLock(plan.clusterId, work);
    else await this.repo.transaction(work); // no cluster: the plan's row lock alone orders it
    return this.plans.get(p, id);
  }
}

export function windowOf(plan: Pick<PlanEntity, 'windowStartsAt' | 'slotSeconds' | 'slots'>): PlanWindow {
  return { startsAtMs: plan.windowStartsAt.getTime(), slotSeconds: plan.slotSeconds, slots: plan.slots };
}

/** The evaluator's verdict; an instance the current cluster no longer validates (a metric gone) is a conflict too. */
function fitNow(instance: InstanceDoc, plan: PlanEntity): Fit {
  try {
    return planFits(instance, plan.document);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    throw conflict(
      `plan ${plan.id}'s jobs no longer fit the cluster's current version: ${e.issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      e.issues.slice(0, LISTED_CONFLICTS),
    );
  }
}

function notFitting(id: string, fit: Fit, window: PlanWindow) {
  const conflicts: CommitConflict[] = fit.overloads.slice(0, LISTED_CONFLICTS).map((o: Overload) => ({
    ...o,
    at: new Date(slotTimeMs(window, o.slot)).toISOString(),
    excess: round(o.demand - o.available),
    demand: round(o.demand),
    available: round(o.available),
  }));
  const problems = conflicts.length
    ? conflicts.map((c) => ({
        path: `nodes.${c.node}.${c.metric}[${c.slot}]`,
        message: `at ${c.at} the plan needs ${c.demand} ${c.metric === 'tasks' ? 'task slots' : c.metric}, ${c.available} is free: ${c.excess} too much`,
      }))
    : fit.violations.slice(0, LISTED_CONFLICTS).map((v) => ({ path: 'plan', message: v }));
  const first = problems[0];
  return conflict(`plan ${id} no longer fits what is free on the cluster now (${fit.overloads.length || fit.violations.length} conflicts; first: ${first.path}: ${first.message}); nothing was committed: solve again`, problems, { conflicts });
}

/**
 * The first slot of a task that was to start before the slot preceding the one that holds `now` (null: none).
 * One slot of grace: a plan solved near a slot's end is still committed a moment later, its first tasks a
 * little late, but not one whose tasks should have run long ago.
 */
function startedBefore(plan: PlanEntity, window: PlanWindow, now: Date): number | null {
  const current = Math.floor((now.getTime() - window.startsAtMs) / (window.slotSeconds * 1000)) - 1;
  // A re-plan's tasks before its nowSlot are the frozen ones: they did run (stats.replan, the engine's).
  const replannedFrom = Number((plan.document.stats?.replan as { nowSlot?: number } | undefined)?.nowSlot ?? 0);
  let first: number | null = null;
  for (const a of plan.document.assignments) if (a.start >= replannedFrom && a.start < current && (first === null || a.start < first)) first = a.start;
  return first;
}

function pastQuota(id: string, over: QuotaExcess[], window: PlanWindow) {
  const listed = over.slice(0, LISTED_CONFLICTS).map((o) => ({ ...o, at: new Date(slotTimeMs(window, o.slot)).toISOString(), held: round(o.held), adds: round(o.adds), quota: round(o.quota) }));
  const problems = listed.map((o) => ({
    path: `quota.shares.${o.metric}[${o.slot}]`,
    message: `at ${o.at} the customer holds ${o.held} ${o.metric} and the plan adds ${o.adds}: more than its quota of ${o.quota}`,
  }));
  return conflict(`plan ${id} would take its customer past its quota on the cluster (${over.length} slots; first: ${problems[0].path}: ${problems[0].message}); nothing was committed`, problems, { quota: listed });
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
