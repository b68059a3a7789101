import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThan, Not } from 'typeorm';
import type { TenantLoad } from './fair-share';
import { WorkEndings } from './work-endings';
import { TERMINAL_WORK_STATUSES, WorkKind, WorkRow } from './work-kind';

type Fields = Record<string, unknown>;

/**
 * Every status change of every kind of long work, and nothing else: creation (`queued`), the claim
 * (`running`), progress, and the end (`succeeded`, `failed`, `cancelled`). Each change is guarded by
 * the status it starts from, so the API, any number of workers and retries race safely.
 */
@Injectable()
export class LongWorkRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly endings: WorkEndings,
  ) {}

  /** Announces the end when `affected` says this change made it (WorkEndings). */
  private async ended(kind: WorkKind<any>, id: string, affected: number | undefined): Promise<boolean> {
    if (!affected) return false;
    await this.endings.ended(kind, id);
    return true;
  }

  private rows<Row extends WorkRow>(kind: WorkKind<Row>) {
    return this.db.getRepository<WorkRow>(kind.entity as WorkKind['entity']);
  }

  async insertQueued<Row extends WorkRow>(kind: WorkKind<Row>, fields: Partial<Row>): Promise<Row> {
    const repo = this.rows(kind);
    return (await repo.save(repo.create({ ...(fields as Partial<WorkRow>), status: 'queued', error: null, startedAt: null, finishedAt: null }))) as Row;
  }

  /** The queue refused the job: the row must not stay queued (nothing would ever run it). */
  async failUnqueued(kind: WorkKind<any>, id: string): Promise<void> {
    const r = await this.rows(kind).update({ id, status: 'queued' }, { status: 'failed', error: 'could not be queued', finishedAt: new Date() });
    await this.ended(kind, id, r.affected);
  }

  /** Takes the work for this worker. `running` is claimable too: that is a retry after the worker that had it died. */
  /** Marks the row running (and with `progress`, when given, in the same write: never running without it). */
  async claim(kind: WorkKind<any>, id: string, progress?: unknown): Promise<boolean> {
    const r = await this.rows(kind).update(
      { id, status: In(['queued', 'running']) },
      { status: 'running', startedAt: new Date(), attempts: () => 'attempts + 1', ...(progress !== undefined ? { progress } : {}) } as Fields,
    );
    return (r.affected ?? 0) > 0;
  }

  /** The whole row, with the columns not loaded by default that the worker needs. */
  async load<Row extends WorkRow>(kind: WorkKind<Row>, id: string): Promise<Row> {
    const q = this.rows(kind).createQueryBuilder('w');
    for (const c of kind.heavyColumns ?? []) q.addSelect(`w.${c}`);
    return (await q.where('w.id = :id', { id }).getOneOrFail()) as Row;
  }

  async progress(kind: WorkKind<any>, id: string, progress: unknown): Promise<void> {
    await this.rows(kind).update({ id, status: 'running' }, { progress } as Fields);
  }

  /**
   * Ends running work in one transaction: `store` writes its outputs (a plan, a forecast) through the
   * transaction and returns the fields to set on the row, or null when there is nothing to do (a
   * retried attempt whose output was already stored). False when the work was no longer running.
   */
  async finish(kind: WorkKind<any>, id: string, status: 'succeeded' | 'cancelled', store: (tx: EntityManager) => Promise<Fields | null>): Promise<boolean> {
    const affected = await this.db.transaction(async (tx) => {
      const fields = await store(tx);
      if (fields === null) return 0;
      const r = await tx.update(kind.entity, { id, status: Not(In([...TERMINAL_WORK_STATUSES])) }, { ...fields, status, error: null, finishedAt: new Date() });
      return r.affected ?? 0;
    });
    return this.ended(kind, id, affected); // once committed: a listener reads what was stored
  }

  async fail(kind: WorkKind<any>, id: string, error: string): Promise<void> {
    const r = await this.rows(kind).update({ id, status: 'running' }, { status: 'failed', error, finishedAt: new Date() });
    await this.ended(kind, id, r.affected);
  }

  /** A queued one is cancelled at once; true when it was. */
  async cancelQueued(kind: WorkKind<any>, id: string): Promise<boolean> {
    const now = new Date();
    const r = await this.rows(kind).update({ id, status: 'queued' }, { status: 'cancelled', cancelRequestedAt: now, finishedAt: now } as Fields);
    return this.ended(kind, id, r.affected);
  }

  /** A running one is asked to stop: its worker ends it `cancelled` with its best so far. */
  async requestCancel(kind: WorkKind<any>, id: string): Promise<void> {
    await this.rows(kind).update({ id, status: 'running' }, { cancelRequestedAt: new Date() } as Fields);
  }

  async cancelRequested(kind: WorkKind<any>, id: string): Promise<boolean> {
    const row = (await this.rows(kind).findOneBy({ id })) as WorkRow | null;
    return !!row?.cancelRequestedAt;
  }

  /** Ends unfinished work `cancelled` with nothing stored (a stopped build or simulation; a cancel whose worker died). */
  async endCancelled(kind: WorkKind<any>, id: string): Promise<boolean> {
    const r = await this.rows(kind).update({ id, status: In(['queued', 'running']) }, { status: 'cancelled', finishedAt: new Date() });
    return this.ended(kind, id, r.affected);
  }

  /**
   * The tenant of unfinished work `id`, and the load of the kind of every tenant with unfinished work (its
   * own included), `id` itself counted nowhere (fair-share.ts); null when `id` is no longer unfinished.
   */
  async tenantLoads(kind: WorkKind<any>, id: string): Promise<{ tenantId: string; loads: TenantLoad[] } | null> {
    const table = `"${this.rows(kind).metadata.tableName}"`;
    const raw: { tenantId: string; running: string; queued: string; lastStartedAt: Date | null; mine: boolean }[] = await this.db.query(
      `SELECT w.tenant_id AS "tenantId",
              count(*) FILTER (WHERE w.status = 'running' AND w.id <> $1) AS running,
              count(*) FILTER (WHERE w.status = 'queued' AND w.id <> $1) AS queued,
              bool_or(w.id = $1) AS mine,
              (SELECT max(x.started_at) FROM ${table} x WHERE x.tenant_id = w.tenant_id AND x.id <> $1) AS "lastStartedAt"
       FROM ${table} w WHERE w.status IN ('queued', 'running') GROUP BY w.tenant_id`,
      [id],
    );
    const mine = raw.find((r) => r.mine);
    if (!mine) return null;
    return { tenantId: mine.tenantId, loads: raw.map((r) => ({ tenantId: r.tenantId, running: Number(r.running), queued: Number(r.queued), lastStartedAt: r.lastStartedAt })) };
  }

  /** Unfinished work (queued or running) created before `before`: what the reconciler looks at. */
  async unfinished(kind: WorkKind<any>, before: Date, limit = 500): Promise<WorkRow[]> {
    return this.rows(kind).find({ where: { status: In(['queued', 'running']), createdAt: LessThan(before) } as never, order: { createdAt: 'ASC' } as never, take: limit });
  }

  /** Back to `queued` for another run (the reconciler re-queues work whose job was lost or gave up). */
  async requeue(kind: WorkKind<any>, id: string): Promise<boolean> {
    const r = await this.rows(kind).update({ id, status: In(['queued', 'running']) }, { status: 'queued' });
    return (r.affected ?? 0) > 0;
  }

  /** Ends unfinished work as failed (the reconciler's last word, or a poison pill at its claim). */
  async failUnfinished(kind: WorkKind<any>, id: string, error: string): Promise<void> {
    const r = await this.rows(kind).update({ id, status: In(['queued', 'running']) }, { status: 'failed', error, finishedAt: new Date() });
    await this.ended(kind, id, r.affected);
  }
}
