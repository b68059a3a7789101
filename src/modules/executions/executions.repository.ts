import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { PlanJobOutcome } from '../accounting/lines';
import { Principal } from '../auth/principal';
import { EventInput, SolveShape } from './event-validation';
import { HISTORY_MOMENTS } from './stage-history.entity';

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

/** What happened to one task, when (an execution event without the reporter's extras). */
export interface TaskEventRow {
  job: string;
  stage: string;
  task: number;
  node: string;
  type: EventInput['type'];
  at: Date;
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
        `INSERT INTO execution_events (tenant_id, event_id, solve_id, job, stage, task, node, type, at, reason, input_bytes, output_bytes, locality, shuffle_end_at, merge_end_at)
         SELECT $1, * FROM unnest($2::text[], $3::uuid[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::timestamptz[], $10::text[],
                                  $11::bigint[], $12::bigint[], $13::text[], $14::timestamptz[], $15::timestamptz[])
         ON CONFLICT (tenant_id, event_id) DO NOTHING RETURNING event_id`,
        [tenantId, ...columns(events)],
      );
      const fresh = new Set(inserted.map((r) => r.event_id));
      const known = events.filter((e) => !fresh.has(e.id));
      if (known.length) {
        const rows: EventRow[] = await tx.query(`SELECT ${EVENT_COLUMNS} FROM execution_events WHERE tenant_id = $1 AND event_id = ANY($2::text[])`, [tenantId, known.map((e) => e.id)]);
        check(known, new Map(rows.map((r) => [r.event_id, storedEvent(r)])));
      }
      const touched = new Map(events.filter((e) => fresh.has(e.id)).map((e) => [`${e.solveId}\u0000${e.job}`, e]));
      if (touched.size) await this.refreshHistory(tx, [...touched.values()].map((e) => e.solveId), [...touched.values()].map((e) => e.job));
      return fresh;
    });
  }

  /**
   * Rebuilds stage_history for the given (solve, job) pairs from their events: per stage, the sums of
   * src/engine/predict/stats.ts over its completed tasks. A task's run is its last finished event and the
   * last started event at or before it; a reduce is first-wave when it started before its job's last map
   * ended. Kind and classes come from the solve's instance; the tenant is the solve's (the customer).
   */
  private async refreshHistory(tx: EntityManager, solveIds: string[], jobs: string[]): Promise<void> {
    await tx.query(
      `WITH keys AS (SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[]) AS k(solve_id, job)),
       fin AS (
         SELECT DISTINCT ON (e.solve_id, e.job, e.stage, e.task) e.solve_id, e.job, e.stage, e.task, e.at AS finished_at,
                e.input_bytes::float8 AS d, e.output_bytes::float8 AS o, e.locality, e.shuffle_end_at, e.merge_end_at
         FROM execution_events e JOIN keys k ON k.solve_id = e.solve_id AND k.job = e.job
         WHERE e.type = 'finished' ORDER BY e.solve_id, e.job, e.stage, e.task, e.at DESC),
       runs AS (
         SELECT f.*, (SELECT max(s.at) FROM execution_events s WHERE s.solve_id = f.solve_id AND s.job = f.job AND s.stage = f.stage
                      AND s.task = f.task AND s.type = 'started' AND s.at <= f.finished_at) AS started_at
         FROM fin f),
       shaped AS (
         SELECT r.*, extract(epoch FROM r.finished_at - r.started_at)::float8 AS rt,
                CASE WHEN jsonb_array_length(COALESCE(st->'after', '[]'::jsonb)) > 0 THEN 'reduce' ELSE 'map' END AS kind,
                j->>'mapClass' AS map_class, j->>'reduceClass' AS reduce_class, s.tenant_id
         FROM runs r JOIN solves s ON s.id = r.solve_id
         CROSS JOIN LATERAL (SELECT j FROM jsonb_array_elements(s.instance->'jobs') j WHERE j->>'id' = r.job) jj
         CROSS JOIN LATERAL (SELECT st FROM jsonb_array_elements(j->'stages') st WHERE st->>'id' = r.stage) ss
         WHERE r.started_at IS NOT NULL),
       waves AS (
         SELECT x.*, (x.kind = 'reduce' AND x.started_at < max(x.finished_at) FILTER (WHERE x.kind = 'map') OVER (PARTITION BY x.solve_id, x.job)) AS first_wave,
                extract(epoch FROM x.shuffle_end_at - x.started_at)::float8 AS sh, extract(epoch FROM x.merge_end_at - x.shuffle_end_at)::float8 AS mg,
                extract(epoch FROM x.finished_at - x.merge_end_at)::float8 AS rd
         FROM shaped x),
       v AS (
         SELECT *, d > 0 AND sh IS NOT NULL AND mg IS NOT NULL AND rd IS NOT NULL AS phased
         FROM waves)
       INSERT INTO stage_history (solve_id, job, stage, tenant_id, kind, map_class, reduce_class, last_finished_at, bytes_in, bytes_out,
         ${MOMENT_COLUMNS})
       SELECT solve_id, job, stage, min(tenant_id::text)::uuid, min(kind), min(map_class), min(reduce_class), max(finished_at),
         COALESCE(sum(d) FILTER (WHERE d > 0 AND o IS NOT NULL), 0), COALESCE(sum(o) FILTER (WHERE d > 0 AND o IS NOT NULL), 0),
         ${moments([
           ['rt', '1', 'true'],
           ['rt', 'd', 'd > 0'],
           ['rt', 'd', "d > 0 AND locality = 'node'"],
           ['rt', 'd', "d > 0 AND locality IN ('rack', 'remote')"],
           ['sh', 'd', 'phased AND NOT first_wave'],
           ['mg', 'd', 'phased'],
           ['rd', 'd', 'phased'],
           ['sh', '1', 'phased AND first_wave'],
         ])}
       FROM v GROUP BY solve_id, job, stage
       ON CONFLICT (solve_id, job, stage) DO UPDATE SET
         last_finished_at = EXCLUDED.last_finished_at, bytes_in = EXCLUDED.bytes_in, bytes_out = EXCLUDED.bytes_out,
         ${MOMENT_COLUMNS.split(', ').map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
      [solveIds, jobs],
    );
  }

  /**
   * A tenant's runtime history for a batch: per map class and per reduce class asked, and per kind, the
   * sums over the `recent` most recently finished stages (each a job's stage), newest first.
   */
  async history(tenantId: string, mapClasses: string[], reduceClasses: string[], recent: number): Promise<HistoryRows> {
    const sums = MOMENT_COLUMNS.split(', ').map((c) => `sum(${c})::float8 AS ${c}`).join(', ');
    const agg = `count(*)::int AS stages, sum(bytes_in) AS bytes_in, sum(bytes_out) AS bytes_out, ${sums}`;
    const byClass = (column: string, kind: string, classes: string[]) =>
      classes.length === 0
        ? Promise.resolve([])
        : this.db.query(
            `SELECT c.cls AS key, x.* FROM unnest($2::text[]) AS c(cls) CROSS JOIN LATERAL (
               SELECT ${agg} FROM (SELECT * FROM stage_history WHERE tenant_id = $1 AND kind = '${kind}' AND ${column} = c.cls
                                   ORDER BY last_finished_at DESC LIMIT $3) h) x WHERE x.stages > 0`,
            [tenantId, classes, recent],
          );
    const [maps, reduces, kinds] = await Promise.all([
      byClass('map_class', 'map', mapClasses),
      byClass('reduce_class', 'reduce', reduceClasses),
      this.db.query(
        `SELECT k.kind AS key, x.* FROM (VALUES ('map'), ('reduce')) AS k(kind) CROSS JOIN LATERAL (
           SELECT ${agg} FROM (SELECT * FROM stage_history WHERE tenant_id = $1 AND kind = k.kind ORDER BY last_finished_at DESC LIMIT $2) h) x WHERE x.stages > 0`,
        [tenantId, recent],
      ),
    ]);
    return { byMapClass: maps, byReduceClass: reduces, byKind: kinds };
  }

  /** The last started time at or before `before` of each task, for the phase checks of new events. */
  async lastStarts(keys: { solveId: string; job: string; stage: string; task: number; before: Date }[]): Promise<(Date | null)[]> {
    if (!keys.length) return [];
    const rows: { n: number; at: Date | null }[] = await this.db.query(
      `SELECT k.n, (SELECT max(e.at) FROM execution_events e WHERE e.solve_id = k.solve_id AND e.job = k.job AND e.stage = k.stage AND e.task = k.task
                    AND e.type = 'started' AND e.at <= k.before) AS at
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[], $5::timestamptz[]) WITH ORDINALITY AS k(solve_id, job, stage, task, before, n)`,
      [keys.map((k) => k.solveId), keys.map((k) => k.job), keys.map((k) => k.stage), keys.map((k) => k.task), keys.map((k) => k.before)],
    );
    const out: (Date | null)[] = new Array(keys.length).fill(null);
    for (const r of rows) out[Number(r.n) - 1] = r.at;
    return out;
  }

  /** Per task, its first recorded start and first recorded end (finished or killed), for the order checks of new events. */
  async taskSpans(keys: { solveId: string; job: string; stage: string; task: number }[]): Promise<{ firstStart: Date | null; firstEnd: Date | null }[]> {
    if (!keys.length) return [];
    const rows: { n: number; first_start: Date | null; first_end: Date | null }[] = await this.db.query(
      `SELECT k.n, min(e.at) FILTER (WHERE e.type = 'started') AS first_start, min(e.at) FILTER (WHERE e.type <> 'started') AS first_end
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS k(solve_id, job, stage, task, n)
       LEFT JOIN execution_events e ON e.solve_id = k.solve_id AND e.job = k.job AND e.stage = k.stage AND e.task = k.task
       GROUP BY k.n`,
      [keys.map((k) => k.solveId), keys.map((k) => k.job), keys.map((k) => k.stage), keys.map((k) => k.task)],
    );
    const out = keys.map(() => ({ firstStart: null as Date | null, firstEnd: null as Date | null }));
    for (const r of rows) out[Number(r.n) - 1] = { firstStart: r.first_start, firstEnd: r.first_end };
    return out;
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

  /** Every task event reported against these solves, by any reporter, in the order they happened. */
  taskEvents(solveIds: string[]): Promise<TaskEventRow[]> {
    if (!solveIds.length) return Promise.resolve([]);
    return this.db.query(`SELECT job, stage, task, node, type, at FROM execution_events WHERE solve_id = ANY($1::uuid[]) ORDER BY at, id`, [solveIds]);
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

/** The moment columns of stage_history, in the order of HISTORY_MOMENTS. */
const MOMENT_NAMES = Object.keys(HISTORY_MOMENTS);
const MOMENT_COLUMNS = MOMENT_NAMES.flatMap((m) => [`${m}_n`, `${m}_sum`, `${m}_sum_sq`, `${m}_num`, `${m}_den`]).join(', ');

/**
 * Of each `[numerator, denominator, filter]` (in MOMENT_NAMES order), over the rows the filter keeps: the
 * count, the sum and sum of squares of numerator / denominator, and the sums of numerators and denominators
 * (stats.ts Moments).
 */
function moments(of: [string, string, string][]): string {
  return of
    .map(([num, den, where]) => {
      const x = `(${num}) / (${den})`;
      const f = `FILTER (WHERE ${where})`;
      return `count(*) ${f}, COALESCE(sum(${x}) ${f}, 0), COALESCE(sum(${x} * ${x}) ${f}, 0), COALESCE(sum(${num}) ${f}, 0), COALESCE(sum((${den})::float8) ${f}, 0)`;
    })
    .join(',\n         ');
}

/** One row of summed history: `key` (a class or a kind), how many stages, and the summed moment columns. */
export type HistoryRow = Record<string, number | string>;
export interface HistoryRows {
  byMapClass: HistoryRow[];
  byReduceClass: HistoryRow[];
  byKind: HistoryRow[];
}

const EVENT_COLUMNS = 'event_id, solve_id, job, stage, task, node, type, at, reason, input_bytes, output_bytes, locality, shuffle_end_at, merge_end_at';

interface EventRow extends TaskEventRow {
  event_id: string;
  solve_id: string;
  reason: string | null;
  input_bytes: string | null;
  output_bytes: string | null;
  locality: EventInput['locality'];
  shuffle_end_at: Date | null;
  merge_end_at: Date | null;
}

function storedEvent(r: EventRow): StoredEvent {
  return {
    solveId: r.solve_id,
    job: r.job,
    stage: r.stage,
    task: r.task,
    node: r.node,
    type: r.type,
    at: r.at,
    reason: r.reason,
    inputBytes: r.input_bytes === null ? null : Number(r.input_bytes),
    outputBytes: r.output_bytes === null ? null : Number(r.output_bytes),
    locality: r.locality,
    shuffleEndAt: r.shuffle_end_at,
    mergeEndAt: r.merge_end_at,
  };
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
    events.map((e) => e.inputBytes),
    events.map((e) => e.outputBytes),
    events.map((e) => e.locality),
    events.map((e) => e.shuffleEndAt),
    events.map((e) => e.mergeEndAt),
  ];
}
