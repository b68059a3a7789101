import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PlanDoc } from '../../engine/model/types';
import { PlanAssignmentEntity, PlanEntity, PlanStatus } from './plan.entity';

export interface PlanToStore {
  tenantId: string;
  solveId: string;
  document: PlanDoc & Record<string, unknown>;
  /** The document as JSON text, when the caller has made it already (pg would serialise the document again). */
  documentText?: string;
  /** End of the assignment, per assignment (start + duration), for paging views. */
  ends: number[];
  /** The cluster the plan was made on (null: an inline instance) and the window it was made for. */
  clusterId: string | null;
  window: { startsAt: Date; slotSeconds: number; slots: number };
  /** A re-plan's plan: the plan it supersedes (its version is one more). */
  supersedes?: string | null;
}

/** How a plan's assignments are paged: in the order the plan lists them, or by start slot (then plan order). */
export type AssignmentOrder = 'plan' | 'start';
/** What narrows a page of assignments: one node, one job, the slots [from, to) they must run in some of. */
export interface AssignmentFilter {
  node?: string;
  job?: string;
  from?: number;
  to?: number;
}
/** Where a page starts: after this row (its start slot counts only in start order). */
export interface AssignmentPosition {
  start: number;
  seq: number;
}

/** One version of a plan: a solve's plan, or a re-plan's that supersedes the one before. */
export interface PlanVersion {
  id: string;
  solveId: string;
  status: PlanStatus;
}

/** Plans and their assignment rows. */
@Injectable()
export class PlansRepository {
  constructor(
    @InjectRepository(PlanEntity) private readonly plans: Repository<PlanEntity>,
    @InjectRepository(PlanAssignmentEntity) private readonly assignments: Repository<PlanAssignmentEntity>,
  ) {}

  findScoped(id: string, scope: { tenantId?: string }): Promise<PlanEntity | null> {
    return this.plans.findOneBy({ id, ...scope });
  }

  /**
   * The plan with its document lacking the fields `drop` (Postgres removes them before anything is sent: a
   * 100,000-task plan's assignments and placement are most of its 17 MB), and how many assignments it has.
   */
  async findWithout(id: string, scope: { tenantId?: string }, drop: readonly string[]): Promise<{ plan: PlanEntity; assignments: number } | null> {
    const select = Object.fromEntries(this.plans.metadata.columns.filter((c) => c.propertyName !== 'document').map((c) => [c.propertyName, true]));
    const plan = await this.plans.findOne({ where: { id, ...scope }, select });
    if (!plan) return null;
    const [row]: { document: PlanEntity['document']; assignments: number }[] = await this.plans.query(
      `SELECT document - $2::text[] AS document, jsonb_array_length(document->'assignments') AS assignments FROM plans WHERE id = $1`,
      [id, drop],
    );
    if (!row) return null;
    plan.document = row.document;
    return { plan, assignments: row.assignments };
  }

  /** The plan's document without the fields `drop`, as JSON text (not parsed here), with its solve and strategy; null: no such plan. */
  async documentText(id: string, drop: readonly string[]): Promise<{ solveId: string; strategy: string; json: string } | null> {
    const rows: { solve_id: string; strategy: string; json: string }[] = await this.plans.query(
      `SELECT solve_id, strategy, (document - $2::text[])::text AS json FROM plans WHERE id = $1`,
      [id, drop],
    );
    return rows.length ? { solveId: rows[0].solve_id, strategy: rows[0].strategy, json: rows[0].json } : null;
  }

