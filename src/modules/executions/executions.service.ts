import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Issue } from '../../engine/model/types';
import { actualStatus } from '../accounting/ledger';
import { PlanJobOutcome } from '../accounting/lines';
import { slotTime } from '../accounting/periods';
import { Principal } from '../auth/principal';
import { invalid, notFound, ProblemException } from '../common/problem';
import { contentKey, EventInput, eventIssues, SolveShape, solveIdsOf } from './event-validation';
import { JobExecutionDto, PostExecutionEventsResultDto, SolveExecutionsDto } from './execution.dto';

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

@Injectable()
export class ExecutionsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Validates the whole request first (a rejected request writes nothing), then records the new events in
   * one transaction. A known id with the same content is a duplicate; with different content the request
   * is a 409 and nothing is written.
   */
  async record(p: Principal, events: unknown[]): Promise<PostExecutionEventsResultDto> {
    const shapes = await this.shapes(p, solveIdsOf(events));
    const { issues, parsed } = eventIssues(events, shapes);
    if (issues.length) throw invalid(issues, 'some events are invalid; nothing was recorded');
    const firstIndex = new Map<string, number>();
    events.forEach((e, i) => {
      const id = (e as { id: string }).id;
      if (!firstIndex.has(id)) firstIndex.set(id, i);
    });
    const unique = [...new Map(parsed.map((e) => [e.id, e])).values()];
    return this.db.transaction(async (tx) => {
      const inserted: { event_id: string }[] = await tx.query(
        `INSERT INTO execution_events (tenant_id, event_id, solve_id, job, stage, task, node, type, at, reason)
         SELECT $1, * FROM unnest($2::text[], $3::uuid[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::timestamptz[], $10::text[])
         ON CONFLICT (tenant_id, event_id) DO NOTHING RETURNING event_id`,
        [p.tenantId, ...columns(unique)],
      );
      const fresh = new Set(inserted.map((r) => r.event_id));
      const known = unique.filter((e) => !fresh.has(e.id));
      if (known.length) {
        const rows: { event_id: string; solve_id: string; job: string; stage: string; task: number; node: string; type: EventInput['type']; at: Date; reason: string | null }[] = await tx.query(
          `SELECT event_id, solve_id, job, stage, task, node, type, at, reason FROM execution_events WHERE tenant_id = $1 AND event_id = ANY($2::text[])`,
          [p.tenantId, known.map((e) => e.id)],
        );
        const stored = new Map(rows.map((r) => [r.event_id, contentKey({ solveId: r.solve_id, job: r.job, stage: r.stage, task: r.task, node: r.node, type: r.type, at: r.at, reason: r.reason })]));
        const conflicts: Issue[] = known
          .filter((e) => stored.get(e.id) !== contentKey(e))
          .map((e) => ({ path: `events[${firstIndex.get(e.id)}].id`, message: `event "${e.id}" was already recorded with different content` }));
        if (conflicts.length) throw new ProblemException(HttpStatus.CONFLICT, 'Conflict', 'event ids already recorded with different content; nothing was recorded', conflicts);
      }
      return { accepted: fresh.size, duplicates: events.length - fresh.size };
    });
  }

  /** Per job of a solve: how many tasks started, finished and were killed, and its actual SLA status. */
  async ofSolve(p: Principal, solveId: string): Promise<SolveExecutionsDto> {
    const found = await this.db.query(
      `SELECT s.starts_at, (s.instance->'horizon'->>'slotSeconds')::float8 AS slot_seconds, pl.document->'kpis'->'jobs' AS outcomes
       FROM solves s LEFT JOIN clusters c ON c.id = s.cluster_id LEFT JOIN plans pl ON pl.solve_id = s.id
       WHERE s.id = $1 AND ${access(p, true, '$2')}`,
      [solveId, p.tenantId],
    );
    if (!found.length) throw notFound('solve', solveId);
    const { starts_at: startsAt, slot_seconds: slotSeconds } = found[0];
    const outcomes = new Map<string, PlanJobOutcome>(((found[0].outcomes ?? []) as PlanJobOutcome[]).map((o) => [o.id, o]));
    const jobs: { job: string; deadline: number | null; tasks: number }[] = await this.db.query(
      `SELECT j->>'id' AS job, (j->>'deadlineSlot')::int AS deadline,
              (SELECT COALESCE(sum((st->>'tasks')::int), 0) FROM jsonb_array_elements(j->'stages') st)::int AS tasks
       FROM solves s CROSS JOIN LATERAL jsonb_array_elements(s.instance->'jobs') WITH ORDINALITY AS x(j, n) WHERE s.id = $1 ORDER BY n`,
      [solveId],
    );
    const counts: { job: string; started: number; finished: number; killed: number; end_at: Date | null }[] = await this.db.query(
      `WITH t AS (SELECT job, stage, task, bool_or(type = 'started') AS st, bool_or(type = 'finished') AS fi, bool_or(type = 'killed') AS ki,
                         max(at) FILTER (WHERE type = 'finished') AS fat
                  FROM execution_events WHERE solve_id = $1 GROUP BY 1, 2, 3)
       SELECT job, (count(*) FILTER (WHERE st))::int AS started, (count(*) FILTER (WHERE fi))::int AS finished,
              (count(*) FILTER (WHERE ki))::int AS killed, max(fat) AS end_at FROM t GROUP BY job`,
      [solveId],
    );
    const byJob = new Map(counts.map((c) => [c.job, c]));
    return {
      solveId,
      startsAt: startsAt.toISOString(),
      jobs: jobs.map((j): JobExecutionDto => {
        const c = byJob.get(j.job);
        const o = outcomes.get(j.job);
        const deadlineAt = j.deadline === null ? null : slotTime(startsAt, j.deadline, slotSeconds);
        const sla = actualStatus({ acceptedInPlan: o?.accepted ?? true, totalTasks: j.tasks, finishedTasks: c?.finished ?? 0, endAt: c?.end_at ?? null, deadlineAt });
        return {
          job: j.job,
          totalTasks: j.tasks,
          startedTasks: c?.started ?? 0,
          finishedTasks: c?.finished ?? 0,
          killedTasks: c?.killed ?? 0,
          sla,
          endAt: sla === 'on-time' || sla === 'late' ? c!.end_at!.toISOString() : null,
          deadlineAt: deadlineAt?.toISOString() ?? null,
          plannedEndAt: o?.accepted && o.endSlot !== null ? slotTime(startsAt, o.endSlot, slotSeconds).toISOString() : null,
        };
      }),
    };
  }

  /** The jobs (stage -> tasks) and nodes of the solves the caller may report on, in one query. */
  private async shapes(p: Principal, solveIds: string[]): Promise<Map<string, SolveShape>> {
    if (!solveIds.length) return new Map();
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
