import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PlanJobOutcome } from '../accounting/lines';
import { Principal } from '../auth/principal';
import { EventInput, SolveShape } from './event-validation';

/** A stored event's content (what a repeated event id is compared with). */
export type StoredEvent = Omit<EventInput, 'id'>;

/** A solve as its execution report needs it: slot 0, slot length and the plan's per-job outcomes. */
export interface ReportedSolve {
  startsAt: Date;
  slotSeconds: number;
  outcomes: PlanJobOutcome[];
}

export interface SolveJobRow {
  job: string;
  deadline: number | null;
  tasks: number;
}

export interface JobTaskCounts {
  job: string;
  started: number;
  finished: number;
  killed: number;
  end_at: Date | null;
}

/**
 * Who may report on or read the executions of a solve: the farmer owning its cluster, the customer of an
 * inline solve (no farmer runs those for it), and operators. SQL predicate over `s` (solves) and `c`
 * (its cluster); `reading` also lets the customer who asked for a by-reference solve read.
 */
function access(p: Principal, reading: boolean, param: string): string {
  if (p.role === 'operator') return `${param}::uuid IS NOT NULL`; // always true; keeps the parameter typed
  if (p.role === 'farmer') return `c.tenant_id = ${param}`;
  return reading ? `s.tenant_id = ${param}` : `(s.tenant_id = ${param} AND s.cluster_id IS NULL)`;
}

/**
 * The execution_events table. The reads of solves, clusters and plans here are read-only report queries
 * over the solve/plan tables (SQL kept as is); this module never writes them.
 */
@Injectable()
export class ExecutionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Inserts the events not recorded yet, in one transaction, and returns the ids it inserted. The stored
   * content of the other (already known) ids goes to `check` first, which throws to write nothing.
   */
  insertNew(tenantId: string, events: EventInput[], check: (known: EventInput[], stored: Map<string, StoredEvent>) => void): Promise<Set<string>> {
    return this.db.transaction(async (tx) => {
      const inserted: { event_id: string }[] = await tx.query(
        `INSERT INTO execution_events (tenant_id, event_id, solve_id, job, stage, task, node, type, at, reason)
         SELECT $1, * FROM unnest($2::text[], $3::uuid[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::timestamptz[], $10::text[])
         ON CONFLICT (tenant_id, event_id) DO NOTHING RETURNING event_id`,
        [tenantId, ...columns(events)],
      );
      const fresh = new Set(inserted.map((r) => r.event_id));
      const known = events.filter((e) => !fresh.has(e.id));
      if (known.length) {
        const rows: { event_id: string; solve_id: string; job: string; stage: string; task: number; node: string; type: EventInput['type']; at: Date; reason: string | null }[] = await tx.query(
          `SELECT event_id, solve_id, job, stage, task, node, type, at, reason FROM execution_events WHERE tenant_id = $1 AND event_id = ANY($2::text[])`,
          [tenantId, known.map((e) => e.id)],
        );
        check(known, new Map(rows.map((r) => [r.event_id, { solveId: r.solve_id, job: r.job, stage: r.stage, task: r.task, node: r.node, type: r.type, at: r.at, reason: r.reason }])));
      }
      return fresh;
    });
  }

  /** The solve if the caller may read its executions, else null. */
  async reportedSolve(p: Principal, solveId: string): Promise<ReportedSolve | null> {
    const found = await this.db.query(
      `SELECT s.starts_at, (s.instance->'horizon'->>'slotSeconds')::float8 AS slot_seconds, pl.document->'kpis'->'jobs' AS outcomes
       FROM solves s LEFT JOIN clusters c ON c.id = s.cluster_id LEFT JOIN plans pl ON pl.solve_id = s.id
       WHERE s.id = $1 AND ${access(p, true, '$2')}`,
      [solveId, p.tenantId],
    );
    if (!found.length) return null;
    return { startsAt: found[0].starts_at, slotSeconds: found[0].slot_seconds, outcomes: found[0].outcomes ?? [] };
  }

  /** The solve's jobs in instance order, each with its deadline slot and task count. */
  jobsOf(solveId: string): Promise<SolveJobRow[]> {
    return this.db.query(
      `SELECT j->>'id' AS job, (j->>'deadlineSlot')::int AS deadline,
              (SELECT COALESCE(sum((st->>'tasks')::int), 0) FROM jsonb_array_elements(j->'stages') st)::int AS tasks
       FROM solves s CROSS JOIN LATERAL jsonb_array_elements(s.instance->'jobs') WITH ORDINALITY AS x(j, n) WHERE s.id = $1 ORDER BY n`,
      [solveId],
    );
  }

  /** Per job of a solve: tasks started, finished and killed, and the last finish. */
  taskCounts(solveId: string): Promise<JobTaskCounts[]> {
    return this.db.query(
      `WITH t AS (SELECT job, stage, task, bool_or(type = 'started') AS st, bool_or(type = 'finished') AS fi, bool_or(type = 'killed') AS ki,
                         max(at) FILTER (WHERE type = 'finished') AS fat
                  FROM execution_events WHERE solve_id = $1 GROUP BY 1, 2, 3)
       SELECT job, (count(*) FILTER (WHERE st))::int AS started, (count(*) FILTER (WHERE fi))::int AS finished,
              (count(*) FILTER (WHERE ki))::int AS killed, max(fat) AS end_at FROM t GROUP BY job`,
      [solveId],
    );
  }

  /** The jobs (stage -> tasks) and nodes of the solves the caller may report on, in one query. */
  async shapes(p: Principal, solveIds: string[]): Promise<Map<string, SolveShape>> {
    const rows: { id: string; jobs: Record<string, Record<string, number>> | null; nodes: string[] | null }[] = await this.db.query(
      `SELECT s.id,
              (SELECT jsonb_object_agg(j->>'id', (SELECT COALESCE(jsonb_object_agg(st->>'id', st->'tasks'), '{}'::jsonb) FROM jsonb_array_elements(j->'stages') st))
               FROM jsonb_array_elements(s.instance->'jobs') j) AS jobs,
              (SELECT jsonb_agg(n->>'id') FROM jsonb_array_elements(s.instance->'nodes') n) AS nodes
       FROM solves s LEFT JOIN clusters c ON c.id = s.cluster_id
       WHERE s.id = ANY($1::uuid[]) AND ${access(p, false, '$2')}`,
      [solveIds, p.tenantId],
    );
    return new Map(
      rows.map((r) => [
        r.id,
        { jobs: new Map(Object.entries(r.jobs ?? {}).map(([job, stages]) => [job, new Map(Object.entries(stages))])), nodes: new Set(r.nodes ?? []) },
      ]),
    );
  }
}

function columns(events: EventInput[]): unknown[] {
  return [
    events.map((e) => e.id),
    events.map((e) => e.solveId),
    events.map((e) => e.job),
    events.map((e) => e.stage),
    events.map((e) => e.task),
    events.map((e) => e.node),
    events.map((e) => e.type),
    events.map((e) => e.at),
    events.map((e) => e.reason),
  ];
}
