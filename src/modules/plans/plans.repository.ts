import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PlanDoc } from '../../engine/model/types';
import { SolveProgress, SolveStatus } from '../solves/solve.entity';

export interface PlanToStore {
  tenantId: string;
  solveId: string;
  document: PlanDoc & Record<string, unknown>;
  /** End of the assignment, per assignment (start + duration), for paging views. */
  ends: number[];
  /** The solve's final status: succeeded, or cancelled when the caller stopped it early. */
  status: Extract<SolveStatus, 'succeeded' | 'cancelled'>;
  progress: SolveProgress;
}

/**
 * Stores a plan, its assignment rows and the solve's final status in one transaction. The unique
 * solve_id makes a retried solve (after a worker died) end with exactly one plan: the first one stored.
 */
@Injectable()
export class PlansRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async store(p: PlanToStore): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      const d = p.document;
      const inserted: { id: string }[] = await tx.query(
        `INSERT INTO plans (tenant_id, solve_id, strategy, scheduled_tasks, makespan_slots, optimal, document)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (solve_id) DO NOTHING RETURNING id`,
        [p.tenantId, p.solveId, d.strategy, d.objective.scheduledTasks, d.objective.makespanSlots, d.optimal === true, d],
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
      await tx.query(
        `UPDATE solves SET status = $2, plan_id = $3, progress = $4, finished_at = now(), error = NULL
         WHERE id = $1 AND status NOT IN ('succeeded', 'failed', 'cancelled')`,
        [p.solveId, p.status, planId, p.progress],
      );
      return planId;
    });
  }
}
