import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newestFirst } from '../common/keyset-page';
import { SolveEntity, SolveStatus } from './solve.entity';

/** Reads of solves (every status change is the long-work kernel's: LongWorkRepository). */
@Injectable()
export class SolvesRepository {
  constructor(@InjectRepository(SolveEntity) private readonly solves: Repository<SolveEntity>) {}

  findScoped(id: string, scope: { tenantId?: string }): Promise<SolveEntity | null> {
    return this.solves.findOneBy({ id, ...scope });
  }

  /** Newest first, one more than `limit` (see keyset-page.ts). */
  page(scope: { tenantId?: string }, limit: number, cursor?: string, status?: SolveStatus): Promise<SolveEntity[]> {
    const q = this.solves.createQueryBuilder('s');
    if (scope.tenantId) q.andWhere('s.tenant_id = :t', { t: scope.tenantId });
    if (status) q.andWhere('s.status = :status', { status });
    return newestFirst(q, 's', limit, cursor).getMany();
  }

  /**
   * Whether the solve's instance has a node and a job of these ids (undefined: not asked), and its first few
   * node and job ids for a message, read inside Postgres rather than loading the instance.
   */
  async instanceNames(id: string, node?: string, job?: string): Promise<{ hasNode: boolean; hasJob: boolean; nodes: string[]; jobs: string[] }> {
    const [row] = await this.solves.query(
      `SELECT ($2::text IS NULL OR jsonb_path_exists(instance, '$.nodes[*] ? (@.id == $v)', jsonb_build_object('v', $2::text))) AS "hasNode",
              ($3::text IS NULL OR jsonb_path_exists(instance, '$.jobs[*] ? (@.id == $v)', jsonb_build_object('v', $3::text))) AS "hasJob",
              jsonb_path_query_array(instance, '$.nodes[0 to 9].id') AS nodes, jsonb_path_query_array(instance, '$.jobs[0 to 9].id') AS jobs
       FROM solves WHERE id = $1`,
      [id, node ?? null, job ?? null],
    );
    return row;
  }

  /** A re-plan of the plan still queued or running (null: none): a plan is re-planned by one re-plan at a time. */
  unfinishedReplanOf(planId: string): Promise<SolveEntity | null> {
    return this.solves
      .createQueryBuilder('s')
      .where(`s.kind = 'replan' AND s.status IN ('queued', 'running') AND s.replan->>'planId' = :planId`, { planId })
      .getOne();
  }

  /** The solve with its instance (not loaded by default: it can be megabytes). */
  /** The solve's instance as JSON text, not parsed (what a chart thread parses); null: no such solve. */
  async instanceText(id: string): Promise<string | null> {
    const rows: { json: string }[] = await this.solves.query('SELECT instance::text AS json FROM solves WHERE id = $1', [id]);
    return rows[0]?.json ?? null;
  }

  withInstance(id: string): Promise<SolveEntity> {
    return this.solves.createQueryBuilder('s').addSelect('s.instance').where('s.id = :id', { id }).getOneOrFail();
  }

  /** The forecast each solve was made on (null: planned on idle nodes, or a whole instance). */
  async forecastIds(ids: string[]): Promise<Map<string, string | null>> {
    const rows: { id: string; forecast_id: string | null }[] = await this.solves.query('SELECT id, forecast_id FROM solves WHERE id = ANY($1::uuid[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.forecast_id]));
  }
}
