import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PlanChartEntity } from './plan-chart.entity';

/** Which stored chart a request asks for: every part of the key of plan_charts. */
export interface StoredChartKey {
  planId: string;
  chart: string;
  format: string;
  params: string;
  revision: string;
}

/** A chart made by the worker, to store with its plan. */
export interface ChartToStore {
  chart: string;
  format: string;
  params: string;
  body: string;
  renderMs: number;
}

/** The stored renderings of plans' charts (plan_charts). */
@Injectable()
export class PlanChartsRepository {
  constructor(@InjectRepository(PlanChartEntity) private readonly charts: Repository<PlanChartEntity>) {}

  /** The body stored under exactly this key, or null. */
  async body(k: StoredChartKey): Promise<string | null> {
    const rows: { body: string }[] = await this.charts.query(
      `SELECT body FROM plan_charts WHERE plan_id = $1 AND chart = $2 AND format = $3 AND params = $4 AND revision = $5`,
      [k.planId, k.chart, k.format, k.params, k.revision],
    );
    return rows.length ? rows[0].body : null;
  }

  /**
   * Stores a plan's charts through the caller's transaction (the one that stores the plan), inside a savepoint:
   * if they cannot be stored, the savepoint is rolled back and the error thrown, and the plan's transaction goes
   * on without them (a chart is never worth failing a solve). Rows already there (a retried store) are kept.
   */
  async insertInTx(tx: EntityManager, planId: string, revision: string, charts: ChartToStore[]): Promise<void> {
    if (charts.length === 0) return;
    await tx.query('SAVEPOINT plan_charts');
    try {
      await tx.query(
        `INSERT INTO plan_charts (plan_id, chart, format, params, revision, body, render_ms)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[])
         ON CONFLICT DO NOTHING`,
        [planId, charts.map((c) => c.chart), charts.map((c) => c.format), charts.map((c) => c.params), charts.map(() => revision), charts.map((c) => c.body), charts.map((c) => c.renderMs)],
      );
      await tx.query('RELEASE SAVEPOINT plan_charts');
    } catch (e) {
      await tx.query('ROLLBACK TO SAVEPOINT plan_charts');
      throw e;
    }
  }

}