  /** The plan's solve, without its document (null: no such plan in the scope). */
  async solveIdOf(id: string, scope: { tenantId?: string }): Promise<string | null> {
    return (await this.plans.findOne({ where: { id, ...scope }, select: { id: true, solveId: true } }))?.solveId ?? null;
  }

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.plans.manager.transaction(work);
  }

  /** The plan, its row locked until the transaction ends (a commit or release decides on its status). */
  lockedInTx(tx: EntityManager, id: string): Promise<PlanEntity | null> {
    return tx.getRepository(PlanEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async commit(tx: EntityManager, id: string, at: Date, borrowing: boolean): Promise<void> {
    await tx.query(`UPDATE plans SET status = 'committed', committed_at = $2, borrowing = $3 WHERE id = $1`, [id, at, borrowing]);
  }

  /** Releases plans (their holds are the caller's to delete); `reason` when not their customer's own doing. */
  async release(tx: EntityManager, ids: string[], at: Date, reason: string | null = null): Promise<void> {
    await tx.query(`UPDATE plans SET status = 'released', released_at = $2, release_reason = $3 WHERE id = ANY($1::uuid[])`, [ids, at, reason]);
  }

  /** The committed plans among `ids` not yet ended at `now`, most recently committed first (whose borrowed capacity goes back first). */
  async newestCommittedFirst(tx: EntityManager, ids: string[], now: Date): Promise<string[]> {
    const rows: { id: string }[] = await tx.query(`SELECT id FROM plans WHERE id = ANY($1::uuid[]) AND status = 'committed' AND ends_at > $2 ORDER BY committed_at DESC, id`, [ids, now]);
    return rows.map((r) => r.id);
  }

  /** Marks `oldId` superseded by `newId` through the caller's transaction; false when something already superseded it. */
  async supersede(tx: EntityManager, oldId: string, newId: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(`UPDATE plans SET superseded_by = $2 WHERE id = $1 AND superseded_by IS NULL RETURNING id`, [oldId, newId]);
    return rows.length > 0;
  }

  /** The plan in the caller's transaction (a plan stored in it is seen), without a lock. */
  inTx(tx: EntityManager, id: string): Promise<PlanEntity | null> {
    return tx.getRepository(PlanEntity).findOneBy({ id });
  }

  /**
   * The plan and every plan it supersedes, directly or not (its earlier versions), newest first, with their
   * solves: execution events are reported against any version's solve (a farmer may keep using the first one).
   */
  async lineage(id: string, tx?: EntityManager): Promise<PlanVersion[]> {
    return (tx ?? this.plans.manager).query(
      `WITH RECURSIVE chain(id, solve_id, status, supersedes, depth) AS (
         SELECT id, solve_id, status, supersedes, 0 FROM plans WHERE id = $1
         UNION ALL SELECT p.id, p.solve_id, p.status, p.supersedes, c.depth + 1 FROM plans p JOIN chain c ON p.id = c.supersedes WHERE c.depth < 10000)
       SELECT id, solve_id AS "solveId", status FROM chain ORDER BY depth`,
      [id],
    );
  }

  findById(id: string): Promise<PlanEntity | null> {
    return this.plans.findOneBy({ id });
  }

  /**
   * A page of assignments, filtered by node, job and time window (running at some slot of [from, to): end > from,
   * start < to), in plan order after position `after.seq`, or by start slot then plan order after (after.start,
   * after.seq); one more than `limit` tells whether more follow.
   */
  page(id: string, after: AssignmentPosition, f: AssignmentFilter & { order: AssignmentOrder; limit: number }): Promise<PlanAssignmentEntity[]> {
    const q = this.assignments.createQueryBuilder('a').where('a.plan_id = :id', { id });
    if (f.order === 'start') q.andWhere('(a.start, a.seq) > (:start, :seq)', { start: after.start, seq: after.seq }).orderBy('a.start', 'ASC').addOrderBy('a.seq', 'ASC');
    else q.andWhere('a.seq > :seq', { seq: after.seq }).orderBy('a.seq', 'ASC');
    if (f.node !== undefined) q.andWhere('a.node = :node', { node: f.node });
    if (f.job !== undefined) q.andWhere('a.job = :job', { job: f.job });
    if (f.from !== undefined) q.andWhere('a.end_slot > :from', { from: f.from });
    if (f.to !== undefined) q.andWhere('a.start < :to', { to: f.to });
    return q.take(f.limit + 1).getMany();
  }

  /**
   * Stores a plan and its assignment rows through the caller's transaction (the solve's status changes in
   * the same one). The unique solve_id makes a retried solve (after a worker died) end with exactly one
   * plan, the first one stored: null when a plan of the solve exists already.
   */
  async insert(tx: EntityManager, p: PlanToStore): Promise<string | null> {
    const d = p.document;
    const inserted: { id: string }[] = await tx.query(
      `INSERT INTO plans (tenant_id, solve_id, strategy, scheduled_tasks, makespan_slots, optimal, document, cluster_id, window_starts_at, slot_seconds, slots, ends_at, supersedes, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $9::timestamptz + $12 * interval '1 second', $13::uuid,
               COALESCE((SELECT version + 1 FROM plans WHERE id = $13::uuid), 1))
       ON CONFLICT (solve_id) DO NOTHING RETURNING id`,
      [p.tenantId, p.solveId, d.strategy, d.objective.scheduledTasks, d.objective.makespanSlots, d.optimal === true, p.documentText ?? d, p.clusterId, p.window.startsAt, p.window.slotSeconds, p.window.slots, d.objective.makespanSlots * p.window.slotSeconds, p.supersedes ?? null],
    );
    if (inserted.length === 0) return null;
    const planId = inserted[0].id;
    const a = d.assignments;
    // One statement for any number of rows: arrays unnested server-side (10,000 rows in a few ms).
    await tx.query(
      `INSERT INTO plan_assignments (plan_id, seq, job, stage, task, node, start, end_slot)
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::int[], $6::text[], $7::int[], $8::int[])`,
      [planId, a.map((_, i) => i), a.map((x) => x.job), a.map((x) => x.stage), a.map((x) => x.task), a.map((x) => x.node), a.map((x) => x.start), p.ends],
    );
    return planId;
  }
}
