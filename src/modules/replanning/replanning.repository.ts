import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { AutoReplanEntity, ReplanningSettingsEntity, ReplanTriggerKind } from './replanning.entity';

/** An automatic re-plan to request: which plan, why. */
export interface ReplanRequest {
  clusterId: string;
  planId: string;
  trigger: ReplanTriggerKind;
  reason: string;
  detail: Record<string, unknown>;
}

/** The cluster_replanning, auto_replans and auto_replan_gates tables. */
@Injectable()
export class ReplanningRepository {
  constructor(
    @InjectRepository(ReplanningSettingsEntity) private readonly settings: Repository<ReplanningSettingsEntity>,
    @InjectRepository(AutoReplanEntity) private readonly requests: Repository<AutoReplanEntity>,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  settingsOf(clusterId: string): Promise<ReplanningSettingsEntity | null> {
    return this.settings.findOneBy({ clusterId });
  }

  async putSettings(row: Omit<ReplanningSettingsEntity, 'updatedAt'>): Promise<ReplanningSettingsEntity> {
    await this.settings.upsert(row, ['clusterId']);
    return this.settings.findOneByOrFail({ clusterId: row.clusterId });
  }

  /**
   * Records the request unless the gate `gateId` (the plan's first version) was last passed less than
   * `minIntervalSeconds` ago; null then. One statement: the gate row moves forward only when the interval has
   * passed (an upsert whose update is conditional), and the request is written only when it moved. A concurrent
   * twin waits for the gate's row lock and then sees it moved, so of two API processes firing at once exactly one requests.
   */
  async request(r: ReplanRequest, gateId: string, minIntervalSeconds: number): Promise<AutoReplanEntity | null> {
    const rows: { id: string }[] = await this.db.query(
      `WITH gate AS (
         INSERT INTO auto_replan_gates AS g (plan_id, last_requested_at) VALUES ($1, clock_timestamp())
         ON CONFLICT (plan_id) DO UPDATE SET last_requested_at = EXCLUDED.last_requested_at
           WHERE g.last_requested_at <= EXCLUDED.last_requested_at - make_interval(secs => $2)
         RETURNING plan_id)
       INSERT INTO auto_replans (cluster_id, plan_id, trigger, reason, detail, status)
       SELECT $3, $7, $4, $5, $6::jsonb, 'requested' FROM gate
       RETURNING id`,
      [gateId, minIntervalSeconds, r.clusterId, r.trigger, r.reason, JSON.stringify(r.detail), r.planId],
    );
    return rows.length ? this.requests.findOneByOrFail({ id: rows[0].id }) : null;
  }

  async queued(id: string, solveId: string): Promise<void> {
    await this.requests.update({ id }, { status: 'queued', solveId });
  }

  async failed(id: string, error: string): Promise<void> {
    await this.requests.update({ id }, { status: 'failed', error });
  }

  /** The cluster's requests, newest first, one more than `limit` (see keyset-page.ts). */
  page(clusterId: string, limit: number, cursor?: string): Promise<AutoReplanEntity[]> {
    return newestFirst(this.requests.createQueryBuilder('r').where('r.cluster_id = :clusterId', { clusterId }), 'r', limit, cursor).getMany();
  }
}
