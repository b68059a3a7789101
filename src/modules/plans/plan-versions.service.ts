import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PlanCommitmentService } from './plan-commitment.service';
import { PlansRepository, PlanVersion } from './plans.repository';

/** What became of a re-planned plan's commitment once its re-plan's plan was stored (null: it had none). */
export type CommitmentMove = { moved: boolean; reason: string | null } | null;

/**
 * Plan versions (issue 39): a re-plan's plan supersedes the plan it re-planned; both are kept, the old one
 * names the new (`supersededBy`), the new one the old (`supersedes`, `version` one more).
 */
@Injectable()
export class PlanVersionsService {
  constructor(
    private readonly repo: PlansRepository,
    private readonly commitment: PlanCommitmentService,
  ) {}

  /**
   * Makes `newId` (stored in `tx` by the re-plan's worker) the newest version of `oldId`, in that transaction,
   * and moves the old plan's commitment to it (PlanCommitmentService.moveCommitment). A plan another re-plan
   * superseded first keeps that link and its commitment.
   */
  async supersede(tx: EntityManager, oldId: string, newId: string): Promise<CommitmentMove> {
    if (!(await this.repo.supersede(tx, oldId, newId))) {
      const old = await this.repo.inTx(tx, oldId);
      return old?.status === 'committed' ? { moved: false, reason: `plan ${oldId} was superseded by plan ${old.supersededBy} first, and keeps its commitment` } : null;
    }
    // The commitment may be an earlier version's, when the re-plan of `oldId` could not take it over.
    const committed = await this.committedVersion(oldId, tx);
    return committed ? this.commitment.moveCommitment(tx, committed, newId) : null;
  }

  /** The plan and its earlier versions, newest first, with their solves and statuses. */
  lineage(id: string): Promise<PlanVersion[]> {
    return this.repo.lineage(id);
  }

  /**
   * The version of the plan (itself or an earlier one) that holds the lineage's commitment, or null: at most one
   * is committed, as a move releases the version it moves from.
   */
  async committedVersion(id: string, tx?: EntityManager): Promise<string | null> {
    return (await this.repo.lineage(id, tx)).find((v) => v.status === 'committed')?.id ?? null;
  }
}
